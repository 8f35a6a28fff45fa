package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestSwiGLURule(t *testing.T) {
	sg := nd("SwiGLU", []string{"a", "b"}, []string{"y"}, aF("alpha", 0.5))
	runNNCases(t, []nnCase{
		{name: "same shape", opset: 28, node: sg, in: []nnIn{kin(f32, 2, 4), kin(f32, 2, 4)}, want: []nnOut{ko(f32, 2, 4)}},
		{name: "partial", opset: 28, node: sg, in: []nnIn{kin(f32, -1, 4), kin(f32, 3, -1)}, want: []nnOut{ko(f32, 3, 4)}},
		{name: "A unranked", opset: 28, node: sg, in: []nnIn{uin(f32), kin(f32, 3, 4)}, want: []nnOut{ko(f32, 3, 4)}},
		{name: "shapes differ", opset: 28, node: sg, in: []nnIn{kin(f32, 2, 4), kin(f32, 1, 4)}, err: errs.InvalidArtifact, errHas: "differ"},
		{name: "ranks differ", opset: 28, runtime: true, node: sg, in: []nnIn{kin(f32, 2, 4), kin(f32, 4)}, err: errs.ShapeMismatch, errHas: "differ"},
		{name: "before opset 28", opset: 27, node: sg, err: errs.Unsupported, errHas: "opset 27"},
	})
}
