package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestConvInteger(t *testing.T) {
	ci := func(nin int, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("ConvInteger", []string{"x", "w", "zx", "zw"}[:nin], attrs...), opset: 10, outTypes: []payload.DType{payload.Int32}}
	}
	u := func(shape []int, v ...uint8) *tensor { return mk(shape, v) }
	s := func(shape []int, v ...int8) *tensor { return mk(shape, v) }
	x := u([]int{1, 1, 3, 3}, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	runDMCases(t, []dmCase{
		// The suite's two ConvInteger tests.
		{name: "without padding", c: ci(3), ins: []*tensor{x, u([]int{1, 1, 2, 2}, 1, 1, 1, 1), u(nil, 1)},
			shapes: [][]int{{1, 1, 2, 2}}, vals: []string{"[12 16 24 28]"}},
		{name: "padding, per-channel w zero point", c: ci(4, aInts("pads", 1, 1, 1, 1)), ins: []*tensor{x, u([]int{2, 1, 2, 2}, 1, 1, 1, 1, 1, 1, 1, 1), u(nil, 1), u([]int{2}, 0, 1)},
			shapes: [][]int{{1, 2, 4, 4}}, vals: []string{"[1 3 5 3 5 12 16 9 11 24 28 15 7 15 17 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]"}},
		{name: "groups", c: ci(2, aInt("group", 2)), ins: []*tensor{s([]int{1, 2, 2, 1}, 1, 2, 5, 6), s([]int{2, 1, 1, 1}, 1, -1)}, vals: []string{"[1 2 -5 -6]"}},
		{name: "1-D dilated", c: ci(2, aInts("dilations", 2)), ins: []*tensor{s([]int{1, 1, 5}, 1, 2, 3, 4, 5), s([]int{1, 1, 2}, 1, 1)}, vals: []string{"[4 6 8]"}},
		{name: "strided", c: ci(2, aInts("strides", 2, 2)), ins: []*tensor{x, u([]int{1, 1, 1, 1}, 2)}, vals: []string{"[4 8 16 20]"}},
		{name: "x zero point count", c: ci(3), ins: []*tensor{x, u([]int{1, 1, 2, 2}, 1, 1, 1, 1), u([]int{2}, 1, 1)}, err: errs.ShapeMismatch},
		{name: "int16 refused", c: ci(2), ins: []*tensor{mk([]int{1, 1, 1, 1}, []int16{1}), mk([]int{1, 1, 1, 1}, []int16{1})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "convinteger", ci(4, aInts("pads", 1, 1, 1, 1)), x, u([]int{2, 1, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), u(nil, 1), u([]int{2}, 0, 1))
}

func TestQLinearConv(t *testing.T) {
	qc := func(nin int, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"}[:nin], attrs...), opset: 10}
	}
	u := func(shape []int, v ...uint8) *tensor { return mk(shape, v) }
	f := func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	x := u([]int{1, 1, 2, 2}, 10, 20, 30, 40)
	w := u([]int{2, 1, 1, 1}, 2, 4)
	runDMCases(t, []dmCase{
		// x - 10 = [0 10 20 30], w - zw = [2 2]; channel 0:
		// (2v + 1) × 0.5×0.5/1, channel 1: (2v - 1) × 0.5×0.25/1, + 5.
		{name: "per-channel, bias", c: qc(9), ins: []*tensor{x, f(nil, 0.5), u(nil, 10), w, f([]int{2}, 0.5, 0.25), u([]int{2}, 0, 2), f(nil, 1), u(nil, 5), mk([]int{2}, []int32{1, -1})},
			shapes: [][]int{{1, 2, 2, 2}}, vals: []string{"[5 10 15 20 5 7 10 12]"}},
		{name: "int8, no bias", c: qc(8), ins: []*tensor{mk([]int{1, 1, 1, 2}, []int8{-100, 100}), f(nil, 1), mk(nil, []int8{0}), mk([]int{1, 1, 1, 1}, []int8{3}), f([]int{1}, 1), mk([]int{1}, []int8{0}), f(nil, 1), mk(nil, []int8{0})},
			vals: []string{"[-128 127]"}},
		{name: "w_scale count", c: qc(8), ins: []*tensor{x, f(nil, 0.5), u(nil, 10), w, f([]int{3}, 1, 1, 1), u([]int{2}, 0, 2), f(nil, 1), u(nil, 5)}, err: errs.ShapeMismatch},
		{name: "float bias refused", c: qc(9), ins: []*tensor{x, f(nil, 0.5), u(nil, 10), w, f([]int{2}, 0.5, 0.25), u([]int{2}, 0, 2), f(nil, 1), u(nil, 5), f([]int{2}, 1, 1)}, err: errs.InvalidArtifact},
	})
	dmNoAllocs(t, "qlinearconv", qc(9, aInts("pads", 1, 1, 1, 1)), x, f(nil, 0.5), u(nil, 10), w, f([]int{2}, 0.5, 0.25), u([]int{2}, 0, 2), f(nil, 1), u(nil, 5), mk([]int{2}, []int32{1, -1}))
}
