package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestDetGroupNormLRNMVNRules(t *testing.T) {
	x1 := []string{"x"}
	y := []string{"y"}
	gn := func(attrs ...Attr) *Node { return nd("GroupNormalization", []string{"x", "s", "b"}, y, attrs...) }
	g2 := aI("num_groups", 2)
	runNNCases(t, []nnCase{
		{name: "det batch", opset: 22, node: nd("Det", x1, y), in: []nnIn{kin(f32, 3, 2, 2)}, want: []nnOut{ko(f32, 3)}},
		{name: "det matrix", opset: 11, node: nd("Det", x1, y), in: []nnIn{kin(payload.Float64, -1, -1)}, want: []nnOut{ko(payload.Float64)}},
		{name: "det unknown rank", opset: 11, node: nd("Det", x1, y), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "det not square", opset: 11, node: nd("Det", x1, y), in: []nnIn{kin(f32, 2, 3)}, err: errs.InvalidArtifact, errHas: "square"},
		{name: "det vector", opset: 11, runtime: true, node: nd("Det", x1, y), in: []nnIn{kin(f32, 3)}, err: errs.ShapeMismatch, errHas: "square"},
		{name: "det before 11", opset: 10, node: nd("Det", x1, y), err: errs.Unsupported, errHas: "opset 10"},

		{name: "groupnorm 21", opset: 21, node: gn(g2), in: []nnIn{kin(f32, 3, 4, 2, 2), kin(f32, 4), kin(f32, 4)}, want: []nnOut{ko(f32, 3, 4, 2, 2)}},
		{name: "groupnorm 18", opset: 18, node: gn(g2), in: []nnIn{kin(f32, 3, 4, 2, 2), kin(f32, 2), kin(f32, 2)}, want: []nnOut{ko(f32, 3, 4, 2, 2)}},
		{name: "groupnorm partial", opset: 21, node: gn(g2), in: []nnIn{kin(f32, -1, -1, 5), kin(f32, -1), kin(f32, 6)}, want: []nnOut{ko(f32, -1, -1, 5)}},
		{name: "groupnorm 18 per channel scale", opset: 18, node: gn(g2), in: []nnIn{kin(f32, 3, 4, 2), kin(f32, 4), kin(f32, 4)}, err: errs.InvalidArtifact, errHas: "input 1"},
		{name: "groupnorm split", opset: 21, node: gn(aI("num_groups", 3)), in: []nnIn{kin(f32, 3, 4, 2), kin(f32, 4), kin(f32, 4)}, err: errs.InvalidArtifact, errHas: "groups"},
		{name: "groupnorm rank 1", opset: 21, node: gn(g2), in: []nnIn{kin(f32, 4), kin(f32, 4), kin(f32, 4)}, err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "groupnorm no groups", opset: 21, node: gn(), err: errs.InvalidArtifact, errHas: "num_groups"},
		{name: "groupnorm zero groups", opset: 21, node: gn(aI("num_groups", 0)), err: errs.InvalidArtifact, errHas: "num_groups"},
		{name: "groupnorm stash type", opset: 21, node: gn(g2, aI("stash_type", 99)), err: errs.InvalidArtifact, errHas: "stash_type"},
		{name: "groupnorm before 18", opset: 17, node: gn(g2), err: errs.Unsupported, errHas: "opset 17"},

		{name: "lrn", opset: 13, node: nd("LRN", x1, y, aI("size", 3)), in: []nnIn{kin(f32, 5, 5, 5, 5)}, want: []nnOut{ko(f32, 5, 5, 5, 5)}},
		{name: "lrn unknown rank", opset: 1, node: nd("LRN", x1, y, aI("size", 3)), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "lrn rank 1", opset: 13, node: nd("LRN", x1, y, aI("size", 3)), in: []nnIn{kin(f32, 5)}, err: errs.InvalidArtifact, errHas: "rank"},
		{name: "lrn no size", opset: 13, node: nd("LRN", x1, y), err: errs.InvalidArtifact, errHas: "size"},
		{name: "lrn size 0", opset: 13, node: nd("LRN", x1, y, aI("size", 0)), err: errs.InvalidArtifact, errHas: "size"},

		{name: "mvn default", opset: 13, node: nd("MeanVarianceNormalization", x1, y), in: []nnIn{kin(f32, 3, 3, 3, 1)}, want: []nnOut{ko(f32, 3, 3, 3, 1)}},
		{name: "mvn axes", opset: 9, node: nd("MeanVarianceNormalization", x1, y, aIs("axes", 1, -1)), in: []nnIn{kin(f32, -1, 3)}, want: []nnOut{ko(f32, -1, 3)}},
		{name: "mvn default on rank 2", opset: 13, runtime: true, node: nd("MeanVarianceNormalization", x1, y), in: []nnIn{kin(f32, 2, 2)}, err: errs.ShapeMismatch, errHas: "axis 2"},
		{name: "mvn before 9", opset: 8, node: nd("MeanVarianceNormalization", x1, y), err: errs.Unsupported, errHas: "opset 8"},
	})
	for _, tc := range []struct {
		name  string
		opset int64
		node  *Node
		in    []nnIn
	}{
		{"Det", 22, nd("Det", x1, y), []nnIn{kin(f32, 3, 4, 4)}},
		{"GroupNormalization", 21, gn(g2), []nnIn{kin(f32, 3, 4, 2, 2), kin(f32, 4), kin(f32, 4)}},
		{"MeanVarianceNormalization", 13, nd("MeanVarianceNormalization", x1, y), []nnIn{kin(f32, 3, 3, 3, 1)}},
	} {
		r, c, err := nnCtx(tc.node, tc.opset, true, tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Infer(c); err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(100, func() { _ = r.Infer(c) }); got != 0 {
			t.Errorf("%s: got %v allocations per run, want 0", tc.name, got)
		}
	}
}
