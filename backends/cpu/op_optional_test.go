package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestOptionalHasElement(t *testing.T) {
	x := mk([]int{2}, []float32{1, 2})
	cases := []struct {
		name  string
		in    []string
		ins   []*tensor
		opset int64
		want  bool
	}{
		{"tensor", []string{"x"}, []*tensor{x}, 18, true},
		{"no input", nil, nil, 18, false},
		{"empty input name", []string{""}, []*tensor{nil}, 18, false},
		{"tensor at 15", []string{"x"}, []*tensor{x}, 15, true},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("OptionalHasElement", c.in), opset: c.opset, outTypes: []payload.DType{payload.Bool}}, c.ins...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := outs[0].bools(); len(outs[0].shape) != 0 || len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: got %v of shape %v, want [%v] of shape []", c.name, got, outs[0].shape, c.want)
		}
	}
}

func TestOptionalGetElement(t *testing.T) {
	x := mk([]int{2, 2}, []int32{1, 2, 3, 4})
	for _, op := range []string{"OptionalGetElement", "Optional"} {
		outs, err := runNode(t, nodeCase{node: node(op, []string{"x"}), opset: 18, outTypes: []payload.DType{payload.Int32}}, x)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if got := outs[0].i32(); !sameShape(outs[0].shape, []int{2, 2}) || len(got) != 4 || got[3] != 4 {
			t.Errorf("%s: got %v of shape %v, want [1 2 3 4] of shape [2 2]", op, got, outs[0].shape)
		}
	}
	if _, err := runNode(t, nodeCase{node: node("Optional", nil, model.Attr{Name: "type", Type: model.AttrInt}), opset: 18}); err == nil {
		t.Error("Optional with no input: got no error, want ErrUnsupported")
	}
}

func TestOptionalHasElementAllocs(t *testing.T) {
	out := []*tensor{{dt: payload.Bool, data: alignedBytes(1)}}
	in := []*tensor{mk([]int{1}, []float32{1})}
	k := optionalHasKernel{}
	if n := testing.AllocsPerRun(100, func() { _ = k.run(in, out) }); n != 0 {
		t.Errorf("got %v allocations per run, want 0", n)
	}
}
