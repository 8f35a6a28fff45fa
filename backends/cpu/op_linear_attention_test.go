package cpu

import (
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestLinearAttention(t *testing.T) {
	// One batch item, two tokens, one head of size 1: hand-checked.
	q := mk([]int{1, 2, 1}, []float32{1, 1})
	k := mk([]int{1, 2, 1}, []float32{1, 2})
	v := mk([]int{1, 2, 1}, []float32{3, 4})
	g := mk([]int{1, 2, 1}, []float32{0, float32(math.Log(0.5))})
	b := mk([]int{1, 2, 1}, []float32{1, 0.5})
	la := func(ins []string, rule string, attrs ...model.Attr) nodeCase {
		n := node("LinearAttention", ins, append([]model.Attr{aInt("q_num_heads", 1), aInt("kv_num_heads", 1), aFloat("scale", 1), aString("update_rule", rule)}, attrs...)...)
		n.Outputs = []string{"y", "state"}
		return nodeCase{node: n, opset: 27}
	}
	cases := []struct {
		name     string
		c        nodeCase
		ins      []*tensor
		want, st []float64
	}{
		// Token 0: S = 3. Token 1: S·0.5 = 1.5 retrieves 3 for key 2,
		// the value becomes 0.5·(4-3), and S = 1.5 + 2·0.5.
		{"gated delta", la([]string{"q", "k", "v", "", "g", "b"}, "gated_delta"), []*tensor{q, k, v, nil, g, b}, []float64{3, 2.5}, []float64{2.5}},
		{"linear", la([]string{"q", "k", "v"}, "linear"), []*tensor{q, k, v}, []float64{3, 11}, []float64{11}},
		{"linear with past", la([]string{"q", "k", "v", "p"}, "linear"), []*tensor{q, k, v, mk([]int{1, 1, 1, 1}, []float32{1})}, []float64{4, 12}, []float64{12}},
		{"gated", la([]string{"q", "k", "v", "", "g"}, "gated"), []*tensor{q, k, v, nil, g}, []float64{3, 9.5}, []float64{9.5}},
		{"delta", la([]string{"q", "k", "v", "", "", "b"}, "delta"), []*tensor{q, k, v, nil, nil, b}, []float64{3, 1}, []float64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outs, err := runNode(t, c.c, c.ins...)
			if err != nil {
				t.Fatal(err)
			}
			for j, want := range [][]float64{c.want, c.st} {
				got := toF64(outs[j])
				if len(got) != len(want) {
					t.Fatalf("output %d: got %v, want %v", j, got, want)
				}
				for i := range got {
					if math.Abs(got[i]-want[i]) > 1e-5 {
						t.Fatalf("output %d: got %v, want %v", j, got, want)
					}
				}
			}
		})
	}
	// Two query heads read one key/value head, the default scale
	// 1/sqrt(2) on head size 2.
	gq := node("LinearAttention", []string{"q", "k", "v"}, aInt("q_num_heads", 2), aInt("kv_num_heads", 1), aString("update_rule", "linear"))
	outs, err := runNode(t, nodeCase{node: gq, opset: 27}, mk([]int{1, 1, 4}, []float32{1, 0, 0, 2}), mk([]int{1, 1, 2}, []float32{1, 1}), mk([]int{1, 1, 1}, []float32{3}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outs[0].f32(), []float32{3 / math.Sqrt2, 6 / math.Sqrt2}; math.Abs(float64(got[0]-want[0])) > 1e-5 || math.Abs(float64(got[1]-want[1])) > 1e-5 {
		t.Errorf("grouped y = %v, want %v", got, want)
	}
	half := func(v ...float32) *tensor {
		return mk([]int{1, len(v), 1}, ewSeq(len(v), func(i int) float16.Float16 { return float16.Fromfloat32(v[i]) }))
	}
	hc := la([]string{"q", "k", "v"}, "linear")
	hc.outTypes = []payload.DType{payload.Float16, payload.Float16}
	outs, err = runNode(t, hc, half(1, 1), half(1, 2), half(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if got := elems[float16.Float16](outs[0]); got[0].Float32() != 3 || got[1].Float32() != 11 {
		t.Errorf("float16 y = %v %v, want 3 11", got[0].Float32(), got[1].Float32())
	}
	runKernelCases(t, []kernelCase{
		{name: "key type", c: la([]string{"q", "k", "v"}, "linear"), ins: []*tensor{q, mk([]int{1, 2, 1}, []float64{1, 2}), v}, err: errs.Unsupported},
		{name: "float64", c: la([]string{"q", "k", "v"}, "linear"), ins: []*tensor{mk([]int{1, 1, 1}, []float64{1}), mk([]int{1, 1, 1}, []float64{1}), mk([]int{1, 1, 1}, []float64{1})}, err: errs.Unsupported},
		{name: "tokens differ", c: la([]string{"q", "k", "v"}, "linear"), ins: []*tensor{q, mk([]int{1, 1, 1}, []float32{1}), v}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, la([]string{"q", "k", "v", "", "g", "b"}, "gated_delta"), q, k, v, nil, g, b)
}
