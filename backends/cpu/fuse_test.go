package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

type f32t = payload.Tensor[float32]

// loadFused compiles the model in onnx with or without
// model.FuseActivations and returns it ready to run, with how many nodes
// carry a fusion.
func loadFused(t *testing.T, onnx []byte, fuse bool, threads int) (*Model[f32t, f32t], int) {
	t.Helper()
	art, err := artifacts.FromBytes(onnx, "fuse")
	if err != nil {
		t.Fatal(err)
	}
	g := art.Graph().Clone()
	if fuse {
		err = optimizeGraph(g)
	} else {
		err = model.Optimize(g, evalNode)
	}
	if err != nil {
		t.Fatal(err)
	}
	fused := 0
	for _, n := range g.Nodes {
		if n.Fused != nil {
			fused++
		}
	}
	p, err := compile(g, compute.Options{Threads: threads}, "fuse", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model[f32t, f32t]{prog: p, label: "fuse"}
	if err := m.bindTypes(); err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m, fused
}

// optimizedOps returns the op types of the model onnx's graph after
// optimizeGraph, in order.
func optimizedOps(t *testing.T, onnx []byte) []string {
	t.Helper()
	var ops []string
	for _, n := range optimizedGraph(t, onnx).Nodes {
		ops = append(ops, n.OpType)
	}
	return ops
}

// optimizedGraph returns the model onnx's graph after optimizeGraph.
func optimizedGraph(t *testing.T, onnx []byte) *model.Graph {
	t.Helper()
	art, err := artifacts.FromBytes(onnx, "fuse")
	if err != nil {
		t.Fatal(err)
	}
	g := art.Graph().Clone()
	if err := optimizeGraph(g); err != nil {
		t.Fatal(err)
	}
	return g
}

func fuseRand(r *rand.Rand, n int, s float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = (r.Float32()*2 - 1) * s
	}
	return v
}

// actTail returns the nodes of activation act applied to value x, ending
// in value y, and the constants they need.
func actTail(act, x, y string) ([]onnxbuild.Node, []onnxbuild.Tensor) {
	nd := func(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
		return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
	}
	sc := func(name string, v float32) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	switch act {
	case "Clip":
		return []onnxbuild.Node{nd("Clip", []string{x, "lo", "hi"}, y)}, []onnxbuild.Tensor{sc("lo", -0.25), sc("hi", 0.5)}
	case "HardSigmoid":
		return []onnxbuild.Node{nd("HardSigmoid", []string{x}, y, onnxbuild.AFloat("alpha", 0.3), onnxbuild.AFloat("beta", 0.4))}, nil
	case "HardSwishDiv6":
		return []onnxbuild.Node{
				nd("Add", []string{x, "three"}, y+"_a"), nd("Clip", []string{y + "_a", "zero", "six"}, y+"_c"),
				nd("Mul", []string{x, y + "_c"}, y+"_m"), nd("Div", []string{y + "_m", "six"}, y),
			}, []onnxbuild.Tensor{
				sc("three", 3), sc("zero", 0), sc("six", 6),
			}
	case "LeakyReluMax":
		return []onnxbuild.Node{
			nd("LeakyRelu", []string{x}, y+"_l", onnxbuild.AFloat("alpha", 0.2)), nd("Max", []string{y + "_l", "floor"}, y),
		}, []onnxbuild.Tensor{onnxbuild.TensorOf("floor", []int64{1}, []float32{-0.5})}
	case "PaddleHardSwish":
		return []onnxbuild.Node{
				nd("Mul", []string{"s1", x}, y+"_s"), nd("Add", []string{y + "_s", "b1"}, y+"_b"),
				nd("Add", []string{y + "_b", "three"}, y+"_a"), nd("Clip", []string{y + "_a", "zero", "six"}, y+"_c"),
				nd("Mul", []string{y + "_b", y + "_c"}, y+"_m"), nd("Div", []string{y + "_m", "six"}, y+"_h"),
				nd("Mul", []string{"s2", y + "_h"}, y+"_t"), nd("Add", []string{y + "_t", "b2"}, y),
			}, []onnxbuild.Tensor{
				sc("three", 3), sc("zero", 0), sc("six", 6),
				onnxbuild.TensorOf("s1", []int64{1}, []float32{1.25}), onnxbuild.TensorOf("b1", []int64{1}, []float32{-0.5}),
				onnxbuild.TensorOf("s2", []int64{1}, []float32{0.75}), onnxbuild.TensorOf("b2", []int64{1}, []float32{0.125}),
			}
	case "HardSwishDivMul":
		return []onnxbuild.Node{
			nd("Add", []string{x, "three"}, y+"_a"), nd("Clip", []string{y + "_a", "zero", "six"}, y+"_c"),
			nd("Div", []string{y + "_c", "six"}, y+"_d"), nd("Mul", []string{x, y + "_d"}, y),
		}, []onnxbuild.Tensor{sc("three", 3), sc("zero", 0), sc("six", 6)}
	case "GeluErf":
		return []onnxbuild.Node{
			nd("Div", []string{x, "sqrt2"}, y+"_d"), nd("Erf", []string{y + "_d"}, y+"_e"),
			nd("Add", []string{y + "_e", "one"}, y+"_a"), nd("Mul", []string{x, y + "_a"}, y+"_m"),
			nd("Mul", []string{y + "_m", "half"}, y),
		}, []onnxbuild.Tensor{sc("sqrt2", 1.4142135), sc("one", 1), sc("half", 0.5)}
	case "GeluTanh":
		return []onnxbuild.Node{
			nd("Pow", []string{x, "three"}, y+"_p"), nd("Mul", []string{y + "_p", "k"}, y+"_k"),
			nd("Add", []string{x, y + "_k"}, y+"_a"), nd("Mul", []string{y + "_a", "c"}, y+"_c"),
			nd("Tanh", []string{y + "_c"}, y+"_t"), nd("Add", []string{y + "_t", "one"}, y+"_o"),
			nd("Mul", []string{x, y + "_o"}, y+"_m"), nd("Mul", []string{y + "_m", "half"}, y),
		}, []onnxbuild.Tensor{sc("three", 3), sc("k", 0.044715), sc("c", 0.7978846), sc("one", 1), sc("half", 0.5)}
	case "HardSigmoidSpelled":
		return []onnxbuild.Node{
			nd("Add", []string{x, "three"}, y+"_a"), nd("Clip", []string{y + "_a", "zero", "six"}, y+"_c"),
			nd("Div", []string{y + "_c", "six"}, y),
		}, []onnxbuild.Tensor{sc("three", 3), sc("zero", 0), sc("six", 6)}
	case "SiLU":
		return []onnxbuild.Node{nd("Sigmoid", []string{x}, y+"_s"), nd("Mul", []string{x, y + "_s"}, y)}, nil
	case "Mixed":
		return []onnxbuild.Node{
			nd("Tanh", []string{x}, y+"_t"), nd("Sub", []string{"one", y + "_t"}, y+"_s"),
			nd("Abs", []string{y + "_s"}, y+"_a"), nd("Sqrt", []string{y + "_a"}, y+"_q"),
			nd("Div", []string{"one", y + "_q"}, y+"_r"), nd("Neg", []string{y + "_r"}, y+"_n"),
			nd("Pow", []string{y + "_n", "two"}, y+"_p"), nd("Min", []string{y + "_p", "six"}, y+"_m"),
			nd("Sub", []string{y + "_m", x}, y),
		}, []onnxbuild.Tensor{sc("one", 1), sc("two", 2), sc("six", 6)}
	}
	return []onnxbuild.Node{nd(act, []string{x}, y)}, nil
}

// progActs are the tails that fuse as an elementwise program.
var progActs = []string{"LeakyReluMax", "PaddleHardSwish", "HardSwishDivMul", "GeluErf", "GeluTanh", "HardSigmoidSpelled", "SiLU", "Mixed"}

// fuseModel is a product of kind op (Conv, DepthwiseConv, Gemm, MatMul,
// MatMulBias) followed by activation act ("" for none).
func fuseModel(r *rand.Rand, op, act string) ([]byte, []int) {
	g := onnxbuild.Graph{Name: "fuse"}
	w := func(name string, shape ...int64) onnxbuild.Tensor {
		n := 1
		for _, d := range shape {
			n *= int(d)
		}
		return onnxbuild.TensorOf(name, shape, fuseRand(r, n, 0.5))
	}
	var in []int
	head := "p"
	switch op {
	case "Conv", "DepthwiseConv":
		in = []int{1, 6, 9, 11}
		grp, cin := int64(1), int64(6)
		if op == "DepthwiseConv" {
			grp, cin = 6, 1
		}
		g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 6, 9, 11)}
		g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 6, 9, 11)}
		g.Initializers = []onnxbuild.Tensor{w("w", 6, cin, 3, 3), w("b", 6)}
		g.Nodes = []onnxbuild.Node{{Name: "p", Op: "Conv", Inputs: []string{"x", "w", "b"}, Outputs: []string{"p"},
			Attrs: []onnxbuild.Attr{onnxbuild.AInts("pads", 1, 1, 1, 1), onnxbuild.AInt("group", grp)}}}
	case "Gemm":
		in = []int{5, 37}
		g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 37)}
		g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 21)}
		g.Initializers = []onnxbuild.Tensor{w("w", 37, 21), w("b", 21)}
		g.Nodes = []onnxbuild.Node{{Name: "p", Op: "Gemm", Inputs: []string{"x", "w", "b"}, Outputs: []string{"p"}}}
	case "MatMul", "MatMulBias":
		in = []int{2, 7, 300}
		g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 7, 300)}
		g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 7, 35)}
		g.Initializers = []onnxbuild.Tensor{w("w", 300, 35), w("b", 1, 35)}
		g.Nodes = []onnxbuild.Node{{Name: "m", Op: "MatMul", Inputs: []string{"x", "w"}, Outputs: []string{"m"}}}
		head = "m"
		if op == "MatMulBias" {
			g.Nodes = append(g.Nodes, onnxbuild.Node{Name: "p", Op: "Add", Inputs: []string{"b", "m"}, Outputs: []string{"p"}})
			head = "p"
		}
	}
	if act == "" {
		g.Nodes[len(g.Nodes)-1].Outputs = []string{"y"}
		if len(g.Nodes) > 1 {
			g.Nodes[1].Name = "y"
		}
	} else {
		nodes, consts := actTail(act, head, "y")
		g.Nodes = append(g.Nodes, nodes...)
		g.Initializers = append(g.Initializers, consts...)
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode(), in
}

// TestFusedMatchesUnfused checks that every fusion gives the same bits
// as the unfused ops, on one thread and two, with inputs that reach every
// branch of the activations (negatives, beyond the clip bounds, NaN).
func TestFusedMatchesUnfused(t *testing.T) {
	acts := append([]string{"", "Relu", "Clip", "HardSigmoid", "HardSwish", "HardSwishDiv6", "Sigmoid", "Tanh"}, progActs...)
	for _, op := range []string{"Conv", "DepthwiseConv", "Gemm", "MatMul", "MatMulBias"} {
		for _, act := range acts {
			for _, threads := range []int{1, 2} {
				r := rand.New(rand.NewPCG(7, uint64(len(op)+len(act))))
				onnx, shape := fuseModel(r, op, act)
				fused, nf := loadFused(t, onnx, true, threads)
				plain, _ := loadFused(t, onnx, false, threads)
				wantFused := 0
				if act != "" || op == "MatMulBias" {
					wantFused = 1
				}
				if nf != wantFused {
					t.Errorf("%s+%s: %d fused nodes, want %d", op, act, nf, wantFused)
				}
				n := 1
				for _, d := range shape {
					n *= d
				}
				x := fuseRand(r, n, 8)
				x[0] = float32(math.NaN())
				in := f32t{Shape: shape, Data: x}
				var a, b f32t
				if err := fused.InferOne(&in, &a); err != nil {
					t.Fatal(err)
				}
				if err := plain.InferOne(&in, &b); err != nil {
					t.Fatal(err)
				}
				for i := range a.Data {
					if math.Float32bits(a.Data[i]) != math.Float32bits(b.Data[i]) && !(a.Data[i] != a.Data[i] && b.Data[i] != b.Data[i]) {
						t.Fatalf("%s+%s threads=%d: element %d is %v fused, %v unfused", op, act, threads, i, a.Data[i], b.Data[i])
					}
				}
			}
		}
	}
}

// TestMSGeluFusedMatchesUnfused checks that ONNX Runtime's Gelu, BiasGelu
// and FastGelu folded into the MatMul before them give the same bits as
// the unfused nodes, on one thread and two.
func TestMSGeluFusedMatchesUnfused(t *testing.T) {
	for _, c := range []struct {
		op   string
		bias bool
	}{{"BiasGelu", true}, {"Gelu", false}, {"FastGelu", true}, {"FastGelu", false}} {
		for _, threads := range []int{1, 2} {
			r := rand.New(rand.NewPCG(9, uint64(len(c.op))))
			in := []string{"m"}
			if c.bias {
				in = append(in, "b")
			}
			g := onnxbuild.Graph{
				Name:    "fuse",
				Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 7, 300)},
				Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 7, 35)},
				Initializers: []onnxbuild.Tensor{
					onnxbuild.TensorOf("w", []int64{300, 35}, fuseRand(r, 300*35, 0.5)),
					onnxbuild.TensorOf("b", []int64{35}, fuseRand(r, 35, 2)),
				},
				Nodes: []onnxbuild.Node{
					{Name: "m", Op: "MatMul", Inputs: []string{"x", "w"}, Outputs: []string{"m"}},
					{Name: "y", Op: c.op, Domain: msDomain, Inputs: in, Outputs: []string{"y"}},
				},
			}
			onnx := (&onnxbuild.Model{Opset: 17, Opsets: map[string]int64{msDomain: 1}, Graph: g}).Encode()
			fused, nf := loadFused(t, onnx, true, threads)
			plain, _ := loadFused(t, onnx, false, threads)
			if nf != 1 {
				t.Errorf("%s bias=%v: %d fused nodes, want 1", c.op, c.bias, nf)
			}
			x := fuseRand(r, 2*7*300, 1)
			x[0] = float32(math.NaN())
			xin := f32t{Shape: []int{2, 7, 300}, Data: x}
			var a, b f32t
			if err := fused.InferOne(&xin, &a); err != nil {
				t.Fatal(err)
			}
			if err := plain.InferOne(&xin, &b); err != nil {
				t.Fatal(err)
			}
			for i := range a.Data {
				if math.Float32bits(a.Data[i]) != math.Float32bits(b.Data[i]) && !(a.Data[i] != a.Data[i] && b.Data[i] != b.Data[i]) {
					t.Fatalf("%s bias=%v threads=%d: element %d is %v fused, %v unfused", c.op, c.bias, threads, i, a.Data[i], b.Data[i])
				}
			}
		}
	}
}
