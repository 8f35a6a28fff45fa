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

// qconvDyn is one dynamically quantized convolution as quantizers write
// it: DynamicQuantizeLinear(x) → ConvInteger with constant int8 weights
// → Cast to float → Mul by the scales' product (x's scale times the
// weights' scale, one value or, with perChannel, one an output channel
// of shape [m, 1, 1]) → optional Add of a bias of shape biasShape (nil:
// none) → optional Relu.
type qconvDyn struct {
	c, m, hw, k, stride int
	perChannel          bool
	biasShape           []int64
	relu                bool
}

func (q qconvDyn) String() string {
	return fmt.Sprintf("%d→%d %dx%d k%d s%d per-channel %v bias %v relu %v", q.c, q.m, q.hw, q.hw, q.k, q.stride, q.perChannel, q.biasShape, q.relu)
}

func (q qconvDyn) model(r *rand.Rand) []byte {
	w := make([]int8, q.m*q.c*q.k*q.k)
	for i := range w {
		w[i] = int8(r.IntN(256) - 128)
	}
	pad := int64(q.k / 2)
	ws := onnxbuild.Scalar("ws", float32(0.0123))
	if q.perChannel {
		ws = onnxbuild.TensorOf("ws", []int64{int64(q.m), 1, 1}, fuseRand(r, q.m, 0.02))
	}
	g := onnxbuild.Graph{
		Name:    "qconv",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, int64(q.c), int64(q.hw), int64(q.hw))},
		Outputs: []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}},
		Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{int64(q.m), int64(q.c), int64(q.k), int64(q.k)}, w),
			onnxbuild.Scalar("wz", int8(0)), ws},
	}
	g.Nodes = []onnxbuild.Node{
		{Name: "dq", Op: "DynamicQuantizeLinear", Inputs: []string{"x"}, Outputs: []string{"xq", "xs", "xz"}},
		testmodels.Node("Mul", []string{"xs", "ws"}, "sp"),
		testmodels.Node("ConvInteger", []string{"xq", "w", "xz", "wz"}, "p",
			onnxbuild.AInts("kernel_shape", int64(q.k), int64(q.k)), onnxbuild.AInts("pads", pad, pad, pad, pad),
			onnxbuild.AInts("strides", int64(q.stride), int64(q.stride))),
		testmodels.Node("Cast", []string{"p"}, "pf", onnxbuild.AInt("to", int64(payload.Float32))),
		testmodels.Node("Mul", []string{"pf", "sp"}, "mul"),
	}
	last := "mul"
	if q.biasShape != nil {
		n := 1
		for _, d := range q.biasShape {
			n *= int(d)
		}
		g.Initializers = append(g.Initializers, onnxbuild.TensorOf("b", q.biasShape, fuseRand(r, n, 1)))
		g.Nodes = append(g.Nodes, testmodels.Node("Add", []string{last, "b"}, "a"))
		last = "a"
	}
	if q.relu {
		g.Nodes = append(g.Nodes, testmodels.Node("Relu", []string{last}, "r"))
		last = "r"
	}
	g.Nodes = append(g.Nodes, testmodels.Node("Identity", []string{last}, "y"))
	return testmodels.Encode(g)
}

// TestConvIntegerToFloatSameAsUnfused checks that a dynamically
// quantized convolution's tail fuses into one ConvIntegerToFloat node
// and gives the unfused graph's values bit for bit, on the direct 1×1,
// the wide grid's and the im2col paths, without allocating.
func TestConvIntegerToFloatSameAsUnfused(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 42))
	chBias := []int64{24, 1, 1}
	for _, tc := range []struct {
		q    qconvDyn
		want string
	}{
		{qconvDyn{c: 8, m: 24, hw: 12, k: 3, stride: 1, biasShape: chBias, relu: true}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat+Relu Identity]"},
		{qconvDyn{c: 8, m: 24, hw: 12, k: 3, stride: 1, biasShape: []int64{1, 24, 1, 1}}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat Identity]"},
		{qconvDyn{c: 8, m: 24, hw: 12, k: 3, stride: 1, relu: true}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat+Relu Identity]"},
		{qconvDyn{c: 8, m: 24, hw: 12, k: 3, stride: 1, perChannel: true, biasShape: chBias, relu: true}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat+Relu Identity]"},
		{qconvDyn{c: 16, m: 24, hw: 9, k: 1, stride: 1, biasShape: chBias, relu: true}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat+Relu Identity]"},
		{qconvDyn{c: 8, m: 24, hw: 13, k: 3, stride: 2, perChannel: true, biasShape: chBias, relu: true}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat+Relu Identity]"},
		{qconvDyn{c: 3, m: 24, hw: 11, k: 5, stride: 1, biasShape: chBias}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat Identity]"},
		// A bias along the last dim is not a channel's: the Add and
		// the Relu stay, as one elementwise node.
		{qconvDyn{c: 8, m: 24, hw: 24, k: 3, stride: 1, biasShape: []int64{24}, relu: true}, "[DynamicQuantizeLinear Mul ConvIntegerToFloat Elementwise Identity]"},
	} {
		name := tc.q.String()
		onnx := tc.q.model(r)
		if got := fmt.Sprint(fusedOpNames(t, onnx)); got != tc.want {
			t.Errorf("%s: fused graph %s, want %s", name, got, tc.want)
			continue
		}
		fused, _ := loadFused(t, onnx, true, 1)
		plain, _ := loadFused(t, onnx, false, 1)
		for _, batch := range []int{1, 2} {
			in := f32t{Shape: []int{batch, tc.q.c, tc.q.hw, tc.q.hw}, Data: fuseRand(r, batch*tc.q.c*tc.q.hw*tc.q.hw, 3)}
			sameAsUnfused(t, fmt.Sprintf("%s batch %d", name, batch), fused, plain, &in, true)
		}
	}
}

// fusedOpNames returns the op types of onnx's graph after optimizeGraph,
// in order, each followed by +Act for a fused activation.
func fusedOpNames(t *testing.T, onnx []byte) []string {
	t.Helper()
	var ops []string
	for _, n := range optimizedGraph(t, onnx).Nodes {
		op := n.OpType
		if n.Fused != nil && n.Fused.Act != "" {
			op += "+" + n.Fused.Act
		}
		ops = append(ops, op)
	}
	return ops
}

// TestConvIntegerToFloatRefuses checks that the tail stays unfused where
// a value it would absorb is read elsewhere, and that the fused node
// checks its scale at run time.
func TestConvIntegerToFloatRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 43))
	q := qconvDyn{c: 8, m: 24, hw: 12, k: 3, stride: 1, biasShape: []int64{24, 1, 1}, relu: true}
	art, err := artifacts.FromBytes(q.model(r), "qconv")
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
			if n.OpType == model.ConvIntegerToFloat {
				t.Errorf("%s read as a graph output: fused anyway", v)
			}
		}
	}
}
