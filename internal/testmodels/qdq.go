package testmodels

import (
	"math"
	"math/rand/v2"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// qdqBuilder writes a model in the QDQ form of ONNX Runtime's
// quantize_static: QuantizeLinear → DequantizeLinear on every
// activation, DequantizeLinear on 8-bit constant weights and int32
// biases, float ops in between.
type qdqBuilder struct {
	r     *rand.Rand
	act   payload.DType // the activations' type, Uint8 or Int8
	inits []onnxbuild.Tensor
	nodes []onnxbuild.Node
	outs  []onnxbuild.Value
	taps  bool // make each activation's 8-bit value a graph output
}

// zp returns a zero point constant: u for uint8 activations, u−128 for
// int8 ones.
func (b *qdqBuilder) zp(name string, u uint8) onnxbuild.Tensor {
	if b.act == payload.Int8 {
		return onnxbuild.Scalar(name, int8(int(u)-128))
	}
	return onnxbuild.Scalar(name, u)
}

// qdq quantizes float value v (scale, zero point zpU as for uint8) and
// dequantizes it back; it returns the float value's name and its scale.
// The 8-bit value is name_q, a graph output when b.taps is set.
func (b *qdqBuilder) qdq(v, name string, scale float32, zpU uint8) (string, float32) {
	s, z, q := name+"_s", name+"_z", name+"_q"
	b.inits = append(b.inits, onnxbuild.Scalar(s, scale), b.zp(z, zpU))
	b.nodes = append(b.nodes, Node("QuantizeLinear", []string{v, s, z}, q), Node("DequantizeLinear", []string{q, s, z}, name))
	if b.taps {
		b.outs = append(b.outs, onnxbuild.Value{Name: q, DType: b.act, NoShape: true})
	}
	return name, scale
}

// weights adds int8 weights of the given shape, uniform in [−127, 127],
// with one scale (perChannel false) or one per index of axis, of about
// 1/sqrt(fan-in) per unit of weight range, and their DequantizeLinear;
// it returns the float value's name and the scales.
func (b *qdqBuilder) weights(name string, shape []int64, perChannel bool, axis int, fan int) (string, []float32) {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	w := make([]int8, n)
	for i := range w {
		w[i] = int8(b.r.IntN(255) - 127)
	}
	ns := 1
	if perChannel {
		ns = int(shape[axis])
	}
	sc := make([]float32, ns)
	for i := range sc {
		sc[i] = float32((0.5 + b.r.Float64()) / 127 / math.Sqrt(float64(fan)))
	}
	st := onnxbuild.TensorOf(name+"_s", []int64{int64(ns)}, sc)
	if !perChannel {
		st = onnxbuild.Scalar(name+"_s", sc[0])
	}
	zt := onnxbuild.TensorOf(name+"_z", []int64{int64(ns)}, make([]int8, ns))
	if !perChannel {
		zt = onnxbuild.Scalar(name+"_z", int8(0))
	}
	b.inits = append(b.inits, onnxbuild.TensorOf(name+"_q", shape, w), st, zt)
	var at []onnxbuild.Attr
	if perChannel {
		at = append(at, onnxbuild.AInt("axis", int64(axis)))
	}
	b.nodes = append(b.nodes, Node("DequantizeLinear", []string{name + "_q", name + "_s", name + "_z"}, name, at...))
	return name, sc
}

// bias adds an int32 bias of n values, about ±0.1, quantized with scale
// sx·sw[i] as quantize_static does, and its DequantizeLinear.
func (b *qdqBuilder) bias(name string, n int, sx float32, sw []float32) string {
	v := make([]int32, n)
	sc := make([]float32, n)
	for i := range v {
		sc[i] = sx * sw[min(i, len(sw)-1)]
		v[i] = int32(math.RoundToEven(float64((b.r.Float32()*2-1)*0.1) / float64(sc[i])))
	}
	b.inits = append(b.inits, onnxbuild.TensorOf(name+"_q", []int64{int64(n)}, v), onnxbuild.TensorOf(name+"_s", []int64{int64(n)}, sc))
	b.nodes = append(b.nodes, Node("DequantizeLinear", []string{name + "_q", name + "_s"}, name, onnxbuild.AInt("axis", 0)))
	return name
}

// model encodes the graph with float input x of shape in and the last
// Q's 8-bit output yq and its float value y as outputs.
func (b *qdqBuilder) model(name string, in []int64, last string, scale float32, zpU uint8) []byte {
	b.qdq(last, "y", scale, zpU)
	outs := append([]onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}}, b.outs...)
	if !b.taps {
		outs = append(outs, onnxbuild.Value{Name: "y_q", DType: b.act, NoShape: true})
	}
	g := onnxbuild.Graph{
		Name:         name,
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, in...)},
		Outputs:      outs,
		Initializers: b.inits,
		Nodes:        b.nodes,
	}
	return Encode(g)
}

// QDQCNN is a small CNN on 64×64 images in QDQ form, activations of type
// act (Uint8 or Int8), int8 weights per output channel, int32 biases: a
// 3×3 Conv (3→32) and Relu, a depthwise 3×3 Conv and Relu, a 2×2
// MaxPool, a 1×1 Conv (32→32) added to its input (a residual Add), a
// 3×3 stride-2 Conv (32→64) and Relu, a GlobalAveragePool, a Flatten and
// a Gemm (transB) to 10 classes. Its outputs are y (float32, after the
// last DequantizeLinear) and y_q, the last 8-bit value; with taps, every
// activation's 8-bit value is an output too.
func QDQCNN(act payload.DType, taps bool) []byte {
	b := &qdqBuilder{r: Rand(11), act: act, taps: taps}
	pads := onnxbuild.AInts("pads", 1, 1, 1, 1)
	x, sx := b.qdq("x", "xd", 1/127.5, 128)

	w1, s1 := b.weights("w1", []int64{32, 3, 3, 3}, true, 0, 27)
	c1 := b.bias("b1", 32, sx, s1)
	b.nodes = append(b.nodes, Node("Conv", []string{x, w1, c1}, "c1", pads), Node("Relu", []string{"c1"}, "r1"))
	x, sx = b.qdq("r1", "r1d", 1.5/255, 0)

	w2, s2 := b.weights("w2", []int64{32, 1, 3, 3}, true, 0, 9)
	c2 := b.bias("b2", 32, sx, s2)
	b.nodes = append(b.nodes, Node("Conv", []string{x, w2, c2}, "c2", pads, onnxbuild.AInt("group", 32)), Node("Relu", []string{"c2"}, "r2"))
	x, sx = b.qdq("r2", "r2d", 1.0/255, 0)

	b.nodes = append(b.nodes, Node("MaxPool", []string{x}, "p2", onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2)))
	p, sp := b.qdq("p2", "p2d", sx, 0)

	w3, s3 := b.weights("w3", []int64{32, 32, 1, 1}, true, 0, 32)
	c3 := b.bias("b3", 32, sp, s3)
	b.nodes = append(b.nodes, Node("Conv", []string{p, w3, c3}, "c3"))
	x, _ = b.qdq("c3", "c3d", 2.0/255, 128)
	b.nodes = append(b.nodes, Node("Add", []string{x, p}, "a3"))
	x, sx = b.qdq("a3", "a3d", 3.0/255, 128)

	w4, s4 := b.weights("w4", []int64{64, 32, 3, 3}, true, 0, 288)
	c4 := b.bias("b4", 64, sx, s4)
	b.nodes = append(b.nodes, Node("Conv", []string{x, w4, c4}, "c4", pads, onnxbuild.AInts("strides", 2, 2)), Node("Relu", []string{"c4"}, "r4"))
	x, _ = b.qdq("r4", "r4d", 1.0/255, 0)

	b.nodes = append(b.nodes, Node("GlobalAveragePool", []string{x}, "g4"))
	x, sx = b.qdq("g4", "g4d", 0.5/255, 0)
	b.nodes = append(b.nodes, Node("Flatten", []string{x}, "f4"))
	x, sx = b.qdq("f4", "f4d", sx, 0)

	w5, s5 := b.weights("w5", []int64{10, 64}, true, 0, 64)
	c5 := b.bias("b5", 10, sx, s5)
	b.nodes = append(b.nodes, Node("Gemm", []string{x, w5, c5}, "c5", onnxbuild.AInt("transB", 1)))
	return b.model("qdq_cnn", []int64{-1, 3, 64, 64}, "c5", 2.0/255, 128)
}

// QDQMLP is a 256-512-512-10 MLP in QDQ form, activations of type act
// (Uint8 or Int8), int8 weights (per column when perChannel), int32
// biases: a Gemm with bias and Relu, a Gemm (transB) with bias and
// Relu, then a MatMul without bias. Its outputs are y (float32, after
// the last DequantizeLinear) and y_q, the last 8-bit value; with taps,
// every activation's 8-bit value is an output too.
func QDQMLP(act payload.DType, perChannel, taps bool) []byte {
	b := &qdqBuilder{r: Rand(12), act: act, taps: taps}
	x, sx := b.qdq("x", "xd", 1/127.5, 128)

	w1, s1 := b.weights("w1", []int64{256, 512}, perChannel, 1, 256)
	c1 := b.bias("b1", 512, sx, s1)
	b.nodes = append(b.nodes, Node("Gemm", []string{x, w1, c1}, "h1"), Node("Relu", []string{"h1"}, "r1"))
	x, sx = b.qdq("r1", "r1d", 1.0/255, 0)

	w2, s2 := b.weights("w2", []int64{512, 512}, perChannel, 0, 512)
	c2 := b.bias("b2", 512, sx, s2)
	b.nodes = append(b.nodes, Node("Gemm", []string{x, w2, c2}, "h2", onnxbuild.AInt("transB", 1)), Node("Relu", []string{"h2"}, "r2"))
	x, _ = b.qdq("r2", "r2d", 0.7/255, 0)

	w3, _ := b.weights("w3", []int64{512, 10}, perChannel, 1, 512)
	b.nodes = append(b.nodes, Node("MatMul", []string{x, w3}, "m3"))
	return b.model("qdq_mlp", []int64{-1, 256}, "m3", 1.0/255, 128)
}
