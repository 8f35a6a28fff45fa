package cpu

import (
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestSwiGLU(t *testing.T) {
	sg := nodeCase{node: node("SwiGLU", []string{"a", "b"}), opset: 28}
	half := func(v ...float32) *tensor {
		return mk([]int{len(v)}, ewSeq(len(v), func(i int) float16.Float16 { return float16.Fromfloat32(v[i]) }))
	}
	runKernelCases(t, []kernelCase{
		{name: "float32", c: sg, ins: []*tensor{mk([]int{2}, []float32{1, -2}), mk([]int{2}, []float32{0.5, 1})}, shape: []int{2},
			want: []float64{0.3655293, -0.2384058}},
		{name: "alpha", c: nodeCase{node: node("SwiGLU", []string{"a", "b"}, aFloat("alpha", 0.5)), opset: 28, outTypes: []payload.DType{payload.Float64}},
			ins: []*tensor{mk([]int{1}, []float64{1}), mk([]int{1}, []float64{0.5})}, shape: []int{1}, want: []float64{0.3112296}},
		{name: "B type", c: sg, ins: []*tensor{mk([]int{1}, []float32{1}), mk([]int{1}, []float64{1})}, err: errs.InvalidArtifact},
		{name: "shapes differ", c: sg, ins: []*tensor{mk([]int{1}, []float32{1}), mk([]int{2}, []float32{1, 2})}, err: errs.ShapeMismatch},
		{name: "int32", c: sg, ins: []*tensor{mk([]int{1}, []int32{1}), mk([]int{1}, []int32{1})}, err: errs.Unsupported},
	})
	outs, err := runNode(t, nodeCase{node: node("SwiGLU", []string{"a", "b"}), opset: 28, outTypes: []payload.DType{payload.Float16}}, half(1, -2), half(0.5, 1))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float32{0.3655293, -0.2384058} {
		if got := elems[float16.Float16](outs[0])[i].Float32(); got-want > 1e-3 || want-got > 1e-3 {
			t.Errorf("float16 y[%d] = %v, want %v", i, got, want)
		}
	}
	wantSteadyNoAllocs(t, sg, mk([]int{8}, ewSeq(8, func(i int) float32 { return float32(i) })), mk([]int{8}, ewSeq(8, func(i int) float32 { return 1 })))
}
