package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestMatMulRule(t *testing.T) {
	mm := func() *Node { return nd("MatMul", []string{"a", "b"}, []string{"y"}) }
	fused := func() *Node {
		return &Node{OpType: "MatMul", Inputs: []string{"a", "b", "c"}, Outputs: []string{"y"}, Fused: &Fusion{Bias: true}}
	}
	runNNCases(t, []nnCase{
		{name: "2-D", node: mm(), in: []nnIn{kin(f32, 2, 3), kin(f32, 3, 4)}, want: []nnOut{ko(f32, 2, 4)}},
		{name: "batch broadcast", node: mm(), in: []nnIn{kin(f32, 5, 1, 2, 3), kin(f32, 7, 3, 4)}, want: []nnOut{ko(f32, 5, 7, 2, 4)}},
		{name: "vector left", node: mm(), in: []nnIn{kin(f32, 3), kin(f32, 2, 3, 4)}, want: []nnOut{ko(f32, 2, 4)}},
		{name: "vector right", node: mm(), in: []nnIn{kin(f32, 2, 3), kin(f32, 3)}, want: []nnOut{ko(f32, 2)}},
		{name: "dot", node: mm(), in: []nnIn{kin(f32, 3), kin(f32, 3)}, want: []nnOut{ko(f32)}},
		{name: "int64", opset: 9, node: mm(), in: []nnIn{kin(i64, 2, 3), kin(i64, 3, 1)}, want: []nnOut{ko(i64, 2, 1)}},
		{name: "unknown dims", node: mm(), in: []nnIn{kin(f32, -1, -1, 3), kin(f32, 3, 8)}, want: []nnOut{ko(f32, -1, -1, 8)}},
		{name: "unknown batch against 1", node: mm(), in: []nnIn{kin(f32, -1, 2, 3), kin(f32, 1, 3, 8)}, want: []nnOut{ko(f32, -1, 2, 8)}},
		{name: "unknown batch against 4", node: mm(), in: []nnIn{kin(f32, -1, 2, 3), kin(f32, 4, 3, 8)}, want: []nnOut{ko(f32, 4, 2, 8)}},
		{name: "unknown K", node: mm(), in: []nnIn{kin(f32, 2, -1), kin(f32, 3, 4)}, want: []nnOut{ko(f32, 2, 4)}},
		{name: "unknown rank", node: mm(), in: []nnIn{uin(f32), kin(f32, 3, 4)}, want: []nnOut{uo(f32)}},
		{name: "fused bias", node: fused(), in: []nnIn{kin(f32, 2, 5, 3), kin(f32, 3, 4), kin(f32, 1, 4)}, want: []nnOut{ko(f32, 2, 5, 4)}},
		{name: "K mismatch", node: mm(), in: []nnIn{kin(f32, 2, 3), kin(f32, 4, 4)}, err: errs.InvalidArtifact, errHas: "multiply"},
		{name: "K mismatch at run time", runtime: true, node: mm(), in: []nnIn{kin(f32, 2, 3), kin(f32, 4, 4)}, err: errs.ShapeMismatch, errHas: "multiply"},
		{name: "scalar", node: mm(), in: []nnIn{kin(f32), kin(f32, 3)}, err: errs.InvalidArtifact, errHas: "scalar"},
		{name: "batch conflict", runtime: true, node: mm(), in: []nnIn{kin(f32, 2, 2, 3), kin(f32, 3, 3, 4)}, err: errs.ShapeMismatch, errHas: "broadcast"},
		{name: "fused bias length", runtime: true, node: fused(), in: []nnIn{kin(f32, 2, 3), kin(f32, 3, 4), kin(f32, 5)}, err: errs.ShapeMismatch, errHas: "bias"},
		{name: "third input unfused", node: nd("MatMul", []string{"a", "b", "c"}, []string{"y"}), in: []nnIn{kin(f32, 2, 3), kin(f32, 3, 4), kin(f32, 4)}, err: errs.InvalidArtifact, errHas: "3 inputs"},
		{name: "B missing", node: nd("MatMul", []string{"a", ""}, []string{"y"}), err: errs.InvalidArtifact, errHas: "(B)"},
	})
}
