package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestMHA(t *testing.T) {
	// One head of size 1: scores 1 and 2, softmax 0.26894 and 0.73106.
	q := func() *tensor { return mk([]int{1, 1, 1}, []float32{1}) }
	k := func() *tensor { return mk([]int{1, 2, 1}, []float32{1, 2}) }
	v := func() *tensor { return mk([]int{1, 2, 1}, []float32{10, 20}) }
	mha := func(in ...string) nodeCase {
		return nodeCase{node: msNode("MultiHeadAttention", in, aInt("num_heads", 1))}
	}
	runKernelCases(t, []kernelCase{
		{name: "plain", c: mha("q", "k", "v"), ins: []*tensor{q(), k(), v()}, shape: []int{1, 1, 1}, want: []float64{17.310586}},
		// The second key is masked: only the first's value remains.
		{name: "key padding mask", c: mha("q", "k", "v", "", "m"), ins: []*tensor{q(), k(), v(), nil, mk([]int{1, 2}, []int32{1, 0})}, shape: []int{1, 1, 1}, want: []float64{10}},
		{name: "key lengths", c: mha("q", "k", "v", "", "m"), ins: []*tensor{q(), k(), v(), nil, mk([]int{1}, []int32{1})}, shape: []int{1, 1, 1}, want: []float64{10}},
		// attention_bias -1 on the second key: scores 1 and 1.
		{name: "attention bias", c: mha("q", "k", "v", "", "", "ab"), ins: []*tensor{q(), k(), v(), nil, nil, mk([]int{1, 1, 1, 2}, []float32{0, -1})}, shape: []int{1, 1, 1}, want: []float64{15}},
		// bias adds 1 to q, k and v: scores 2·2 and 2·3, values 11 and 21.
		{name: "bias", c: mha("q", "k", "v", "b"), ins: []*tensor{q(), k(), v(), mk([]int{3}, []float32{1, 1, 1})}, shape: []int{1, 1, 1}, want: []float64{19.807971}},
		{name: "packed qkv", c: mha("q"), ins: []*tensor{mk([]int{1, 1, 1, 3, 1}, []float32{1, 1, 1})}, err: errs.Unsupported},
		{name: "cache indirection", c: mha("q", "k", "v", "", "", "", "", "", "", "ci"), ins: []*tensor{q(), k(), v(), nil, nil, nil, nil, nil, nil, mk([]int{1, 1, 1}, []int32{0})}, err: errs.Unsupported},
		{name: "mask shape", c: mha("q", "k", "v", "", "m"), ins: []*tensor{q(), k(), v(), nil, mk([]int{1, 3}, []int32{1, 1, 1})}, err: errs.ShapeMismatch},
		{name: "key size", c: mha("q", "k", "v"), ins: []*tensor{q(), mk([]int{1, 2, 2}, []float32{1, 2, 3, 4}), v()}, err: errs.ShapeMismatch},
	})
	past := msNode("MultiHeadAttention", []string{"q", "k", "v", "", "m", "", "pk", "pv"}, aInt("num_heads", 2), aInt("unidirectional", 1))
	past.Outputs = []string{"y", "pk", "pv"}
	outs, err := runNode(t, nodeCase{node: past}, mk([]int{1, 1, 4}, []float32{1, 0, 0, 1}), mk([]int{1, 1, 4}, []float32{1, 1, 1, 1}),
		mk([]int{1, 1, 4}, []float32{1, 2, 3, 4}), nil, mk([]int{1, 2}, []int32{1, 1}), nil, mk([]int{1, 2, 1, 2}, []float32{5, 6, 7, 8}), mk([]int{1, 2, 1, 2}, []float32{9, 10, 11, 12}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outs[1].f32(), []float32{5, 6, 1, 1, 7, 8, 1, 1}; !equalF32(got, want) {
		t.Errorf("present_key = %v, want %v", got, want)
	}
	if got, want := outs[2].f32(), []float32{9, 10, 1, 2, 11, 12, 3, 4}; !equalF32(got, want) {
		t.Errorf("present_value = %v, want %v", got, want)
	}
	if got := steadyAllocs(t, nodeCase{node: past}, mk([]int{1, 1, 4}, []float32{1, 0, 0, 1}), mk([]int{1, 1, 4}, []float32{1, 1, 1, 1}),
		mk([]int{1, 1, 4}, []float32{1, 2, 3, 4}), nil, mk([]int{1, 2}, []int32{1, 1}), nil, mk([]int{1, 2, 1, 2}, []float32{5, 6, 7, 8}), mk([]int{1, 2, 1, 2}, []float32{9, 10, 11, 12})); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}
