package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestLossRules(t *testing.T) {
	nll := func(ins []string, attrs ...Attr) *Node {
		return nd("NegativeLogLikelihoodLoss", ins, []string{"y"}, attrs...)
	}
	sce := func(ins, outs []string, attrs ...Attr) *Node {
		return nd("SoftmaxCrossEntropyLoss", ins, outs, attrs...)
	}
	xt := []string{"x", "t"}
	xtw := []string{"x", "t", "w"}
	none := aS("reduction", "none")
	runNNCases(t, []nnCase{
		{name: "mean scalar", opset: 22, node: nll(xt), in: []nnIn{kin(f32, 3, 5), kin(i64, 3)}, want: []nnOut{ko(f32)}},
		{name: "sum weighted", opset: 12, node: nll(xtw, aS("reduction", "sum")), in: []nnIn{kin(payload.Float64, 3, 5, 2), kin(i64, 3, 2), kin(payload.Float64, 5)},
			want: []nnOut{ko(payload.Float64)}},
		{name: "none NCd1d2", opset: 13, node: nll(xt, none), in: []nnIn{kin(f32, 3, 5, 6, 7), kin(i64, 3, 6, 7)}, want: []nnOut{ko(f32, 3, 6, 7)}},
		{name: "none partial target", opset: 13, node: nll(xt, none), in: []nnIn{kin(f32, 3, 5, 6), kin(i64, -1, -1)}, want: []nnOut{ko(f32, 3, 6)}},
		{name: "none unknown target rank", opset: 13, node: nll(xt, none), in: []nnIn{kin(f32, 3, 5, 6), uin(i64)}, want: []nnOut{ko(f32, 3, 6)}},
		{name: "none unknown ranks", opset: 13, node: nll(xt, none), in: []nnIn{uin(f32), uin(i64)}, want: []nnOut{uo(f32)}},
		{name: "sce log_prob", opset: 13, node: sce(xtw, []string{"z", "lp"}, aI("ignore_index", -1)), in: []nnIn{kin(f32, 3, 5, 2), kin(i64, 3, 2), kin(f32, 5)},
			want: []nnOut{ko(f32), ko(f32, 3, 5, 2)}},
		{name: "sce none", opset: 12, node: sce(xt, []string{"z"}, none), in: []nnIn{kin(f32, 3, 5), kin(i64, 3)}, want: []nnOut{ko(f32, 3)}},
		{name: "rank 1 input", node: nll(xt), opset: 13, in: []nnIn{kin(f32, 5), kin(i64)}, err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "target rank", node: nll(xt), opset: 13, in: []nnIn{kin(f32, 3, 5, 2), kin(i64, 3)}, err: errs.InvalidArtifact, errHas: "target"},
		{name: "target dim", node: nll(xt), opset: 13, runtime: true, in: []nnIn{kin(f32, 3, 5, 2), kin(i64, 3, 4)}, err: errs.ShapeMismatch, errHas: "target"},
		{name: "weight size", node: nll(xtw), opset: 13, in: []nnIn{kin(f32, 3, 5), kin(i64, 3), kin(f32, 4)}, err: errs.InvalidArtifact, errHas: "weight"},
		{name: "bad reduction", node: nll(xt, aS("reduction", "avg")), opset: 13, err: errs.InvalidArtifact, errHas: "reduction"},
		{name: "three outputs", node: sce(xt, []string{"z", "lp", "q"}), opset: 13, err: errs.InvalidArtifact, errHas: "outputs"},
		{name: "before opset 12", node: nll(xt), opset: 11, err: errs.Unsupported, errHas: "opset 11"},
	})
	r, ctx, err := nnCtx(sce(xtw, []string{"z", "lp"}, none), 13, true, []nnIn{kin(f32, 3, 5, 2, 2), kin(i64, 3, 2, 2), kin(f32, 5)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Infer(ctx); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(100, func() { _ = r.Infer(ctx) }); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}
