package model

import (
	"math"
	"math/rand"
	"testing"
)

// convAffine is Conv (with or without bias) → Mul(a) → Add(c), the
// constants of shapes sa and sc.
func convAffine(withBias bool, sa, sc []int) *Graph {
	r := rand.New(rand.NewSource(3))
	const c, m, k = 2, 3, 3
	n := func(s []int) int {
		p := 1
		for _, d := range s {
			p *= d
		}
		return p
	}
	consts := []*Tensor{
		NewTensor("W", []int{m, c, k, k}, randF(r, m*c*k*k, -1, 1)),
		NewTensor("a", sa, randF(r, n(sa), 0.5, 2)),
		NewTensor("c", sc, randF(r, n(sc), -1, 1)),
	}
	convIn := []string{"x", "W"}
	if withBias {
		consts = append(consts, floats("B", randF(r, m, -1, 1)...))
		convIn = append(convIn, "B")
	}
	return graph(17, []ValueInfo{vin("x", f32, 1, c, 5, 5)}, consts,
		nd("Conv", convIn, []string{"conv"}, aIs("pads", 1, 1, 1, 1)),
		nd("Mul", []string{"a", "conv"}, []string{"scaled"}),
		nd("Add", []string{"scaled", "c"}, []string{"y"}),
	)
}

// TestFoldConvAffine folds Mul and Add by scalar and per-channel
// constants into the Conv and compares the folded Conv with the
// reference Conv, scale and shift.
func TestFoldConvAffine(t *testing.T) {
	shapes := [][2][]int{
		{{1}, {}},
		{{1, 3, 1, 1}, {3, 1, 1}},
		{{1, 1, 1, 1}, {1, 3, 1, 1}},
	}
	for _, withBias := range []bool{false, true} {
		for _, s := range shapes {
			g := convAffine(withBias, s[0], s[1])
			r := rand.New(rand.NewSource(4))
			x := randF(r, 2*5*5, -2, 2)
			ref := naiveConv(x, 2, 5, 5, vals(t, g, "W"), 3, 3, vals(t, g, g.Nodes[0].Input(2)), 1)
			a, c := vals(t, g, "a"), vals(t, g, "c")
			pick := func(v []float32, o int) float32 {
				if len(v) == 1 {
					return v[0]
				}
				return v[o]
			}
			for o := range 3 {
				for i := range 25 {
					ref[o*25+i] = ref[o*25+i]*pick(a, o) + pick(c, o)
				}
			}
			if err := FoldConvAffine(g); err != nil {
				t.Fatalf("FoldConvAffine: %v", err)
			}
			if got := opTypes(g); got != "Conv" {
				t.Fatalf("bias %v shapes %v: nodes %s, want Conv", withBias, s, got)
			}
			conv := g.Nodes[0]
			if conv.Outputs[0] != "y" || len(conv.Inputs) != 3 {
				t.Fatalf("conv: got %+v, want output y and 3 inputs", conv)
			}
			got := naiveConv(x, 2, 5, 5, vals(t, g, conv.Inputs[1]), 3, 3, vals(t, g, conv.Inputs[2]), 1)
			for i := range ref {
				if math.Abs(float64(got[i]-ref[i])) > 1e-5*(1+math.Abs(float64(ref[i]))) {
					t.Fatalf("bias %v shapes %v: element %d: folded %v, want %v", withBias, s, i, got[i], ref[i])
				}
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
}

// TestFoldConvAffineSkips keeps the Mul where folding would change the
// result or the shape.
func TestFoldConvAffineSkips(t *testing.T) {
	cases := map[string]func(g *Graph){
		"conv output used twice": func(g *Graph) {
			g.Nodes = append(g.Nodes, nd("Relu", []string{"conv"}, []string{"z"}))
			g.Outputs = append(g.Outputs, ValueInfo{Name: "z"})
		},
		"conv output is a graph output": func(g *Graph) { g.Outputs = append(g.Outputs, ValueInfo{Name: "conv"}) },
		"dynamic scale": func(g *Graph) {
			delete(g.Initializers, "a")
			g.Inputs = append(g.Inputs, vin("a", f32, 1))
		},
		"per-position scale": func(g *Graph) { g.Initializers["a"] = NewTensor("a", []int{5}, []float32{1, 2, 3, 4, 5}) },
		"wider rank":         func(g *Graph) { g.Initializers["a"] = NewTensor("a", []int{1, 1, 1, 1, 1}, []float32{2}) },
		"channel count":      func(g *Graph) { g.Initializers["a"] = NewTensor("a", []int{1, 2, 1, 1}, []float32{2, 3}) },
		"infinite scale":     func(g *Graph) { g.Initializers["a"] = NewTensor("a", []int{1}, []float32{float32(math.Inf(1))}) },
		"float64 scale":      func(g *Graph) { g.Initializers["a"] = NewTensor("a", []int{1}, []float64{2}) },
		"opset 6":            func(g *Graph) { g.Opset = 6 },
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			g := convAffine(true, []int{1}, []int{1})
			mod(g)
			if err := FoldConvAffine(g); err != nil {
				t.Fatalf("FoldConvAffine: %v", err)
			}
			if len(g.Nodes) < 2 || g.Nodes[1].OpType != "Mul" {
				t.Fatalf("nodes: got %s, want the Mul kept second", opTypes(g))
			}
		})
	}
}
