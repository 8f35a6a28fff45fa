package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestHardmaxLpNorm(t *testing.T) {
	// x is 2×2×3.
	x := []float32{1, 5, 5, -1, 2, 0, 3, 3, 1, 0, 0, 0}
	n1 := func(v ...float64) []float64 {
		var s float64
		for _, x := range v {
			s += math.Abs(x)
		}
		for i := range v {
			v[i] /= s
		}
		return v
	}
	cases := []struct {
		name  string
		op    string
		opset int64
		attrs []model.Attr
		want  []float64
	}{
		{"hardmax last axis", "Hardmax", 13, nil, []float64{0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0}},
		{"hardmax axis 1", "Hardmax", 13, []model.Attr{aInt("axis", 1)}, []float64{1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0}},
		{"hardmax axis 0", "Hardmax", 13, []model.Attr{aInt("axis", 0)}, []float64{0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 0, 0}},
		{"hardmax coerced at 1", "Hardmax", 11, nil, []float64{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}},
		{"hardmax coerced at 0", "Hardmax", 11, []model.Attr{aInt("axis", 0)}, []float64{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{"l1 last axis", "LpNormalization", 22, []model.Attr{aInt("p", 1)},
			append(append(n1(1, 5, 5), n1(-1, 2, 0)...), append(n1(3, 3, 1), 0, 0, 0)...)},
		{"l2 axis 1", "LpNormalization", 22, []model.Attr{aInt("axis", 1)},
			[]float64{1 / math.Sqrt(2), 5 / math.Sqrt(29), 1, -1 / math.Sqrt(2), 2 / math.Sqrt(29), 0, 1, 1, 1, 0, 0, 0}},
		{"l2 axis 0", "LpNormalization", 1, []model.Attr{aInt("axis", -3)},
			[]float64{1 / math.Sqrt(10), 5 / math.Sqrt(34), 5 / math.Sqrt(26), -1, 1, 0, 3 / math.Sqrt(10), 3 / math.Sqrt(34), 1 / math.Sqrt(26), 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, in := range []*tensor{mk([]int{2, 2, 3}, x), mk([]int{2, 2, 3}, f64sOf(x))} {
				nc := nodeCase{node: node(c.op, []string{"x"}, c.attrs...), opset: c.opset, outTypes: outTypesOf(in)}
				outs, err := runNode(t, nc, in)
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				checkFloats(t, in.dt.String(), outs[0], []int{2, 2, 3}, c.want, 1e-6)
				if got := steadyAllocs(t, nc, in); got != 0 {
					t.Errorf("got %v allocations per run, want 0", got)
				}
			}
		})
	}
	for _, op := range []string{"Hardmax", "LpNormalization"} {
		_, err := runNode(t, nodeCase{node: node(op, []string{"x"}), opset: 13}, mk([]int{2}, []int32{1, 2}))
		if !errors.Is(err, errs.Unsupported) {
			t.Errorf("%s on int32: got error %v, want one wrapping %v", op, err, errs.Unsupported)
		}
	}
}
