package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestLossOps(t *testing.T) {
	nll := []float32{-1, -2, -3, -0.5, -1.5, -2.5}
	sce := []float32{0, 0, 0, 1, 2, 3}
	ln3 := math.Log(3)
	lse := 3 + math.Log(1+math.Exp(-1)+math.Exp(-2))
	cases := []struct {
		name  string
		op    string
		x     *tensor
		tgt   *tensor
		w     *tensor
		attrs []model.Attr
		shape []int
		want  []float64
		lp    []float64 // SoftmaxCrossEntropyLoss's log_prob, when asked for
	}{
		{"nll none", "NegativeLogLikelihoodLoss", mk([]int{2, 3}, nll), mk([]int{2}, []int64{0, 2}), mk([]int{3}, []float32{1, 2, 3}),
			[]model.Attr{aString("reduction", "none")}, []int{2}, []float64{1, 7.5}, nil},
		{"nll sum", "NegativeLogLikelihoodLoss", mk([]int{2, 3}, nll), mk([]int{2}, []int64{0, 2}), mk([]int{3}, []float32{1, 2, 3}),
			[]model.Attr{aString("reduction", "sum")}, []int{}, []float64{8.5}, nil},
		{"nll mean weighted", "NegativeLogLikelihoodLoss", mk([]int{2, 3}, nll), mk([]int{2}, []int64{0, 2}), mk([]int{3}, []float32{1, 2, 3}),
			nil, []int{}, []float64{8.5 / 4}, nil},
		{"nll mean ignore", "NegativeLogLikelihoodLoss", mk([]int{2, 3}, nll), mk([]int{2}, []int32{0, 2}), mk([]int{3}, []float32{1, 2, 3}),
			[]model.Attr{aInt("ignore_index", 2)}, []int{}, []float64{1}, nil},
		{"nll NCd1 none", "NegativeLogLikelihoodLoss", mk([]int{1, 2, 2}, []float32{1, 2, 3, 4}), mk([]int{1, 2}, []int64{1, 0}), nil,
			[]model.Attr{aString("reduction", "none")}, []int{1, 2}, []float64{-3, -2}, nil},
		{"nll float64 negative ignore", "NegativeLogLikelihoodLoss", mk([]int{2, 3}, []float64{-1, -2, -3, -0.5, -1.5, -2.5}), mk([]int{2}, []int64{-1, 1}), nil,
			[]model.Attr{aInt("ignore_index", -1)}, []int{}, []float64{1.5}, nil},
		{"sce mean", "SoftmaxCrossEntropyLoss", mk([]int{2, 3}, sce), mk([]int{2}, []int64{0, 2}), nil,
			nil, []int{}, []float64{(ln3 + lse - 3) / 2}, []float64{-ln3, -ln3, -ln3, 1 - lse, 2 - lse, 3 - lse}},
		{"sce none weighted", "SoftmaxCrossEntropyLoss", mk([]int{2, 3}, sce), mk([]int{2}, []int64{0, 2}), mk([]int{3}, []float32{2, 1, 0.5}),
			[]model.Attr{aString("reduction", "none")}, []int{2}, []float64{2 * ln3, 0.5 * (lse - 3)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"x", "t"}
			ins := []*tensor{c.x, c.tgt}
			if c.w != nil {
				names, ins = append(names, "w"), append(ins, c.w)
			}
			n := node(c.op, names, c.attrs...)
			outTypes := []payload.DType{c.x.dt, c.x.dt}
			if c.lp != nil {
				n.Outputs = []string{"y", "lp"}
			}
			nc := nodeCase{node: n, opset: 13, outTypes: outTypes}
			outs, err := runNode(t, nc, ins...)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			checkFloats(t, "loss", outs[0], c.shape, c.want, 1e-6)
			if c.lp != nil {
				checkFloats(t, "log_prob", outs[1], c.x.shape, c.lp, 1e-6)
			}
			if got := steadyAllocs(t, nc, ins...); got != 0 {
				t.Errorf("got %v allocations per run, want 0", got)
			}
		})
	}
}

func TestLossErrors(t *testing.T) {
	x := mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	cases := []struct {
		name string
		n    *model.Node
		ins  []*tensor
		want error
	}{
		{"target out of range", node("NegativeLogLikelihoodLoss", []string{"x", "t"}), []*tensor{x, mk([]int{2}, []int64{0, 3})}, errs.ShapeMismatch},
		{"target shape", node("NegativeLogLikelihoodLoss", []string{"x", "t"}), []*tensor{x, mk([]int{3}, []int64{0, 1, 2})}, errs.ShapeMismatch},
		{"weight shape", node("SoftmaxCrossEntropyLoss", []string{"x", "t", "w"}), []*tensor{x, mk([]int{2}, []int64{0, 1}), mk([]int{2}, []float32{1, 1})}, errs.ShapeMismatch},
		{"bad reduction", node("NegativeLogLikelihoodLoss", []string{"x", "t"}, aString("reduction", "max")), []*tensor{x, mk([]int{2}, []int64{0, 1})}, errs.InvalidArtifact},
		{"float target", node("NegativeLogLikelihoodLoss", []string{"x", "t"}), []*tensor{x, mk([]int{2}, []float32{0, 1})}, errs.Unsupported},
		{"int input", node("NegativeLogLikelihoodLoss", []string{"x", "t"}), []*tensor{mk([]int{1, 2}, []int32{1, 2}), mk([]int{1}, []int64{0})}, errs.Unsupported},
	}
	for _, c := range cases {
		_, err := runNode(t, nodeCase{node: c.n, opset: 13}, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got error %v, want one wrapping %v", c.name, err, c.want)
		}
	}
}

// checkFloats compares a float32 or float64 tensor with want, within tol
// relative to max(1, |want|).
func checkFloats(t *testing.T, what string, got *tensor, shape []int, want []float64, tol float64) {
	t.Helper()
	if !sameShape(got.shape, shape) {
		t.Fatalf("%s: got shape %v, want %v", what, got.shape, shape)
	}
	var g []float64
	switch got.dt {
	case payload.Float32:
		for _, v := range got.f32()[:len(want)] {
			g = append(g, float64(v))
		}
	case payload.Float64:
		g = got.f64()[:len(want)]
	default:
		t.Fatalf("%s: element type %s", what, got.dt)
	}
	for i := range want {
		if d := math.Abs(g[i] - want[i]); !(d <= tol*math.Max(1, math.Abs(want[i]))) {
			t.Errorf("%s[%d]: got %v, want %v", what, i, g[i], want[i])
		}
	}
}
