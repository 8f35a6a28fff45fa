package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestShrinkSwish(t *testing.T) {
	x := []float32{-2, -1, -0.5, 0, 0.5, 1, 2}
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	cases := []struct {
		name  string
		op    string
		opset int64
		attrs []model.Attr
		want  []float64
	}{
		{"shrink hard", "Shrink", 9, []model.Attr{aFloat("lambd", 0.75)}, []float64{-2, -1, 0, 0, 0, 1, 2}},
		{"shrink soft", "Shrink", 9, []model.Attr{aFloat("lambd", 0.75), aFloat("bias", 0.5)}, []float64{-1.5, -0.5, 0, 0, 0, 0.5, 1.5}},
		{"shrink default", "Shrink", 9, nil, []float64{-2, -1, 0, 0, 0, 1, 2}},
		{"swish", "Swish", 24, nil, []float64{-2 * sig(-2), -sig(-1), -0.5 * sig(-0.5), 0, 0.5 * sig(0.5), sig(1), 2 * sig(2)}},
		{"swish alpha", "Swish", 24, []model.Attr{aFloat("alpha", 2)}, []float64{-2 * sig(-4), -sig(-2), -0.5 * sig(-1), 0, 0.5 * sig(1), sig(2), 2 * sig(4)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, in := range []*tensor{mk([]int{7}, x), mk([]int{7}, f64sOf(x))} {
				nc := nodeCase{node: node(c.op, []string{"x"}, c.attrs...), opset: c.opset, outTypes: outTypesOf(in)}
				outs, err := runNode(t, nc, in)
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				checkFloats(t, in.dt.String(), outs[0], []int{7}, c.want, 1e-6)
			}
		})
	}
	_, err := runNode(t, nodeCase{node: node("Shrink", []string{"x"}), opset: 9}, mk([]int{2}, []int32{1, 2}))
	if !errors.Is(err, errs.Unsupported) {
		t.Errorf("Shrink on int32: got error %v, want one wrapping %v", err, errs.Unsupported)
	}
}
