package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestRotaryEmbeddingRule(t *testing.T) {
	re := func(ins []string, attrs ...Attr) *Node { return nd("RotaryEmbedding", ins, []string{"y"}, attrs...) }
	pos := []string{"x", "c", "s", "p"}
	nopos := []string{"x", "c", "s"}
	runNNCases(t, []nnCase{
		{name: "4-D positions", opset: 23, node: re(pos), in: []nnIn{kin(f32, 2, 4, 3, 8), kin(f32, 50, 4), kin(f32, 50, 4), kin(i64, 2, 3)}, want: []nnOut{ko(f32, 2, 4, 3, 8)}},
		{name: "3-D rotary dim", opset: 23, node: re(pos, aI("num_heads", 4), aI("rotary_embedding_dim", 4)),
			in: []nnIn{kin(f32, 2, 3, 32), kin(f32, 50, 2), kin(f32, 50, 2), kin(i64, 2, 3)}, want: []nnOut{ko(f32, 2, 3, 32)}},
		{name: "no positions", opset: 23, node: re(nopos), in: []nnIn{kin(f32, 2, 4, 3, 8), kin(f32, 2, 3, 4), kin(f32, -1, 3, 4)}, want: []nnOut{ko(f32, 2, 4, 3, 8)}},
		{name: "unknown rank", opset: 23, node: re(nopos), in: []nnIn{uin(f32), kin(f32, 2, 3, 4), kin(f32, 2, 3, 4)}, want: []nnOut{uo(f32)}},
		{name: "3-D without heads", opset: 23, node: re(pos), in: []nnIn{kin(f32, 2, 3, 32), kin(f32, 50, 4), kin(f32, 50, 4), kin(i64, 2, 3)}, err: errs.InvalidArtifact, errHas: "num_heads"},
		{name: "cache width", opset: 23, node: re(pos), in: []nnIn{kin(f32, 2, 4, 3, 8), kin(f32, 50, 3), kin(f32, 50, 4), kin(i64, 2, 3)}, err: errs.InvalidArtifact, errHas: "input 1"},
		{name: "cache batch", opset: 23, runtime: true, node: re(nopos), in: []nnIn{kin(f32, 2, 4, 3, 8), kin(f32, 2, 3, 4), kin(f32, 1, 3, 4)}, err: errs.ShapeMismatch, errHas: "input 2"},
		{name: "positions shape", opset: 23, node: re(pos), in: []nnIn{kin(f32, 2, 4, 3, 8), kin(f32, 50, 4), kin(f32, 50, 4), kin(i64, 2, 4)}, err: errs.InvalidArtifact, errHas: "position_ids"},
		{name: "rotary dim too large", opset: 23, node: re(pos, aI("rotary_embedding_dim", 10)), in: []nnIn{kin(f32, 2, 4, 3, 8), kin(f32, 50, 5), kin(f32, 50, 5), kin(i64, 2, 3)}, err: errs.InvalidArtifact, errHas: "exceeds"},
		{name: "odd rotary dim", opset: 23, node: re(pos, aI("rotary_embedding_dim", 3)), err: errs.InvalidArtifact, errHas: "rotary_embedding_dim"},
		{name: "rank 2", opset: 23, node: re(nopos), in: []nnIn{kin(f32, 3, 8), kin(f32, 2, 3, 4), kin(f32, 2, 3, 4)}, err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "before opset 23", opset: 22, node: re(nopos), err: errs.Unsupported, errHas: "opset 22"},
	})
}
