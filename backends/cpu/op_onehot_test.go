package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestOneHot(t *testing.T) {
	oh := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("OneHot", []string{"i", "depth", "values"}, attrs...), opset: 11}
	}
	vals := mk([]int{2}, []float32{1, 3})
	depth := func(v float32) *tensor { return mk([]int{}, []float32{v}) }
	run := func(name string, c nodeCase, ins []*tensor, shape []int, want string) dmCase {
		c.outTypes = append(c.outTypes, ins[2].dt)
		return dmCase{name: name, c: c, ins: ins, shapes: [][]int{shape}, vals: []string{want}}
	}
	runDMCases(t, []dmCase{
		run("default axis", oh(), []*tensor{mk([]int{3}, []int64{0, 2, 1}), depth(3), mk([]int{2}, []int32{2, 5})}, []int{3, 3}, "[5 2 2 2 2 5 2 5 2]"),
		run("negative and out of range", oh(aInt("axis", 1)), []*tensor{mk([]int{3}, []int64{-1, 3, -4}), depth(3), vals}, []int{3, 3}, "[1 1 3 1 1 1 1 1 1]"),
		run("axis 0", oh(aInt("axis", 0)), []*tensor{mk([]int{2}, []int32{1, 0}), mk([]int{}, []int64{2}), vals}, []int{2, 2}, "[1 3 3 1]"),
		run("float indices truncate", oh(aInt("axis", -2)), []*tensor{mk([]int{2, 2}, []float32{1.7, 0, -0.5, 1}), depth(2.9), vals}, []int{2, 2, 2}, "[1 3 3 1 3 1 1 3]"),
		run("uint8 indices", oh(), []*tensor{mk([]int{2}, []uint8{1, 200}), depth(2), vals}, []int{2, 2}, "[1 3 1 1]"),
		{name: "depth zero", c: oh(), ins: []*tensor{mk([]int{2}, []int64{0, 1}), depth(0), vals}, err: errs.ShapeMismatch},
		{name: "bool indices refused", c: oh(), ins: []*tensor{mk([]int{2}, []bool{true, false}), depth(2), vals}, err: errs.Unsupported},
		{name: "uint8 depth refused", c: oh(), ins: []*tensor{mk([]int{2}, []int64{0, 1}), mk([]int{}, []uint8{2}), vals}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "onehot", nodeCase{node: node("OneHot", []string{"i", "depth", "values"}), opset: 11, outTypes: []payload.DType{payload.Float32}},
		mk([]int{2, 3}, []int32{0, 1, 2, 3, 4, -1}), mk([]int{}, []int64{5}), vals)
}
