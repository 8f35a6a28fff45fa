package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestEyeLike(t *testing.T) {
	ey := func(dt payload.DType, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("EyeLike", []string{"x"}, attrs...), opset: 22, outTypes: []payload.DType{dt}}
	}
	x := mk([]int{3, 4}, make([]int32, 12))
	runDMCases(t, []dmCase{
		{name: "same type", c: ey(payload.Int32), ins: []*tensor{x}, shapes: [][]int{{3, 4}}, vals: []string{"[1 0 0 0 0 1 0 0 0 0 1 0]"}},
		{name: "float64", c: ey(payload.Float64, aInt("dtype", int64(payload.Float64))), ins: []*tensor{x}, vals: []string{"[1 0 0 0 0 1 0 0 0 0 1 0]"}},
		{name: "k 1", c: ey(payload.Float32, aInt("dtype", int64(payload.Float32)), aInt("k", 1)), ins: []*tensor{x}, vals: []string{"[0 1 0 0 0 0 1 0 0 0 0 1]"}},
		{name: "k -2 bool", c: ey(payload.Bool, aInt("dtype", int64(payload.Bool)), aInt("k", -2)), ins: []*tensor{x}, vals: []string{"[false false false false false false false false true false false false]"}},
		{name: "k past the end", c: ey(payload.Int64, aInt("dtype", int64(payload.Int64)), aInt("k", 9)), ins: []*tensor{x}, vals: []string{"[0 0 0 0 0 0 0 0 0 0 0 0]"}},
		{name: "string refused", c: ey(payload.String, aInt("dtype", int64(payload.String))), ins: []*tensor{x}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "eyelike", ey(payload.Float32, aInt("dtype", int64(payload.Float32))), x)
}
