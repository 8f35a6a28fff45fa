package model

import (
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// TestFuseQDQ checks which QDQ units FuseQDQ rewrites, into what, and
// which it leaves.
func TestFuseQDQ(t *testing.T) {
	u8 := func(name string, v ...uint8) *Tensor { return NewTensor(name, []int{}, v[:1]) }
	i8 := func(name string, v int8) *Tensor { return NewTensor(name, []int{}, []int8{v}) }
	sc := func(name string, v float32) *Tensor { return NewTensor(name, []int{}, []float32{v}) }
	consts := []*Tensor{
		sc("sx", 0.05), u8("zx", 128), sc("sy", 0.1), u8("zy0", 0), u8("zy", 128), sc("sy6", 6.0/255), i8("zi", -128),
		sc("sw", 0.01), i8("zw", 0), i8("zw3", 3), floats("swc", 0.01, 0.02, 0.03, 0.04), floats("swk", 0.01, 0.02, 0.03),
		NewTensor("w", []int{4, 3, 3, 3}, make([]int8, 108)),
		NewTensor("wm", []int{6, 4}, make([]int8, 24)),
		NewTensor("b", []int{4}, []int32{1, 2, 3, 4}), NewTensor("b6", []int{6}, []int32{1, 2, 3, 4, 5, 6}), sc("sb", 0.0005),
		sc("zero", 0), sc("six", 6), sc("three", 3),
		sc("sx2", 0.07), floats("rs", 1, 1, 2, 2),
	}
	xin := []ValueInfo{vin("x", payload.Uint8, 1, 3, 8, 8)}
	dqx := nd("DequantizeLinear", []string{"x", "sx", "zx"}, []string{"xf"})
	dqw := nd("DequantizeLinear", []string{"w", "sw", "zw"}, []string{"wf"})
	conv := func(ins ...string) *Node {
		return nd("Conv", append([]string{"xf", "wf"}, ins...), []string{"c"}, aIs("pads", 1, 1, 1, 1))
	}
	q := func(in, zp string) *Node { return nd("QuantizeLinear", []string{in, "sy", zp}, []string{"y"}) }
	cases := []struct {
		name    string
		inputs  []ValueInfo
		nodes   []*Node
		wantOps []string
		wantIn  []string // the fused node's inputs, when set
	}{
		{name: "conv", nodes: []*Node{dqx, dqw, conv(), q("c", "zy")},
			wantOps: []string{"QLinearConv"}, wantIn: []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}},
		{name: "conv bias relu", nodes: []*Node{dqx, dqw, nd("DequantizeLinear", []string{"b", "sb"}, []string{"bf"}),
			conv("bf"), nd("Relu", []string{"c"}, []string{"r"}), q("r", "zy0")},
			wantOps: []string{"QLinearConv"}, wantIn: []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy0", "b"}},
		{name: "relu kept with zero point 128", nodes: []*Node{dqx, dqw, conv(), nd("Relu", []string{"c"}, []string{"r"}), q("r", "zy")},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Conv", "Relu", "QuantizeLinear"}},
		{name: "clip covering the range", nodes: []*Node{dqx, dqw, conv(),
			nd("Clip", []string{"c", "zero", "six"}, []string{"r"}), nd("QuantizeLinear", []string{"r", "sy6", "zy0"}, []string{"y"})},
			wantOps: []string{"QLinearConv"}},
		{name: "clip narrower than the range", nodes: []*Node{dqx, dqw, conv(),
			nd("Clip", []string{"c", "zero", "three"}, []string{"r"}), nd("QuantizeLinear", []string{"r", "sy6", "zy0"}, []string{"y"})},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Conv", "Clip", "QuantizeLinear"}},
		{name: "per-channel weights", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"w", "swc"}, []string{"wf"}, aI("axis", 0)), conv(), q("c", "zy")},
			wantOps: []string{"QLinearConv"}},
		{name: "per-channel weights on axis 1", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"w", "swk"}, []string{"wf"}), conv(), q("c", "zy")},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Conv", "QuantizeLinear"}},
		{name: "int8 weights with a zero point", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"w", "sw", "zw3"}, []string{"wf"}), conv(), q("c", "zy")},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Conv", "QuantizeLinear"}},
		{name: "output type differs", nodes: []*Node{dqx, dqw, conv(), q("c", "zi")},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Conv", "QuantizeLinear"}},
		{name: "conv output read twice", nodes: []*Node{dqx, dqw, conv(), q("c", "zy"), nd("Add", []string{"c", "c"}, []string{"z"})},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Conv", "QuantizeLinear", "Add"}},
		{name: "input DQ shared", nodes: []*Node{dqx, dqw, conv(), q("c", "zy"), nd("Relu", []string{"xf"}, []string{"z"})},
			wantOps: []string{"DequantizeLinear", "QLinearConv", "Relu"}},
		{name: "matmul", inputs: []ValueInfo{vin("x", payload.Uint8, 2, 6)}, nodes: []*Node{dqx,
			nd("DequantizeLinear", []string{"wm", "sw", "zw"}, []string{"wf"}), nd("MatMul", []string{"xf", "wf"}, []string{"c"}), q("c", "zy")},
			wantOps: []string{"QLinearMatMul"}, wantIn: []string{"x", "sx", "zx", "wm", "sw", "zw", "sy", "zy"}},
		{name: "gemm transB bias", inputs: []ValueInfo{vin("x", payload.Uint8, 2, 4)}, nodes: []*Node{dqx,
			nd("DequantizeLinear", []string{"wm", "sw", "zw"}, []string{"wf"}), nd("DequantizeLinear", []string{"b6", "sb"}, []string{"bf"}),
			nd("Gemm", []string{"xf", "wf", "bf"}, []string{"c"}, aI("transB", 1)), q("c", "zy")},
			wantOps: []string{"QLinearMatMul"}},
		{name: "gemm alpha", inputs: []ValueInfo{vin("x", payload.Uint8, 2, 6)}, nodes: []*Node{dqx,
			nd("DequantizeLinear", []string{"wm", "sw", "zw"}, []string{"wf"}),
			nd("Gemm", []string{"xf", "wf"}, []string{"c"}, aF("alpha", 2)), q("c", "zy")},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Gemm", "QuantizeLinear"}},
		{name: "maxpool", nodes: []*Node{nd("DequantizeLinear", []string{"x", "sy", "zy"}, []string{"xf"}),
			nd("MaxPool", []string{"xf"}, []string{"p"}, aIs("kernel_shape", 2, 2)), q("p", "zy")},
			wantOps: []string{"MaxPool"}, wantIn: []string{"x"}},
		{name: "maxpool rescaling", nodes: []*Node{dqx, nd("MaxPool", []string{"xf"}, []string{"p"}, aIs("kernel_shape", 2, 2)), q("p", "zy")},
			wantOps: []string{"DequantizeLinear", "MaxPool", "QuantizeLinear"}},
		{name: "concat", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"x", "sx", "zx"}, []string{"xg"}),
			nd("Concat", []string{"xf", "xg"}, []string{"p"}, aI("axis", 1)), nd("QuantizeLinear", []string{"p", "sx", "zx"}, []string{"y"})},
			wantOps: []string{"Concat"}, wantIn: []string{"x", "x"}},
		{name: "add", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"x", "sx2", "zx"}, []string{"xg"}),
			nd("Add", []string{"xf", "xg"}, []string{"c"}), q("c", "zy")},
			wantOps: []string{"QLinearAdd"}, wantIn: []string{"x", "sx", "zx", "x", "sx2", "zx", "sy", "zy"}},
		{name: "mul relu", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"x", "sx2", "zx"}, []string{"xg"}),
			nd("Mul", []string{"xf", "xg"}, []string{"c"}), nd("Relu", []string{"c"}, []string{"r"}), q("r", "zy0")},
			wantOps: []string{"QLinearMul"}},
		{name: "add of another output type", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"x", "sx2", "zx"}, []string{"xg"}),
			nd("Add", []string{"xf", "xg"}, []string{"c"}), q("c", "zi")},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Add", "QuantizeLinear"}},
		{name: "add of a float operand", nodes: []*Node{dqx, nd("Add", []string{"xf", "sx"}, []string{"c"}), q("c", "zy")},
			wantOps: []string{"DequantizeLinear", "Add", "QuantizeLinear"}},
		{name: "sigmoid", nodes: []*Node{dqx, nd("Sigmoid", []string{"xf"}, []string{"c"}), q("c", "zy")},
			wantOps: []string{"QLinearSigmoid"}, wantIn: []string{"x", "sx", "zx", "sy", "zy"}},
		{name: "leaky relu", nodes: []*Node{dqx, nd("LeakyRelu", []string{"xf"}, []string{"c"}, aF("alpha", 0.2)), q("c", "zy")},
			wantOps: []string{"QLinearLeakyRelu"}},
		{name: "global average pool", nodes: []*Node{dqx, nd("GlobalAveragePool", []string{"xf"}, []string{"c"}), q("c", "zy")},
			wantOps: []string{"QLinearGlobalAveragePool"}, wantIn: []string{"x", "sx", "zx", "sy", "zy"}},
		{name: "global average pool of unknown size", inputs: []ValueInfo{vin("x", payload.Uint8, 1, 3, -1, 8)},
			nodes:   []*Node{dqx, nd("GlobalAveragePool", []string{"xf"}, []string{"c"}), q("c", "zy")},
			wantOps: []string{"DequantizeLinear", "GlobalAveragePool", "QuantizeLinear"}},
		{name: "average pool", nodes: []*Node{dqx, nd("AveragePool", []string{"xf"}, []string{"c"}, aIs("kernel_shape", 3, 3), aIs("pads", 1, 1, 1, 1)), q("c", "zy")},
			wantOps: []string{"QLinearAveragePool"}, wantIn: []string{"x", "sx", "zx", "sy", "zy"}},
		{name: "dilated average pool", nodes: []*Node{dqx, nd("AveragePool", []string{"xf"}, []string{"c"}, aIs("kernel_shape", 2, 2), aIs("dilations", 2, 2)), q("c", "zy")},
			wantOps: []string{"DequantizeLinear", "AveragePool", "QuantizeLinear"}},
		{name: "sigmoid read twice", nodes: []*Node{dqx, nd("Sigmoid", []string{"xf"}, []string{"c"}), q("c", "zy"), nd("Relu", []string{"c"}, []string{"z"})},
			wantOps: []string{"DequantizeLinear", "Sigmoid", "QuantizeLinear", "Relu"}},
		{name: "nearest resize", nodes: []*Node{nd("DequantizeLinear", []string{"x", "sy", "zy"}, []string{"xf"}),
			nd("Resize", []string{"xf", "", "rs"}, []string{"p"}, aS("mode", "nearest")), q("p", "zy")},
			wantOps: []string{"Resize"}, wantIn: []string{"x", "", "rs"}},
		{name: "linear resize", nodes: []*Node{nd("DequantizeLinear", []string{"x", "sy", "zy"}, []string{"xf"}),
			nd("Resize", []string{"xf", "", "rs"}, []string{"p"}, aS("mode", "linear")), q("p", "zy")},
			wantOps: []string{"DequantizeLinear", "Resize", "QuantizeLinear"}},
		{name: "concat of two scales", nodes: []*Node{dqx, nd("DequantizeLinear", []string{"x", "sx2", "zx"}, []string{"xg"}),
			nd("Concat", []string{"xf", "xg"}, []string{"p"}, aI("axis", 1)), nd("QuantizeLinear", []string{"p", "sx", "zx"}, []string{"y"})},
			wantOps: []string{"DequantizeLinear", "DequantizeLinear", "Concat", "QuantizeLinear"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.inputs
			if in == nil {
				in = xin
			}
			var nodes []*Node
			for _, n := range c.nodes {
				cp := *n
				cp.Inputs = slices.Clone(n.Inputs)
				cp.Outputs = slices.Clone(n.Outputs)
				nodes = append(nodes, &cp)
			}
			g := graph(17, in, consts, nodes...)
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			if err := FuseQDQ(g); err != nil {
				t.Fatalf("FuseQDQ: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !slices.Equal(ops, c.wantOps) {
				t.Fatalf("ops %v, want %v", ops, c.wantOps)
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after: %v", err)
			}
			for _, n := range g.Nodes {
				if n.OpType == c.wantOps[len(c.wantOps)-1] && c.wantIn != nil && !slices.Equal(n.Inputs, c.wantIn) {
					t.Fatalf("%s inputs %v, want %v", n.OpType, n.Inputs, c.wantIn)
				}
			}
			if last := g.Nodes[len(g.Nodes)-1]; !slices.Contains(last.Outputs, g.Outputs[0].Name) {
				t.Fatalf("last node writes %v, want %q", last.Outputs, g.Outputs[0].Name)
			}
		})
	}
}

// TestQuantDomain checks the bounds ClipQuantFusion compares against.
func TestQuantDomain(t *testing.T) {
	cases := []struct {
		scale     float32
		b         int32
		up, lower bool
		want      float32
	}{
		{scale: 1, b: 0, up: true, want: 0.5},
		{scale: 1, b: 255, want: 254.5},
		{scale: 1, b: -128, up: true, want: -127.5},
		{scale: 1, b: 127, want: 126.5},
	}
	for _, c := range cases {
		got := domainMaxLower(c.scale, c.b)
		if c.up {
			got = domainMinUpper(c.scale, c.b)
		}
		if c.b%2 == 1 {
			// Odd: the bound moves one float toward b.
			if !(got > c.want && got < c.want+1e-3) {
				t.Errorf("b %d: got %v, want just above %v", c.b, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("b %d: got %v, want %v", c.b, got, c.want)
		}
	}
}
