package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestRandomRules(t *testing.T) {
	y := []string{"y"}
	x := []string{"x"}
	dtype := func(dt payload.DType) Attr { return aI("dtype", int64(dt)) }
	runNNCases(t, []nnCase{
		{name: "uniform", opset: 1, node: nd("RandomUniform", nil, y, aIs("shape", 2, 3)), want: []nnOut{ko(f32, 2, 3)}},
		{name: "normal float64", opset: 1, node: nd("RandomNormal", nil, y, aIs("shape", 4), dtype(payload.Float64), aF("seed", 1)), want: []nnOut{ko(payload.Float64, 4)}},
		{name: "normal scalar", opset: 1, node: nd("RandomNormal", nil, y, aIs("shape")), want: []nnOut{ko(f32)}},
		{name: "uniform like", opset: 1, node: nd("RandomUniformLike", x, y), in: []nnIn{kin(payload.Float64, -1, 3)}, want: []nnOut{ko(payload.Float64, -1, 3)}},
		{name: "normal like dtype", opset: 1, node: nd("RandomNormalLike", x, y, dtype(payload.Float16)), in: []nnIn{uin(i64)}, want: []nnOut{uo(payload.Float16)}},
		{name: "bernoulli", opset: 15, node: nd("Bernoulli", x, y, dtype(payload.Bool)), in: []nnIn{kin(f32, 5)}, want: []nnOut{ko(payload.Bool, 5)}},
		{name: "multinomial", opset: 7, node: nd("Multinomial", x, y, aI("sample_size", 4)), in: []nnIn{kin(f32, 3, 5)}, want: []nnOut{ko(payload.Int32, 3, 4)}},
		{name: "multinomial unknown rank", opset: 7, node: nd("Multinomial", x, y, dtype(i64)), in: []nnIn{uin(f32)}, want: []nnOut{ko(i64, -1, 1)}},
		{name: "multinomial rank", opset: 7, node: nd("Multinomial", x, y), in: []nnIn{kin(f32, 3)}, err: errs.InvalidArtifact, errHas: "batch×classes"},
		{name: "multinomial dtype", opset: 7, node: nd("Multinomial", x, y, dtype(f32)), err: errs.InvalidArtifact, errHas: "dtype"},
		{name: "multinomial sample size", opset: 7, node: nd("Multinomial", x, y, aI("sample_size", -1)), err: errs.InvalidArtifact, errHas: "sample_size"},
		{name: "no shape", opset: 1, node: nd("RandomUniform", nil, y), err: errs.InvalidArtifact, errHas: "shape"},
		{name: "negative dim", opset: 1, node: nd("RandomUniform", nil, y, aIs("shape", -1)), err: errs.InvalidArtifact, errHas: "shape"},
		{name: "bad dtype", opset: 1, node: nd("RandomNormalLike", x, y, aI("dtype", 1000)), err: errs.InvalidArtifact, errHas: "dtype"},
		{name: "seed as int", opset: 1, node: nd("RandomNormal", nil, y, aIs("shape", 1), aI("seed", 1)), err: errs.InvalidArtifact, errHas: "seed"},
		{name: "input to RandomNormal", opset: 1, node: nd("RandomNormal", x, y, aIs("shape", 1)), err: errs.InvalidArtifact, errHas: "at most 0"},
		{name: "bernoulli before 15", opset: 14, node: nd("Bernoulli", x, y), err: errs.Unsupported, errHas: "opset 14"},
	})
	for _, op := range []string{"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Bernoulli", "Multinomial"} {
		if d := LookupOp("", op); d == nil || !d.NoFold {
			t.Errorf("%s: got descriptor %v, want one marked NoFold", op, d)
		}
	}
}
