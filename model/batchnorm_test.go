package model

import (
	"math"
	"math/rand"
	"testing"
)

// naiveConv computes a 2-D convolution (N=1, group 1, stride 1, symmetric
// padding p) of x [c,h,w] with w [m,c,k,k] and bias b (or nil).
func naiveConv(x []float32, c, h, wd int, wt []float32, m, k int, b []float32, p int) []float32 {
	oh, ow := h+2*p-k+1, wd+2*p-k+1
	out := make([]float32, m*oh*ow)
	for o := 0; o < m; o++ {
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				var s float64
				if b != nil {
					s = float64(b[o])
				}
				for ci := 0; ci < c; ci++ {
					for ki := 0; ki < k; ki++ {
						for kj := 0; kj < k; kj++ {
							y, xx := i+ki-p, j+kj-p
							if y < 0 || y >= h || xx < 0 || xx >= wd {
								continue
							}
							s += float64(x[(ci*h+y)*wd+xx]) * float64(wt[((o*c+ci)*k+ki)*k+kj])
						}
					}
				}
				out[(o*oh+i)*ow+j] = float32(s)
			}
		}
	}
	return out
}

func randF(r *rand.Rand, n int, lo, hi float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = lo + (hi-lo)*r.Float32()
	}
	return v
}

func convBN(withBias bool) *Graph {
	r := rand.New(rand.NewSource(1))
	const c, m, k = 2, 3, 3
	consts := []*Tensor{
		NewTensor("W", []int{m, c, k, k}, randF(r, m*c*k*k, -1, 1)),
		floats("scale", randF(r, m, 0.5, 2)...),
		floats("beta", randF(r, m, -1, 1)...),
		floats("mean", randF(r, m, -1, 1)...),
		floats("var", randF(r, m, 0.1, 3)...),
	}
	convIn := []string{"x", "W"}
	if withBias {
		consts = append(consts, floats("B", randF(r, m, -1, 1)...))
		convIn = append(convIn, "B")
	}
	g := graph(17, []ValueInfo{vin("x", f32, 1, c, 5, 5)}, consts,
		nd("Conv", convIn, []string{"conv"}, aIs("pads", 1, 1, 1, 1)),
		nd("BatchNormalization", []string{"conv", "scale", "beta", "mean", "var"}, []string{"y"}, aF("epsilon", 1e-3)),
	)
	return g
}

func vals(t *testing.T, g *Graph, name string) []float32 {
	t.Helper()
	if name == "" {
		return nil
	}
	v, err := View[float32](g.Initializers[name])
	if err != nil {
		t.Fatalf("View: %v", err)
	}
	return v
}

func TestFoldBatchNormNumerics(t *testing.T) {
	for _, withBias := range []bool{false, true} {
		g := convBN(withBias)
		r := rand.New(rand.NewSource(2))
		x := randF(r, 2*5*5, -2, 2)
		// Reference: conv then BN.
		ref := naiveConv(x, 2, 5, 5, vals(t, g, "W"), 3, 3, vals(t, g, g.Nodes[0].Input(2)), 1)
		sc, be, mu, va := vals(t, g, "scale"), vals(t, g, "beta"), vals(t, g, "mean"), vals(t, g, "var")
		for o := 0; o < 3; o++ {
			for i := 0; i < 25; i++ {
				v := &ref[o*25+i]
				*v = float32((float64(*v)-float64(mu[o]))/math.Sqrt(float64(va[o])+1e-3)*float64(sc[o]) + float64(be[o]))
			}
		}
		orig := g.Clone()
		if err := FoldBatchNorm(g); err != nil {
			t.Fatalf("FoldBatchNorm: %v", err)
		}
		if opTypes(g) != "Conv" {
			t.Fatalf("nodes: got %s, want Conv", opTypes(g))
		}
		conv := g.Nodes[0]
		if conv.Outputs[0] != "y" || len(conv.Inputs) != 3 {
			t.Fatalf("conv: got %+v, want output y and 3 inputs", conv)
		}
		got := naiveConv(x, 2, 5, 5, vals(t, g, conv.Inputs[1]), 3, 3, vals(t, g, conv.Inputs[2]), 1)
		for i := range ref {
			if math.Abs(float64(got[i]-ref[i])) > 1e-4*(1+math.Abs(float64(ref[i]))) {
				t.Fatalf("bias %v: element %d: folded %v, reference %v", withBias, i, got[i], ref[i])
			}
		}
		// The original weights are untouched, and the clone still has BN.
		if &vals(t, g, "W")[0] != &vals(t, orig, "W")[0] || opTypes(orig) != "Conv,BatchNormalization" {
			t.Fatal("the original graph changed")
		}
		if err := Sort(g); err != nil {
			t.Fatalf("Sort: %v", err)
		}
		if err := InferTypes(g); err != nil {
			t.Fatalf("InferTypes: %v", err)
		}
		if v := g.Values["y"]; !sameDims(v.Shape, []int{1, 3, 5, 5}) {
			t.Fatalf("y: got %+v, want shape [1 3 5 5]", v)
		}
	}
}

func TestFoldBatchNormSkips(t *testing.T) {
	cases := map[string]func(g *Graph){
		"conv output used twice": func(g *Graph) {
			g.Nodes = append(g.Nodes, nd("Relu", []string{"conv"}, []string{"z"}))
			g.Outputs = append(g.Outputs, ValueInfo{Name: "z"})
		},
		"conv output is a graph output": func(g *Graph) { g.Outputs = append(g.Outputs, ValueInfo{Name: "conv"}) },
		"training mode":                 func(g *Graph) { g.Nodes[1].Attrs = append(g.Nodes[1].Attrs, aI("training_mode", 1)) },
		"per-element statistics":        func(g *Graph) { g.Nodes[1].Attrs = append(g.Nodes[1].Attrs, aI("spatial", 0)) },
		"is_test 0 at opset 6": func(g *Graph) {
			g.Opset = 6
			g.Nodes[1].Attrs = append(g.Nodes[1].Attrs, aI("is_test", 0))
		},
		"dynamic scale": func(g *Graph) {
			delete(g.Initializers, "scale")
			g.Inputs = append(g.Inputs, vin("scale", f32, 3))
		},
		"dynamic weights": func(g *Graph) {
			delete(g.Initializers, "W")
			g.Inputs = append(g.Inputs, vin("W", f32, 3, 2, 3, 3))
		},
		"float64 mean": func(g *Graph) { g.Initializers["mean"] = NewTensor("mean", []int{3}, []float64{0, 0, 0}) },
		"wrong length": func(g *Graph) { g.Initializers["var"] = floats("var", 1, 1) },
		"mean output used": func(g *Graph) {
			g.Nodes[1].Outputs = []string{"y", "rm"}
			g.Outputs = append(g.Outputs, ValueInfo{Name: "rm"})
		},
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			g := convBN(true)
			mod(g)
			if err := FoldBatchNorm(g); err != nil {
				t.Fatalf("FoldBatchNorm: %v", err)
			}
			if len(g.Nodes) < 2 || g.Nodes[1].OpType != "BatchNormalization" {
				t.Fatalf("nodes: got %s, want the BatchNormalization kept second", opTypes(g))
			}
		})
	}
}

// TestSplitBatchNorm checks which BatchNormalization nodes become Mul
// and Add by per-channel constants, and those constants: the float32
// kernel's coefficients, shaped [C, 1, …] for the channel axis.
func TestSplitBatchNorm(t *testing.T) {
	bnAfterRelu := func() *Graph {
		g := convBN(false)
		g.Nodes[0] = nd("Relu", []string{"x"}, []string{"conv"})
		g.Initializers["scale"] = floats("scale", 1, 2)
		g.Initializers["beta"] = floats("beta", 0.5, -1)
		g.Initializers["mean"] = floats("mean", 2, 0)
		g.Initializers["var"] = floats("var", 3, 0.999)
		g.Inputs = []ValueInfo{vin("x", f32, -1, 2, -1, -1)}
		return g
	}
	t.Run("split", func(t *testing.T) {
		g := bnAfterRelu()
		if err := InferTypes(g); err != nil {
			t.Fatal(err)
		}
		if err := SplitBatchNorm(g); err != nil {
			t.Fatal(err)
		}
		if got := opTypes(g); got != "Relu,Mul,Add" {
			t.Fatalf("nodes: got %s, want Relu,Mul,Add", got)
		}
		mul, add := g.Nodes[1], g.Nodes[2]
		if mul.Inputs[0] != "conv" || add.Inputs[0] != mul.Outputs[0] || add.Outputs[0] != "y" {
			t.Fatalf("wiring: Mul %v -> %v, Add %v -> %v", mul.Inputs, mul.Outputs, add.Inputs, add.Outputs)
		}
		eps := float64(float32(1e-3))
		wantA := []float32{float32(1 / math.Sqrt(3+eps)), float32(2 / math.Sqrt(float64(float32(0.999))+eps))}
		wantB := []float32{float32(0.5 - 2/math.Sqrt(3+eps)), -1}
		for _, c := range []struct {
			name string
			want []float32
		}{{mul.Inputs[1], wantA}, {add.Inputs[1], wantB}} {
			tc := g.Initializers[c.name]
			if tc == nil || len(tc.Shape) != 3 || tc.Shape[0] != 2 || tc.Shape[1] != 1 || tc.Shape[2] != 1 {
				t.Fatalf("constant %s: %v, want shape [2 1 1]", c.name, tc)
			}
			if got := vals(t, g, c.name); got[0] != c.want[0] || got[1] != c.want[1] {
				t.Errorf("constant %s: got %v, want %v", c.name, got, c.want)
			}
		}
	})
	skips := map[string]func(g *Graph){
		"training mode": func(g *Graph) { g.Nodes[1].Attrs = append(g.Nodes[1].Attrs, aI("training_mode", 1)) },
		"dynamic scale": func(g *Graph) { delete(g.Initializers, "scale"); g.Inputs = append(g.Inputs, vin("scale", f32, 2)) },
		"float64 mean":  func(g *Graph) { g.Initializers["mean"] = NewTensor("mean", []int{2}, []float64{0, 0}) },
		"unknown rank":  func(g *Graph) { g.Inputs = []ValueInfo{{Name: "x", DType: f32}} },
		"opset 6":       func(g *Graph) { g.Opset = 6 },
		"mean output used": func(g *Graph) {
			g.Nodes[1].Outputs = []string{"y", "rm"}
			g.Outputs = append(g.Outputs, ValueInfo{Name: "rm"})
		},
	}
	for name, mod := range skips {
		t.Run(name, func(t *testing.T) {
			g := bnAfterRelu()
			mod(g)
			_ = InferTypes(g)
			if err := SplitBatchNorm(g); err != nil {
				t.Fatalf("SplitBatchNorm: %v", err)
			}
			if got := opTypes(g); got != "Relu,BatchNormalization" {
				t.Fatalf("nodes: got %s, want Relu,BatchNormalization", got)
			}
		})
	}
}
