package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestQLinearRules(t *testing.T) {
	i8 := payload.Int8
	mmi := func() *Node { return nd("MatMulInteger", nil, nil) }
	qmm := func() *Node { return nd("QLinearMatMul", nil, nil) }
	ci := func(attrs ...Attr) *Node { return nd("ConvInteger", nil, nil, attrs...) }
	qc := func(attrs ...Attr) *Node { return nd("QLinearConv", nil, nil, attrs...) }
	sc := in(f32)
	runRules(t, []ruleCase{
		{name: "MatMulInteger", opset: 10, node: mmi(), in: []ruleIn{in(u8, 4, 3), in(u8, 3, 2), in(u8, 1), in(u8, 1)}, want: []sh{{i32, d(4, 2)}}},
		{name: "MatMulInteger batched", opset: 10, node: mmi(), in: []ruleIn{in(i8, 2, 4, 3), in(i8, 3, 2)}, want: []sh{{i32, d(2, 4, 2)}}},
		{name: "MatMulInteger unknown rank", opset: 10, node: mmi(), in: []ruleIn{unr(u8), in(u8, 3, 2)}, want: []sh{{i32, nil}}},
		{name: "MatMulInteger K", opset: 10, node: mmi(), in: []ruleIn{in(u8, 4, 3), in(u8, 2, 2)}, err: invalid},
		{name: "QLinearMatMul", opset: 10, node: qmm(), in: []ruleIn{in(u8, 2, 4), sc, in(u8), in(u8, 4, 3), sc, in(u8), sc, in(u8)}, want: []sh{{u8, d(2, 3)}}},
		{name: "QLinearMatMul 3-D int8", opset: 21, node: qmm(), in: []ruleIn{in(i8, 2, 2, 4), sc, in(i8), in(i8, 2, 4, 3), sc, in(i8), sc, in(i8)}, want: []sh{{i8, d(2, 2, 3)}}},
		{name: "QLinearMatMul K", opset: 10, runtime: true, node: qmm(), in: []ruleIn{in(u8, 2, 4), sc, in(u8), in(u8, 3, 3), sc, in(u8), sc, in(u8)}, err: mismatch},
		{name: "ConvInteger pads", opset: 10, node: ci(aIs("pads", 1, 1, 1, 1)), in: []ruleIn{in(u8, 1, 1, 3, 3), in(u8, 2, 1, 2, 2), in(u8), in(u8, 2)}, want: []sh{{i32, d(1, 2, 4, 4)}}},
		{name: "ConvInteger two inputs", opset: 10, node: ci(), in: []ruleIn{in(u8, 1, 1, 3, 3), in(u8, 1, 1, 2, 2)}, want: []sh{{i32, d(1, 1, 2, 2)}}},
		{name: "ConvInteger channels", opset: 10, runtime: true, node: ci(), in: []ruleIn{in(u8, 1, 2, 3, 3), in(u8, 1, 1, 2, 2)}, err: mismatch},
		{name: "QLinearConv", opset: 10, node: qc(), in: []ruleIn{in(u8, 1, 1, 7, 7), sc, in(u8), in(u8, 1, 1, 1, 1), in(f32, 1), in(u8, 1), sc, in(u8)}, want: []sh{{u8, d(1, 1, 7, 7)}}},
		{name: "QLinearConv bias", opset: 10, node: qc(aIs("strides", 2, 2)), in: []ruleIn{in(i8, 1, 2, 5, 5), sc, in(i8), in(i8, 3, 2, 3, 3), in(f32, 3), in(i8, 3), sc, in(i8), in(i32, 3)}, want: []sh{{i8, d(1, 3, 2, 2)}}},
		{name: "QLinearConv bad bias", opset: 10, runtime: true, node: qc(), in: []ruleIn{in(i8, 1, 2, 5, 5), sc, in(i8), in(i8, 3, 2, 3, 3), in(f32, 3), in(i8, 3), sc, in(i8), in(i32, 2)}, err: mismatch},
		{name: "QLinearConv before opset 10", opset: 9, node: qc(), in: []ruleIn{in(u8, 1, 1, 7, 7), sc, in(u8), in(u8, 1, 1, 1, 1), sc, in(u8), sc, in(u8)}, err: unsupp},
	})
}

func TestQLinearRulesNoAllocs(t *testing.T) {
	sc := in(f32)
	wantNoAllocs(t, ruleCase{name: "qlinearconv", opset: 10, node: nd("QLinearConv", nil, nil, aIs("pads", 1, 1, 1, 1)),
		in: []ruleIn{in(u8, 1, 2, 5, 5), sc, in(u8), in(u8, 3, 2, 3, 3), in(f32, 3), in(u8, 3), sc, in(u8), in(i32, 3)}})
	wantNoAllocs(t, ruleCase{name: "qlinearmatmul", opset: 10, node: nd("QLinearMatMul", nil, nil),
		in: []ruleIn{in(u8, 2, 2, 4), sc, in(u8), in(u8, 4, 3), sc, in(u8), sc, in(u8)}})
}
