package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestConstantRule(t *testing.T) {
	cst := func(attrs ...Attr) *Node { return nd("Constant", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "value", node: cst(aT("value", NewTensor("", []int{2, 2}, []int32{1, 2, 3, 4}))), want: []sh{{payload.Int32, d(2, 2)}}},
		{name: "value opset 1", opset: 1, node: cst(aT("value", NewTensor("", []int{3}, []float32{1, 2, 3}))), want: []sh{{f32, d(3)}}},
		{name: "value_float", node: cst(aF("value_float", 2)), want: []sh{{f32, d()}}},
		{name: "value_floats", node: cst(aFs("value_floats", 1, 2)), want: []sh{{f32, d(2)}}},
		{name: "value_int", node: cst(aI("value_int", 2)), want: []sh{{i64, d()}}},
		{name: "value_ints", node: cst(aIs("value_ints", 1, 2, 3)), want: []sh{{i64, d(3)}}},
		{name: "string value", node: cst(aS("value_string", "x")), want: []sh{{payload.Undefined, nil}}},
		{name: "no value", node: cst(), want: []sh{{payload.Undefined, nil}}},
		{name: "value of the wrong type", node: cst(aI("value", 1)), err: invalid},
		{name: "value_ints of the wrong type", node: cst(aI("value_ints", 1)), err: invalid},
		{name: "rank too large", node: cst(aT("value", &Tensor{DType: f32, Shape: make([]int, 300)})), err: invalid},
		{name: "an input", node: cst(aI("value_int", 1)), in: []ruleIn{in(f32, 1)}, err: invalid},
	})
}

func TestConstantOfShapeRule(t *testing.T) {
	cos := func(attrs ...Attr) *Node { return nd("ConstantOfShape", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "default value", node: cos(), in: []ruleIn{iv(2, 5)}, want: []sh{{f32, d(2, 5)}}},
		{name: "int value", node: cos(aT("value", NewTensor("", []int{1}, []int64{7}))), in: []ruleIn{iv(3)}, want: []sh{{i64, d(3)}}},
		{name: "empty shape", node: cos(), in: []ruleIn{iv()}, want: []sh{{f32, d()}}},
		{name: "zero dim", node: cos(), in: []ruleIn{iv(0, 4)}, want: []sh{{f32, d(0, 4)}}},
		{name: "dynamic", node: cos(), in: []ruleIn{in(i64, 4)}, want: []sh{{f32, d(-1, -1, -1, -1)}}},
		{name: "dynamic length", node: cos(), in: []ruleIn{in(i64, -1)}, want: []sh{{f32, nil}}},
		{name: "opset 9", opset: 9, node: cos(), in: []ruleIn{iv(1)}, want: []sh{{f32, d(1)}}},
		{name: "before opset 9", opset: 8, node: cos(), in: []ruleIn{iv(1)}, err: unsupp},
		{name: "negative", node: cos(), in: []ruleIn{iv(-2)}, err: invalid},
		{name: "negative at run time", runtime: true, node: cos(), in: []ruleIn{iv(-2)}, err: mismatch},
		{name: "rank too large", node: cos(), in: []ruleIn{iv(make([]int64, 300)...)}, err: invalid},
		{name: "shape of rank 2", node: cos(), in: []ruleIn{in(i64, 1, 2)}, err: invalid},
		{name: "float shape", node: cos(), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "value of two elements", node: cos(aT("value", NewTensor("", []int{2}, []int64{7, 8}))), in: []ruleIn{iv(3)}, err: invalid},
		{name: "value of the wrong type", node: cos(aI("value", 1)), in: []ruleIn{iv(3)}, err: invalid},
	})
}

func TestConstantOfShapeRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "constantofshape", node: nd("ConstantOfShape", nil, nil), in: []ruleIn{iv(2, 3, 4)}})
}
