package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestGQA(t *testing.T) {
	gqa := func(in []string, extra ...model.Attr) nodeCase {
		n := msNode("GroupQueryAttention", in, append([]model.Attr{aInt("num_heads", 1), aInt("kv_num_heads", 1)}, extra...)...)
		n.Outputs = []string{"y", "pk", "pv"}
		return nodeCase{node: n}
	}
	qkv := []string{"q", "k", "v", "", "", "sl", "tl"}
	q := func() *tensor { return mk([]int{1, 2, 1}, []float32{1, 1}) }
	k := func() *tensor { return mk([]int{1, 2, 1}, []float32{1, 2}) }
	v := func() *tensor { return mk([]int{1, 2, 1}, []float32{10, 20}) }
	sl := func(n ...int32) *tensor { return mk([]int{len(n)}, n) }
	tl := func(n int32) *tensor { return mk([]int{}, []int32{n}) }
	runKernelCases(t, []kernelCase{
		// Causal: query 0 sees key 0; query 1 both, scores 1 and 2.
		{name: "prompt", c: gqa(qkv), ins: []*tensor{q(), k(), v(), nil, nil, sl(1), tl(2)}, shape: []int{1, 2, 1}, want: []float64{10, 17.310586}},
		// A window of 1: each query sees its own key only.
		{name: "window", c: gqa(qkv, aInt("local_window_size", 1)), ins: []*tensor{q(), k(), v(), nil, nil, sl(1), tl(2)}, shape: []int{1, 2, 1}, want: []float64{10, 20}},
		{name: "seqlens beyond", c: gqa(qkv), ins: []*tensor{q(), k(), v(), nil, nil, sl(4), tl(2)}, err: errs.ShapeMismatch},
		{name: "batch of subsequent prompt", c: gqa([]string{"q", "k", "v", "pk", "pv", "sl", "tl"}),
			ins: []*tensor{mk([]int{2, 2, 1}, []float32{1, 1, 1, 1}), mk([]int{2, 2, 1}, []float32{1, 1, 1, 1}), mk([]int{2, 2, 1}, []float32{1, 1, 1, 1}),
				mk([]int{2, 1, 1, 1}, []float32{1, 1}), mk([]int{2, 1, 1, 1}, []float32{1, 1}), sl(2, 2), tl(3)}, err: errs.ShapeMismatch},
		{name: "smooth softmax", c: gqa(qkv, aInt("smooth_softmax", 1)), ins: []*tensor{q(), k(), v(), nil, nil, sl(1), tl(2)}, err: errs.Unsupported},
		{name: "seqlens type", c: gqa(qkv), ins: []*tensor{q(), k(), v(), nil, nil, mk([]int{1}, []int64{1}), tl(2)}, err: errs.InvalidArtifact},
	})
	// Decoding after one past key: present holds it then the new one,
	// and a buffer of 3 rows ends in zeros.
	dec := gqa([]string{"q", "k", "v", "pk", "pv", "sl", "tl"})
	ins := []*tensor{mk([]int{1, 1, 1}, []float32{1}), mk([]int{1, 1, 1}, []float32{2}), mk([]int{1, 1, 1}, []float32{20}),
		mk([]int{1, 1, 3, 1}, []float32{1, 9, 9}), mk([]int{1, 1, 3, 1}, []float32{10, 9, 9}), sl(1), tl(2)}
	outs, err := runNode(t, dec, ins...)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outs[0].f32()[0], float32(17.310586); got-want > 1e-4 || want-got > 1e-4 {
		t.Errorf("y = %v, want %v", got, want)
	}
	if got, want := outs[1].f32(), []float32{1, 2, 0}; !equalF32(got, want) {
		t.Errorf("present_key = %v, want %v", got, want)
	}
	if got, want := outs[2].f32(), []float32{10, 20, 0}; !equalF32(got, want) {
		t.Errorf("present_value = %v, want %v", got, want)
	}
	if got := steadyAllocs(t, dec, ins...); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
	// Rotary embeddings on a decoding step: scratch copies, no
	// allocations.
	rot := nodeCase{node: msNode("GroupQueryAttention", []string{"q", "k", "v", "pk", "pv", "sl", "tl", "cos", "sin"},
		aInt("num_heads", 2), aInt("kv_num_heads", 1), aInt("do_rotary", 1))}
	rot.node.Outputs = []string{"y", "pk", "pv"}
	rins := []*tensor{mk([]int{1, 1, 8}, make([]float32, 8)), mk([]int{1, 1, 4}, make([]float32, 4)), mk([]int{1, 1, 4}, make([]float32, 4)),
		mk([]int{1, 1, 2, 4}, make([]float32, 8)), mk([]int{1, 1, 2, 4}, make([]float32, 8)), sl(2), tl(3), mk([]int{4, 2}, make([]float32, 8)), mk([]int{4, 2}, make([]float32, 8))}
	if got := steadyAllocs(t, rot, rins...); got != 0 {
		t.Errorf("rotary: got %v allocations per run, want 0", got)
	}
}
