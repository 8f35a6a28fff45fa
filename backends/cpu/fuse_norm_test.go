package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// lnModel is a layer normalisation over x's last dim spelled out as
// exporters write it, at opset (ReduceMean's axes an attribute).
func lnModel(r *rand.Rand, opset int64) []byte {
	nd := func(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
		return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
	}
	axes := onnxbuild.AInts("axes", -1)
	g := onnxbuild.Graph{Name: "ln"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 5, 24)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 5, 24)}
	g.Initializers = []onnxbuild.Tensor{onnxbuild.Scalar("two", float32(2)), onnxbuild.Scalar("eps", float32(1e-5)),
		onnxbuild.TensorOf("g", []int64{24}, fuseRand(r, 24, 2)), onnxbuild.TensorOf("b", []int64{24}, fuseRand(r, 24, 1))}
	g.Nodes = []onnxbuild.Node{
		nd("ReduceMean", []string{"x"}, "m", axes), nd("Sub", []string{"x", "m"}, "d"),
		nd("Pow", []string{"d", "two"}, "p"), nd("ReduceMean", []string{"p"}, "v", axes),
		nd("Add", []string{"v", "eps"}, "ve"), nd("Sqrt", []string{"ve"}, "s"),
		nd("Div", []string{"d", "s"}, "n"), nd("Mul", []string{"n", "g"}, "ns"), nd("Add", []string{"ns", "b"}, "y"),
	}
	m := onnxbuild.Model{Opset: opset, Graph: g}
	return m.Encode()
}

// rmsModel is an RMS normalisation over x's last dim spelled out.
func rmsModel(r *rand.Rand, opset int64) []byte {
	nd := func(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
		return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
	}
	g := onnxbuild.Graph{Name: "rms"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 5, 24)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 5, 24)}
	g.Initializers = []onnxbuild.Tensor{onnxbuild.Scalar("two", float32(2)), onnxbuild.Scalar("eps", float32(1e-6)),
		onnxbuild.TensorOf("g", []int64{24}, fuseRand(r, 24, 2))}
	g.Nodes = []onnxbuild.Node{
		nd("Pow", []string{"x", "two"}, "p"), nd("ReduceMean", []string{"p"}, "m", onnxbuild.AInts("axes", -1)),
		nd("Add", []string{"m", "eps"}, "me"), nd("Sqrt", []string{"me"}, "s"),
		nd("Div", []string{"x", "s"}, "n"), nd("Mul", []string{"n", "g"}, "y"),
	}
	m := onnxbuild.Model{Opset: opset, Graph: g}
	return m.Encode()
}

// TestFusedLayerNormMatchesUnfused checks that the LayerNormalization
// and RMSNormalization nodes FuseNorms writes give the spelled-out graph's results within
// float32 rounding, at an opset with the op and one without.
func TestFusedLayerNormMatchesUnfused(t *testing.T) {
	for _, c := range []struct {
		op    string
		opset int64
	}{{"LayerNormalization", 9}, {"LayerNormalization", 17}, {"RMSNormalization", 13}} {
		opset := c.opset
		r := rand.New(rand.NewPCG(13, uint64(opset)))
		onnx := lnModel(r, opset)
		if c.op == "RMSNormalization" {
			onnx = rmsModel(r, opset)
		}
		fused, _ := loadFused(t, onnx, true, 1)
		plain, _ := loadFused(t, onnx, false, 1)
		ln := 0
		for _, n := range fused.prog.g.Nodes {
			if n.OpType == c.op {
				ln++
			}
		}
		if len(fused.prog.g.Nodes) != 1 || ln != 1 {
			t.Fatalf("opset %d: %d nodes, %d LayerNormalization, want one", opset, len(fused.prog.g.Nodes), ln)
		}
		x := fuseRand(r, 3*5*24, 4)
		in := f32t{Shape: []int{3, 5, 24}, Data: x}
		var a, b f32t
		if err := fused.InferOne(&in, &a); err != nil {
			t.Fatal(err)
		}
		if err := plain.InferOne(&in, &b); err != nil {
			t.Fatal(err)
		}
		for i := range a.Data {
			if d := math.Abs(float64(a.Data[i] - b.Data[i])); d > 1e-5*math.Max(1, math.Abs(float64(b.Data[i]))) {
				t.Fatalf("opset %d: element %d is %v fused, %v unfused", opset, i, a.Data[i], b.Data[i])
			}
		}
	}
}
