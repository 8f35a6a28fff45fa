package model

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestEinsumRule(t *testing.T) {
	es := func(eq string, ins ...string) *Node { return nd("Einsum", ins, []string{"y"}, aS("equation", eq)) }
	f64 := payload.Float64
	runNNCases(t, []nnCase{
		{name: "matmul", opset: 12, node: es("bij, bjk -> bik", "x", "w"), in: []nnIn{kin(f64, 5, 2, 3), kin(f64, 5, 3, 4)}, want: []nnOut{ko(f64, 5, 2, 4)}},
		{name: "implicit", opset: 12, node: es("ij,jk", "x", "w"), in: []nnIn{kin(f32, 2, 3), kin(f32, 3, 4)}, want: []nnOut{ko(f32, 2, 4)}},
		{name: "implicit ascii order", opset: 12, node: es("ba,Ab", "x", "w"), in: []nnIn{kin(f32, 2, 3), kin(f32, 4, 2)}, want: []nnOut{ko(f32, 4, 3)}},
		{name: "batch diagonal", opset: 12, node: es("...ii ->...i", "x"), in: []nnIn{kin(f64, 3, 5, 5)}, want: []nnOut{ko(f64, 3, 5)}},
		{name: "implicit ellipsis first", opset: 12, node: es("i...", "x"), in: []nnIn{kin(f32, 2, 3, 4)}, want: []nnOut{ko(f32, 3, 4, 2)}},
		{name: "ellipsis broadcast", opset: 12, node: es("...i,...i->...", "x", "w"), in: []nnIn{kin(f32, 2, 1, 3), kin(f32, 4, 3)}, want: []nnOut{ko(f32, 2, 4)}},
		{name: "trace", opset: 12, node: es("ii", "x"), in: []nnIn{kin(f32, 3, 3)}, want: []nnOut{ko(f32)}},
		{name: "scalar", opset: 12, node: es("->", "x"), in: []nnIn{kin(f32)}, want: []nnOut{ko(f32)}},
		{name: "partial dims", opset: 12, node: es("ij,jk->ki", "x", "w"), in: []nnIn{kin(f32, -1, 3), kin(f32, -1, 4)}, want: []nnOut{ko(f32, 4, -1)}},
		{name: "unknown rank letters", opset: 12, node: es("ij,jk->ik", "x", "w"), in: []nnIn{uin(f32), kin(f32, 3, 4)}, want: []nnOut{ko(f32, -1, 4)}},
		{name: "unknown rank ellipsis", opset: 12, node: es("...i->...", "x"), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "size conflict", opset: 12, node: es("ij,jk", "x", "w"), in: []nnIn{kin(f32, 2, 3), kin(f32, 4, 4)}, err: errs.InvalidArtifact, errHas: "label j"},
		{name: "diagonal conflict", opset: 12, runtime: true, node: es("ii->i", "x"), in: []nnIn{kin(f32, 2, 3)}, err: errs.ShapeMismatch, errHas: "label i"},
		{name: "rank", opset: 12, node: es("ij->i", "x"), in: []nnIn{kin(f32, 2, 3, 4)}, err: errs.InvalidArtifact, errHas: "rank 3"},
		{name: "ellipsis no broadcast", opset: 12, node: es("...i,...i", "x", "w"), in: []nnIn{kin(f32, 2, 3), kin(f32, 4, 3)}, err: errs.InvalidArtifact, errHas: "broadcast"},
		{name: "mixed types", opset: 12, node: es("i,i", "x", "w"), in: []nnIn{kin(f32, 2), kin(f64, 2)}, err: errs.InvalidArtifact, errHas: "element type"},
		{name: "term count", opset: 12, node: es("i,i", "x"), err: errs.InvalidArtifact, errHas: "2 input terms"},
		{name: "bad label", opset: 12, node: es("i1->i", "x"), err: errs.InvalidArtifact, errHas: "term"},
		{name: "two ellipses", opset: 12, node: es("......->", "x"), err: errs.InvalidArtifact, errHas: "ellipsis"},
		{name: "output label unknown", opset: 12, node: es("ij->k", "x"), err: errs.InvalidArtifact, errHas: "label k"},
		{name: "output label repeated", opset: 12, node: es("ij->ii", "x"), err: errs.InvalidArtifact, errHas: "repeated"},
		{name: "output ellipsis", opset: 12, node: es("ij->...", "x"), err: errs.InvalidArtifact, errHas: "ellipsis"},
		{name: "no equation", opset: 12, node: nd("Einsum", []string{"x"}, []string{"y"}), err: errs.InvalidArtifact, errHas: "equation"},
		{name: "before 12", opset: 11, node: es("i", "x"), err: errs.Unsupported, errHas: "opset 11"},
	})
	r, c, err := nnCtx(es("...ij,...jk->...ik", "x", "w"), 12, true, []nnIn{kin(f32, 2, 1, 3, 4), kin(f32, 5, 4, 6)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Infer(c); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c.Out(0).Dims); got != "[2 5 3 6]" {
		t.Errorf("got dims %s, want [2 5 3 6]", got)
	}
	if got := testing.AllocsPerRun(100, func() { _ = r.Infer(c) }); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}
