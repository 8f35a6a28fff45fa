package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// elementwiseOps lists the op types the elementwise, activation,
// normalisation and reduction kernel files register.
var elementwiseOps = []string{
	"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Min", "Max", "Sum", "Mean",
	"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not",
	"Where", "Expand", "Cast", "CastLike",
	"Neg", "Abs", "Sign", "Relu", "Floor", "Ceil", "Round", "Reciprocal", "Sqrt", "Exp", "Log", "Erf",
	"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
	"Tanh", "Sigmoid", "Softplus", "Softsign", "Mish", "Elu", "Selu", "Celu", "LeakyRelu",
	"ThresholdedRelu", "HardSigmoid", "HardSwish", "Gelu", "PRelu", "Clip",
	"Softmax", "LogSoftmax", "LayerNormalization",
	"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
	"ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp", "ArgMax", "ArgMin",
	"BitShift", "IsNaN", "IsInf",
}

func TestElementwiseOpsRegistered(t *testing.T) {
	for _, op := range elementwiseOps {
		if _, ok := registry[op]; !ok {
			t.Errorf("%s is not registered", op)
		}
	}
}

// TestElementwiseNoAllocs checks that the kernels allocate nothing once
// their scratch has grown: shape and run are called as the executor would.
func TestElementwiseNoAllocs(t *testing.T) {
	f := func(shape ...int) *tensor {
		return mk(shape, ewSeq(ewNumel(shape), func(i int) float32 { return float32(i%7) - 3 }))
	}
	cases := []struct {
		n     *model.Node
		opset int64
		out   payload.DType
		ins   []*tensor
	}{
		{node("Add", []string{"a", "b"}), 13, payload.Float32, []*tensor{f(2, 3, 4), f(4)}},
		{node("Mul", []string{"a", "b"}), 13, payload.Float32, []*tensor{f(2, 1, 4), f(3, 1)}},
		{node("Pow", []string{"a", "b"}), 13, payload.Float32, []*tensor{f(2, 3), mk([]int{}, []int64{2})}},
		{node("Max", []string{"a", "b", "c"}), 13, payload.Float32, []*tensor{f(2, 3), f(3), f(2, 1)}},
		{node("Less", []string{"a", "b"}), 13, payload.Bool, []*tensor{f(2, 3), f(3)}},
		{node("Where", []string{"c", "a", "b"}), 13, payload.Float32, []*tensor{mk([]int{2, 1}, []bool{true, false}), f(3), f(2, 3)}},
		{node("Expand", []string{"a", "s"}), 13, payload.Float32, []*tensor{f(3, 1), mk([]int{3}, []int64{2, 3, 4})}},
		{node("Gelu", []string{"a"}), 20, payload.Float32, []*tensor{f(8)}},
		{node("Clip", []string{"a", "lo", "hi"}), 13, payload.Float32, []*tensor{f(8), mk([]int{}, []float32{-1}), mk([]int{}, []float32{1})}},
		{node("PRelu", []string{"a", "s"}), 13, payload.Float32, []*tensor{f(2, 3, 2), f(3, 1)}},
		{node("Cast", []string{"a"}, aInt("to", int64(payload.Float16))), 13, payload.Float16, []*tensor{f(8)}},
		{node("Softmax", []string{"a"}, aInt("axis", 1)), 13, payload.Float32, []*tensor{f(2, 3, 4)}},
		{node("LayerNormalization", []string{"a", "s", "b"}), 17, payload.Float32, []*tensor{f(2, 3, 4), f(4), f(4)}},
		{node("ReduceMean", []string{"a", "axes"}), 18, payload.Float32, []*tensor{f(2, 3, 4), mk([]int{2}, []int64{0, 2})}},
		{node("ReduceLogSumExp", []string{"a"}, aInts("axes", 1)), 13, payload.Float32, []*tensor{f(2, 3, 4)}},
		{node("ArgMax", []string{"a"}, aInt("axis", 1)), 13, payload.Int64, []*tensor{f(2, 3, 4)}},
	}
	for _, c := range cases {
		g := model.NewGraph()
		g.Opset = c.opset
		bc := &buildCtx{g: g, n: c.n, opset: c.opset}
		for i, in := range c.ins {
			bc.in = append(bc.in, model.ValueInfo{Name: c.n.Input(i), DType: in.dt, Shape: in.shape, RankKnown: true})
		}
		bc.out = []model.ValueInfo{{Name: "y", DType: c.out}}
		k, err := buildKernel(bc)
		if err != nil {
			t.Fatalf("%s: %v", c.n.OpType, err)
		}
		sh := newOutShaper(bc, k)
		out := []*tensor{{dt: c.out}}
		step := func() {
			if err := sh.shapes(c.ins, out); err != nil {
				t.Fatal(err)
			}
			if need := out[0].numel() * c.out.Size(); len(out[0].data) != need {
				out[0].data = alignedBytes(need)
			}
			if err := k.run(c.ins, out); err != nil {
				t.Fatal(err)
			}
		}
		step()
		if a := testing.AllocsPerRun(10, step); a != 0 {
			t.Errorf("%s allocates %v times per run", c.n.OpType, a)
		}
	}
}
