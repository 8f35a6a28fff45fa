package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestDetGroupNormLRNMVN(t *testing.T) {
	r := 1 / math.Sqrt(1+1e-9) // MVN's epsilon on a unit variance
	cases := []struct {
		name  string
		op    string
		opset int64
		attrs []model.Attr
		shape []int
		x     []float32
		more  []*tensor // inputs after x, float32
		out   []int
		want  []float64
	}{
		{"det 2x2", "Det", 22, nil, []int{2, 2}, []float32{1, 2, 3, 4}, nil, []int{}, []float64{-2}},
		{"det batch", "Det", 11, nil, []int{3, 2, 2}, []float32{0, 1, 1, 0, 1, 2, 2, 4, 2, 1, 1, 3}, nil, []int{3}, []float64{-1, 0, 5}},
		{"det 3x3 pivots", "Det", 22, nil, []int{3, 3}, []float32{0, 0, 4, 0, 3, 0, 2, 0, 0}, nil, []int{}, []float64{-24}},
		{"det 0x0", "Det", 22, nil, []int{0, 0}, nil, nil, []int{}, []float64{1}},
		{"groupnorm 21", "GroupNormalization", 21, []model.Attr{aInt("num_groups", 2), aFloat("epsilon", 0)}, []int{1, 4, 1}, []float32{1, 2, 3, 5},
			[]*tensor{mk([]int{4}, []float32{1, 2, 3, 4}), mk([]int{4}, []float32{0, 0, 0, 1})}, []int{1, 4, 1}, []float64{-1, 2, -3, 5}},
		{"groupnorm 18", "GroupNormalization", 18, []model.Attr{aInt("num_groups", 2), aFloat("epsilon", 0)}, []int{1, 4, 1}, []float32{1, 2, 3, 5},
			[]*tensor{mk([]int{2}, []float32{2, 3}), mk([]int{2}, []float32{1, 0})}, []int{1, 4, 1}, []float64{-1, 3, -3, 3}},
		{"groupnorm one group spatial", "GroupNormalization", 21, []model.Attr{aInt("num_groups", 1), aFloat("epsilon", 0)}, []int{1, 2, 2}, []float32{1, 3, 1, 3},
			[]*tensor{mk([]int{2}, []float32{1, 1}), mk([]int{2}, []float32{0, 0})}, []int{1, 2, 2}, []float64{-1, 1, -1, 1}},
		{"lrn size 3", "LRN", 13, []model.Attr{aInt("size", 3), aFloat("alpha", 3), aFloat("beta", 1), aFloat("bias", 1)}, []int{1, 3, 1}, []float32{1, 2, 3},
			nil, []int{1, 3, 1}, []float64{1.0 / 6, 2.0 / 15, 3.0 / 14}},
		{"lrn size 2", "LRN", 1, []model.Attr{aInt("size", 2), aFloat("alpha", 1), aFloat("beta", 1), aFloat("bias", 1)}, []int{1, 3, 1}, []float32{1, 2, 3},
			nil, []int{1, 3, 1}, []float64{1 / 3.5, 2 / 7.5, 3 / 5.5}},
		{"mvn default axes", "MeanVarianceNormalization", 13, nil, []int{1, 2, 1, 2}, []float32{1, 2, 3, 6}, nil, []int{1, 2, 1, 2}, []float64{-r, r, -r, r}},
		{"mvn axis 0", "MeanVarianceNormalization", 9, []model.Attr{aInts("axes", 0)}, []int{2, 2}, []float32{1, 2, 3, 6}, nil, []int{2, 2}, []float64{-r, -r, r, r}},
		{"mvn axis -1", "MeanVarianceNormalization", 13, []model.Attr{aInts("axes", -1)}, []int{2, 2}, []float32{1, 2, 3, 6}, nil, []int{2, 2}, []float64{-r, r, -r, r}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, wide := range []bool{false, true} {
				names := []string{"x", "s", "b"}[:1+len(c.more)]
				ins := []*tensor{mk(c.shape, c.x)}
				if wide {
					ins[0] = mk(c.shape, f64sOf(c.x))
				}
				for _, m := range c.more {
					if wide {
						m = mk(m.shape, f64sOf(m.f32()))
					}
					ins = append(ins, m)
				}
				nc := nodeCase{node: node(c.op, names, c.attrs...), opset: c.opset, outTypes: outTypesOf(ins[0])}
				outs, err := runNode(t, nc, ins...)
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				checkFloats(t, ins[0].dt.String(), outs[0], c.out, c.want, 1e-6)
				if got := steadyAllocs(t, nc, ins...); got != 0 {
					t.Errorf("got %v allocations per run, want 0", got)
				}
			}
		})
	}
	bad := []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"det not square", nodeCase{node: node("Det", []string{"x"}), opset: 22}, []*tensor{mk([]int{2, 3}, make([]float32, 6))}, errs.ShapeMismatch},
		{"det int", nodeCase{node: node("Det", []string{"x"}), opset: 22}, []*tensor{mk([]int{1, 1}, []int32{1})}, errs.Unsupported},
		{"groupnorm groups", nodeCase{node: node("GroupNormalization", []string{"x", "s", "b"}, aInt("num_groups", 3)), opset: 21},
			[]*tensor{mk([]int{1, 4, 1}, make([]float32, 4)), mk([]int{4}, make([]float32, 4)), mk([]int{4}, make([]float32, 4))}, errs.ShapeMismatch},
		{"groupnorm scale per group at 21", nodeCase{node: node("GroupNormalization", []string{"x", "s", "b"}, aInt("num_groups", 2)), opset: 21},
			[]*tensor{mk([]int{1, 4, 1}, make([]float32, 4)), mk([]int{2}, make([]float32, 2)), mk([]int{2}, make([]float32, 2))}, errs.ShapeMismatch},
		{"groupnorm mixed types", nodeCase{node: node("GroupNormalization", []string{"x", "s", "b"}, aInt("num_groups", 2)), opset: 21},
			[]*tensor{mk([]int{1, 4, 1}, make([]float32, 4)), mk([]int{4}, make([]float64, 4)), mk([]int{4}, make([]float32, 4))}, errs.Unsupported},
		{"lrn no size", nodeCase{node: node("LRN", []string{"x"}), opset: 13}, []*tensor{mk([]int{1, 1}, []float32{1})}, errs.InvalidArtifact},
		{"mvn axis", nodeCase{node: node("MeanVarianceNormalization", []string{"x"}), opset: 13}, []*tensor{mk([]int{2, 2}, make([]float32, 4))}, errs.ShapeMismatch},
	}
	for _, c := range bad {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got error %v, want one wrapping %v", c.name, err, c.want)
		}
	}
}
