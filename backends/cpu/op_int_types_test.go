package cpu

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lintel-ml/lintel/payload"
)

// intCase is one kernel run on integer or bool elements: got is read from
// the output as the type of want.
type intCase struct {
	name string
	c    nodeCase
	ins  []*tensor
	want any
}

// outAs returns t's elements as a slice of want's type.
func outAs(t *tensor, want any) any {
	switch want.(type) {
	case []int8:
		return elems[int8](t)
	case []uint8:
		return t.u8()
	case []int16:
		return elems[int16](t)
	case []uint16:
		return elems[uint16](t)
	case []int32:
		return t.i32()
	case []uint32:
		return elems[uint32](t)
	case []int64:
		return t.i64()
	case []uint64:
		return elems[uint64](t)
	case []float32:
		return t.f32()
	case []bool:
		return t.bools()
	}
	return nil
}

func runIntCases(t *testing.T, cases []intCase) {
	t.Helper()
	for _, c := range cases {
		if len(c.c.outTypes) == 0 {
			c.c.outTypes = []payload.DType{c.ins[0].dt}
		}
		outs, err := runNode(t, c.c, c.ins...)
		if err != nil {
			t.Errorf("%s: runNode: %v", c.name, err)
			continue
		}
		if d := cmp.Diff(c.want, outAs(outs[0], c.want)); d != "" {
			t.Errorf("%s: (-want +got)\n%s", c.name, d)
		}
	}
}

func TestVariadicIntTypes(t *testing.T) {
	ab := []string{"a", "b"}
	runIntCases(t, []intCase{
		{"Max int8", nodeCase{node: node("Max", ab)}, []*tensor{mk([]int{3}, []int8{-128, 5, -3}), mk([]int{3}, []int8{-127, 127, -4})}, []int8{-127, 127, -3}},
		{"Min int8 broadcast", nodeCase{node: node("Min", ab)}, []*tensor{mk([]int{3}, []int8{-128, 5, -3}), mk([]int{1}, []int8{0})}, []int8{-128, 0, -3}},
		{"Max uint8", nodeCase{node: node("Max", []string{"a", "b", "c"})}, []*tensor{mk([]int{2}, []uint8{255, 1}), mk([]int{2}, []uint8{3, 2}), mk([]int{2}, []uint8{4, 0})}, []uint8{255, 2}},
		{"Min int16", nodeCase{node: node("Min", ab)}, []*tensor{mk([]int{2}, []int16{-32768, 7}), mk([]int{2}, []int16{1, -7})}, []int16{-32768, -7}},
		{"Max uint16", nodeCase{node: node("Max", ab)}, []*tensor{mk([]int{2}, []uint16{65535, 7}), mk([]int{2}, []uint16{1, 8})}, []uint16{65535, 8}},
		{"Min uint32", nodeCase{node: node("Min", ab)}, []*tensor{mk([]int{2}, []uint32{math.MaxUint32, 7}), mk([]int{2}, []uint32{1 << 31, 8})}, []uint32{1 << 31, 7}},
		{"Max uint64 above MaxInt64", nodeCase{node: node("Max", ab)}, []*tensor{mk([]int{2}, []uint64{math.MaxUint64, 1}), mk([]int{2}, []uint64{1, 1 << 63})}, []uint64{math.MaxUint64, 1 << 63}},
		{"Min uint64 single input", nodeCase{node: node("Min", []string{"a"})}, []*tensor{mk([]int{2}, []uint64{3, 4})}, []uint64{3, 4}},
		{"Sum uint8 wraps", nodeCase{node: node("Sum", ab)}, []*tensor{mk([]int{2}, []uint8{200, 1}), mk([]int{2}, []uint8{100, 2})}, []uint8{44, 3}},
	})
}

func TestPowExponentTypes(t *testing.T) {
	ab := []string{"a", "b"}
	base := mk([]int{3}, []float32{2, 3, 0.5})
	runIntCases(t, []intCase{
		{"float32 ^ uint32", nodeCase{node: node("Pow", ab)}, []*tensor{base, mk([]int{3}, []uint32{3, 2, 1})}, []float32{8, 9, 0.5}},
		{"float32 ^ uint64", nodeCase{node: node("Pow", ab)}, []*tensor{base, mk([]int{3}, []uint64{3, 0, 2})}, []float32{8, 1, 0.25}},
		{"float32 ^ int8", nodeCase{node: node("Pow", ab)}, []*tensor{base, mk([]int{3}, []int8{-1, 2, -2})}, []float32{0.5, 9, 4}},
		{"int64 ^ uint8", nodeCase{node: node("Pow", ab)}, []*tensor{mk([]int{2}, []int64{-3, 2}), mk([]int{2}, []uint8{3, 10})}, []int64{-27, 1024}},
		{"int32 ^ uint16", nodeCase{node: node("Pow", ab)}, []*tensor{mk([]int{2}, []int32{5, 7}), mk([]int{1}, []uint16{2})}, []int32{25, 49}},
	})
}

func TestReduceIntTypes(t *testing.T) {
	x := []string{"x"}
	keep0 := aInt("keepdims", 0)
	bools := mk([]int{2, 3}, []bool{true, false, true, false, false, true})
	runIntCases(t, []intCase{
		{"ReduceMax bool", nodeCase{node: node("ReduceMax", x, aInts("axes", 1), keep0), opset: 13}, []*tensor{bools}, []bool{true, true}},
		{"ReduceMin bool", nodeCase{node: node("ReduceMin", x, aInts("axes", 0), keep0), opset: 13}, []*tensor{bools}, []bool{false, false, true}},
		{"ReduceMax uint64", nodeCase{node: node("ReduceMax", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []uint64{1, math.MaxUint64, 1 << 63})}, []uint64{math.MaxUint64}},
		{"ReduceMin uint64", nodeCase{node: node("ReduceMin", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []uint64{math.MaxUint64, 1 << 63, 1 << 62})}, []uint64{1 << 62}},
		{"ReduceMax int8", nodeCase{node: node("ReduceMax", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []int8{-128, -100, -5})}, []int8{-5}},
		{"ReduceMin int16", nodeCase{node: node("ReduceMin", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []int16{32767, 100, 5})}, []int16{5}},
		{"ReduceSum uint8", nodeCase{node: node("ReduceSum", x, keep0), opset: 11}, []*tensor{mk([]int{3}, []uint8{100, 100, 50})}, []uint8{250}},
		{"ReduceMean uint32", nodeCase{node: node("ReduceMean", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []uint32{math.MaxUint32, math.MaxUint32, 1})}, []uint32{(2*math.MaxUint32 + 1) / 3}},
		{"ReduceProd int16", nodeCase{node: node("ReduceProd", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []int16{-2, 3, 4})}, []int16{-24}},
		{"ReduceL1 int8", nodeCase{node: node("ReduceL1", x, keep0), opset: 13}, []*tensor{mk([]int{3}, []int8{-2, 3, -4})}, []int8{9}},
		{"ReduceSumSquare uint16", nodeCase{node: node("ReduceSumSquare", x, keep0), opset: 13}, []*tensor{mk([]int{2}, []uint16{3, 4})}, []uint16{25}},
		{"ReduceL2 int32 truncates", nodeCase{node: node("ReduceL2", x, keep0), opset: 13}, []*tensor{mk([]int{2}, []int32{3, 5})}, []int32{5}},
		{"ReduceLogSum uint64", nodeCase{node: node("ReduceLogSum", x, keep0), opset: 13}, []*tensor{mk([]int{2}, []uint64{10, 10})}, []uint64{2}},
	})
}

func TestIntActivationTypes(t *testing.T) {
	x := []string{"x"}
	runIntCases(t, []intCase{
		{"Abs uint8", nodeCase{node: node("Abs", x)}, []*tensor{mk([]int{2}, []uint8{0, 255})}, []uint8{0, 255}},
		{"Sign uint32", nodeCase{node: node("Sign", x)}, []*tensor{mk([]int{3}, []uint32{0, 1, math.MaxUint32})}, []uint32{0, 1, 1}},
		{"Sign uint64", nodeCase{node: node("Sign", x)}, []*tensor{mk([]int{2}, []uint64{0, 1 << 63})}, []uint64{0, 1}},
		{"Clip int16", nodeCase{node: node("Clip", []string{"x", "lo", "hi"}), opset: 13}, []*tensor{mk([]int{3}, []int16{-300, 5, 300}), mk([]int{}, []int16{-10}), mk([]int{}, []int16{10})}, []int16{-10, 5, 10}},
		{"Clip uint16 max only", nodeCase{node: node("Clip", []string{"x", "", "hi"}), opset: 13}, []*tensor{mk([]int{2}, []uint16{60000, 5}), nil, mk([]int{}, []uint16{10})}, []uint16{10, 5}},
		{"Clip uint64 min only", nodeCase{node: node("Clip", []string{"x", "lo"}), opset: 13}, []*tensor{mk([]int{2}, []uint64{1, math.MaxUint64}), mk([]int{}, []uint64{3})}, []uint64{3, math.MaxUint64}},
		{"Clip uint32", nodeCase{node: node("Clip", []string{"x", "lo", "hi"}), opset: 13}, []*tensor{mk([]int{3}, []uint32{1, 5, 9}), mk([]int{}, []uint32{2}), mk([]int{}, []uint32{8})}, []uint32{2, 5, 8}},
		{"PRelu int8", nodeCase{node: node("PRelu", []string{"x", "s"}), opset: 16}, []*tensor{mk([]int{3}, []int8{-3, 0, 4}), mk([]int{1}, []int8{2})}, []int8{-6, 0, 4}},
		{"PRelu uint32", nodeCase{node: node("PRelu", []string{"x", "s"}), opset: 16}, []*tensor{mk([]int{2}, []uint32{3, 7}), mk([]int{1}, []uint32{2})}, []uint32{3, 7}},
	})
}

func TestMatMulUnsignedTypes(t *testing.T) {
	ab := []string{"a", "b"}
	runIntCases(t, []intCase{
		{"uint32", nodeCase{node: node("MatMul", ab)}, []*tensor{mk([]int{2, 2}, []uint32{1, 2, 3, 4}), mk([]int{2, 1}, []uint32{5, 6})}, []uint32{17, 39}},
		{"uint64 batched", nodeCase{node: node("MatMul", ab)}, []*tensor{mk([]int{2, 1, 2}, []uint64{1, 2, 3, 4}), mk([]int{2, 1}, []uint64{1 << 40, 1})}, []uint64{1<<40 + 2, 3<<40 + 4}},
	})
}

func TestMaxPoolIntTypes(t *testing.T) {
	k2 := aInts("kernel_shape", 2, 2)
	runIntCases(t, []intCase{
		{"uint8", nodeCase{node: node("MaxPool", []string{"x"}, k2)}, []*tensor{mk([]int{1, 1, 2, 4}, []uint8{1, 200, 3, 4, 5, 6, 255, 0})}, []uint8{200, 255, 255}},
		{"uint8 padded", nodeCase{node: node("MaxPool", []string{"x"}, k2, aInts("pads", 1, 1, 1, 1), aInts("strides", 2, 2))},
			[]*tensor{mk([]int{1, 1, 2, 2}, []uint8{0, 9, 7, 3})}, []uint8{0, 9, 7, 3}},
		{"int8", nodeCase{node: node("MaxPool", []string{"x"}, k2, aInts("strides", 2, 2))}, []*tensor{mk([]int{1, 1, 2, 4}, []int8{-128, -100, -3, -4, -5, -6, -7, -8})}, []int8{-5, -3}},
		{"int8 dilated", nodeCase{node: node("MaxPool", []string{"x"}, k2, aInts("dilations", 1, 2))}, []*tensor{mk([]int{1, 1, 2, 4}, []int8{-1, 9, -3, 8, -5, -6, -7, -8})}, []int8{-1, 9}},
	})
}
