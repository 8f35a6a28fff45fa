package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// qdynModel is a dynamically quantized product as quantizers write it:
// DynamicQuantizeLinear(x) → MatMulInteger with constant int8 weights →
// Cast to float → Mul by the scales' product (Mul of x's scale and the
// weights' scale, one value or one a column; or a constant scalar when
// scalar) → optional Add of a bias → Relu. With late, x's scale passes
// through an Abs placed after the product, so the fused node reads a
// value the original order produces later.
func qdynModel(r *rand.Rand, perColumn, scalar, bias, late bool) []byte {
	const k, n = 40, 24
	w := make([]int8, k*n)
	for i := range w {
		w[i] = int8(r.IntN(256) - 128)
	}
	g := onnxbuild.Graph{
		Name:    "qdyn",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, k)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, n)},
		Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{k, n}, w), onnxbuild.Scalar("wz", int8(0)),
			onnxbuild.TensorOf("b", []int64{n}, fuseRand(r, n, 1))},
	}
	ws := onnxbuild.Scalar("ws", float32(0.0123))
	if perColumn {
		ws = onnxbuild.TensorOf("ws", []int64{n}, fuseRand(r, n, 0.02))
	}
	g.Initializers = append(g.Initializers, ws, onnxbuild.Scalar("s", float32(0.00071)))
	g.Nodes = []onnxbuild.Node{
		{Name: "dq", Op: "DynamicQuantizeLinear", Inputs: []string{"x"}, Outputs: []string{"xq", "xs", "xz"}},
		testmodels.Node("MatMulInteger", []string{"xq", "w", "xz", "wz"}, "p"),
		testmodels.Node("Cast", []string{"p"}, "pf", onnxbuild.AInt("to", int64(payload.Float32))),
	}
	xs := "xs"
	if late {
		g.Nodes = append(g.Nodes, testmodels.Node("Abs", []string{"xs"}, "xs_abs"))
		xs = "xs_abs"
	}
	if scalar {
		g.Nodes = append(g.Nodes, testmodels.Node("Mul", []string{"pf", "s"}, "m"))
	} else {
		g.Nodes = append(g.Nodes, testmodels.Node("Mul", []string{xs, "ws"}, "sp"), testmodels.Node("Mul", []string{"pf", "sp"}, "m"))
	}
	last := "m"
	if bias {
		g.Nodes = append(g.Nodes, testmodels.Node("Add", []string{"m", "b"}, "a"))
		last = "a"
	}
	g.Nodes = append(g.Nodes, testmodels.Node("Relu", []string{last}, "y"))
	return testmodels.Encode(g)
}

// TestFuseIntegerScaleSameAsUnfused checks that the dynamic
// quantization tail fuses into MatMulIntegerToFloat and gives the
// unfused graph's values bit for bit.
func TestFuseIntegerScaleSameAsUnfused(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 40))
	for _, perColumn := range []bool{false, true} {
		for _, scalar := range []bool{false, true} {
			for _, bias := range []bool{false, true} {
				late := perColumn && !scalar
				name := fmt.Sprintf("per-column %v scalar %v bias %v late scale %v", perColumn, scalar, bias, late)
				onnx := qdynModel(r, perColumn, scalar, bias, late)
				ops := optimizedOps(t, onnx)
				want := "[DynamicQuantizeLinear MatMulIntegerToFloat Relu]"
				if late {
					want = "[DynamicQuantizeLinear Abs MatMulIntegerToFloat Relu]"
				}
				if fmt.Sprint(ops) != want {
					t.Fatalf("%s: fused graph %v, want %s", name, ops, want)
				}
				fused, _ := loadFused(t, onnx, true, 1)
				plain, _ := loadFused(t, onnx, false, 1)
				in := f32t{Shape: []int{5, 40}, Data: fuseRand(r, 200, 3)}
				sameAsUnfused(t, name, fused, plain, &in, true)
			}
		}
	}
}

// TestFuseIntegerScaleRefuses checks that the tail stays unfused where
// a value it would absorb is read elsewhere.
func TestFuseIntegerScaleRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 41))
	art, err := artifacts.FromBytes(qdynModel(r, true, false, true, false), "qdyn")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"p", "pf"} {
		g := art.Graph().Clone()
		g.Outputs = append(g.Outputs, model.ValueInfo{Name: v, DType: g.Values[v].DType})
		if err := optimizeGraph(g); err != nil {
			t.Fatal(err)
		}
		for _, n := range g.Nodes {
			if n.OpType == "MatMulIntegerToFloat" {
				t.Errorf("%s read as a graph output: fused anyway", v)
			}
		}
	}
}
