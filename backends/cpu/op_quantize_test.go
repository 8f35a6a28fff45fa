package cpu

import (
	"fmt"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// lowBytes prints a tensor of one of the small types as dmValues does.
func lowBytes(dt payload.DType, b ...byte) string { return fmt.Sprintf("%v bytes %v", dt, b) }

func TestQuantizeLinear(t *testing.T) {
	q := func(opset int64, out payload.DType, nin int, attrs ...model.Attr) nodeCase {
		ins := []string{"x", "s", "z"}[:nin]
		return nodeCase{node: node("QuantizeLinear", ins, attrs...), opset: opset, outTypes: []payload.DType{out}}
	}
	f := func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	s2 := f(nil, 2)
	runDMCases(t, []dmCase{
		{name: "uint8 per tensor", c: q(10, payload.Uint8, 3), ins: []*tensor{f([]int{6}, 0, 2, 3, 1000, -254, -1000), s2, mk(nil, []uint8{128})},
			vals: []string{"[128 129 130 255 1 0]"}},
		{name: "no zero point is uint8", c: q(13, payload.Uint8, 2), ins: []*tensor{f([]int{3}, 1, -4, 600), s2}, vals: []string{"[0 0 255]"}},
		{name: "ties to even", c: q(13, payload.Int8, 3), ins: []*tensor{f([]int{6}, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5), f(nil, 1), mk(nil, []int8{0})},
			vals: []string{"[0 2 2 0 -2 -2]"}},
		{name: "per axis", c: q(13, payload.Int8, 3), ins: []*tensor{f([]int{2, 2}, 3, 4, -3, -5), f([]int{2}, 1, 2), mk([]int{2}, []int8{0, 10})},
			vals: []string{"[3 12 -3 8]"}},
		{name: "per axis 0", c: q(13, payload.Int8, 3, aInt("axis", 0)), ins: []*tensor{f([]int{2, 2}, 3, 4, -3, -5), f([]int{2}, 1, 2), mk([]int{2}, []int8{0, 10})},
			vals: []string{"[3 4 8 8]"}},
		{name: "blocked, output_dtype", c: q(21, payload.Int8, 2, aInt("block_size", 2), aInt("output_dtype", int64(payload.Int8))),
			ins: []*tensor{f([]int{1, 5}, 1, 2, 3, 4, 10), f([]int{1, 3}, 1, 2, 4)}, vals: []string{"[1 2 2 2 2]"}},
		{name: "int16", c: q(21, payload.Int16, 3), ins: []*tensor{f([]int{3}, 70000, -70000, 3), f(nil, 1), mk(nil, []int16{-1})},
			vals: []string{"[32767 -32768 2]"}},
		{name: "int4 saturates", c: q(21, payload.I4, 3), ins: []*tensor{f([]int{3}, 100, -100, 7.5), f(nil, 1), mk(nil, []payload.Int4{0})},
			vals: []string{lowBytes(payload.I4, 7, 248, 7)}},
		{name: "uint2", c: q(25, payload.U2, 3), ins: []*tensor{f([]int{3}, 9, -1, 1.2), f(nil, 1), mk(nil, []payload.Uint2{1})},
			vals: []string{lowBytes(payload.U2, 3, 0, 2)}},
		{name: "float8e4m3fn saturates", c: q(19, payload.F8E4M3FN, 3), ins: []*tensor{f([]int{3}, 1, 2, 100000), s2, mk(nil, []payload.Float8E4M3FN{0})},
			vals: []string{lowBytes(payload.F8E4M3FN, 48, 56, 126)}},
		{name: "float8e4m3fn without saturate", c: q(19, payload.F8E4M3FN, 3, aInt("saturate", 0)), ins: []*tensor{f([]int{2}, 1, 100000), s2, mk(nil, []payload.Float8E4M3FN{0})},
			vals: []string{lowBytes(payload.F8E4M3FN, 48, 127)}},
		{name: "float16 precision", c: q(25, payload.Uint16, 3, aInt("precision", int64(payload.Float16))), ins: []*tensor{f([]int{2}, 2049, 3), f(nil, 1), mk(nil, []uint16{0})},
			vals: []string{"[2048 3]"}},
		{name: "float32 precision", c: q(25, payload.Uint16, 3), ins: []*tensor{f([]int{2}, 2049, 3), f(nil, 1), mk(nil, []uint16{0})},
			vals: []string{"[2049 3]"}},
		{name: "float16 input", c: q(21, payload.Uint8, 2), ins: []*tensor{mk([]int{2}, []float16.Float16{float16.Fromfloat32(5), float16.Fromfloat32(-1)}), mk(nil, []float16.Float16{float16.Fromfloat32(2)})},
			vals: []string{"[2 0]"}},
		{name: "int8 input refused", c: q(21, payload.Uint8, 2), ins: []*tensor{mk([]int{2}, []int8{1, 2}), s2}, err: errs.Unsupported},
		{name: "float64 scale refused", c: q(21, payload.Uint8, 2), ins: []*tensor{f([]int{2}, 1, 2), mk(nil, []float64{2})}, err: errs.Unsupported},
		{name: "per axis length", c: q(13, payload.Uint8, 2), ins: []*tensor{f([]int{2, 2}, 1, 2, 3, 4), f([]int{3}, 1, 1, 1)}, err: errs.ShapeMismatch},
	})
	dmNoAllocs(t, "quantize blocked", q(21, payload.Uint8, 3, aInt("block_size", 2)),
		f([]int{2, 5}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), f([]int{2, 3}, 1, 2, 3, 4, 5, 6), mk([]int{2, 3}, []uint8{1, 2, 3, 4, 5, 6}))
}

func TestDequantizeLinear(t *testing.T) {
	dq := func(opset int64, out payload.DType, nin int, attrs ...model.Attr) nodeCase {
		ins := []string{"x", "s", "z"}[:nin]
		return nodeCase{node: node("DequantizeLinear", ins, attrs...), opset: opset, outTypes: []payload.DType{out}}
	}
	f := func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	s2 := f(nil, 2)
	h := func(v ...float32) *tensor {
		b := make([]float16.Float16, len(v))
		for i, x := range v {
			b[i] = float16.Fromfloat32(x)
		}
		return mk(nil, b[:1])
	}
	runDMCases(t, []dmCase{
		{name: "uint8", c: dq(10, payload.Float32, 3), ins: []*tensor{mk([]int{4}, []uint8{0, 3, 128, 255}), s2, mk(nil, []uint8{128})},
			vals: []string{"[-256 -250 0 254]"}},
		{name: "int32", c: dq(13, payload.Float32, 2), ins: []*tensor{mk([]int{2}, []int32{-5, 7}), f(nil, 0.5)}, vals: []string{"[-2.5 3.5]"}},
		{name: "per axis", c: dq(13, payload.Float32, 3), ins: []*tensor{mk([]int{2, 2}, []int8{3, 12, -3, 8}), f([]int{2}, 1, 2), mk([]int{2}, []int8{0, 10})},
			vals: []string{"[3 4 -3 -4]"}},
		{name: "blocked", c: dq(21, payload.Float32, 3, aInt("axis", 0), aInt("block_size", 2)),
			ins: []*tensor{mk([]int{3, 1}, []uint8{1, 2, 3}), f([]int{2, 1}, 1, 10), mk([]int{2, 1}, []uint8{1, 0})}, vals: []string{"[0 1 30]"}},
		{name: "int4", c: dq(21, payload.Float32, 3), ins: []*tensor{mk([]int{3}, []payload.Int4{7, -8, 0}), s2, mk(nil, []payload.Int4{1})},
			vals: []string{"[12 -18 -2]"}},
		{name: "float8e4m3fn to float16", c: dq(21, payload.Float16, 2), ins: []*tensor{mk([]int{2}, []payload.Float8E4M3FN{48, 0xed}), h(2)},
			vals: []string{lowBytes(payload.Float16, 0x00, 0x3c, 0x80, 0xda)}},
		{name: "output_dtype", c: dq(23, payload.Float16, 2, aInt("output_dtype", int64(payload.Float16))), ins: []*tensor{mk([]int{1}, []int8{3}), s2},
			vals: []string{lowBytes(payload.Float16, 0x00, 0x46)}},
		{name: "float8e8m0 refused", c: dq(25, payload.Float32, 2), ins: []*tensor{mk([]int{1}, []payload.Float8E8M0{127}), s2}, err: errs.Unsupported},
		{name: "zero point count", c: dq(13, payload.Float32, 3), ins: []*tensor{mk([]int{2, 2}, []int8{1, 2, 3, 4}), f([]int{2}, 1, 2), mk([]int{1}, []int8{0})}, err: errs.ShapeMismatch},
	})
	dmNoAllocs(t, "dequantize per axis", dq(13, payload.Float32, 3), mk([]int{2, 2}, []int8{3, 12, -3, 8}), f([]int{2}, 1, 2), mk([]int{2}, []int8{0, 10}))
}

func TestDynamicQuantizeLinear(t *testing.T) {
	c := nodeCase{node: &model.Node{Name: "dq", OpType: "DynamicQuantizeLinear", Inputs: []string{"x"}, Outputs: []string{"y", "s", "z"}},
		opset: 11, outTypes: []payload.DType{payload.Uint8, payload.Float32, payload.Uint8}}
	f := func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	runDMCases(t, []dmCase{
		// The suite's test_dynamicquantizelinear: scale 5/255, zero point
		// round(3/(5/255)) = 153.
		{name: "mixed signs", c: c, ins: []*tensor{f([]int{6}, 0, 2, -3, -2.5, 1.34, 0.5)},
			vals: []string{"[153 255 0 26 221 179]", fmt.Sprint([]float32{float32(5) / 255}), "[153]"}},
		{name: "all negative", c: c, ins: []*tensor{f([]int{3}, -1, -2, -4)}, vals: []string{"[191 128 0]", fmt.Sprint([]float32{float32(4) / 255}), "[255]"}},
		{name: "all zero", c: c, ins: []*tensor{f([]int{2}, 0, 0)}, vals: []string{"[0 0]", "[1]", "[0]"}},
		{name: "float16 refused", c: c, ins: []*tensor{mk([]int{1}, []float16.Float16{0})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "dynamic quantize", c, f([]int{4}, 1, -2, 3, 0.5))
}
