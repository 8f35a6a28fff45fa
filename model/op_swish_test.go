package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestSwishRule(t *testing.T) {
	runEwRules(t, []ewCase{
		{name: "swish", op: "Swish", opset: 24, in: []sh{{f32, d(2, -1)}}, attrs: []Attr{aF("alpha", 0.5)}, want: []sh{{f32, d(2, -1)}}},
		{name: "swish before 24", op: "Swish", opset: 23, in: []sh{{f32, d(3)}}, err: errs.Unsupported},
		{name: "swish alpha as int", op: "Swish", opset: 24, in: []sh{{f32, d(3)}}, attrs: []Attr{aI("alpha", 1)}, err: errs.InvalidArtifact},
	})
	for _, c := range []struct {
		attrs []Attr
		want  UnaryAttrs
	}{
		{nil, UnaryAttrs{Alpha: 1}},
		{[]Attr{aF("alpha", 0.25)}, UnaryAttrs{Alpha: 0.25}},
	} {
		_, r, err := BindNode(nd("Swish", []string{"x"}, []string{"y"}, c.attrs...), 24)
		if err != nil {
			t.Fatal(err)
		}
		if got := *r.(*UnaryAttrs); got != c.want {
			t.Errorf("Swish %v: got %+v, want %+v", c.attrs, got, c.want)
		}
	}
}
