// Package testmodels builds the small ONNX models that lintel's benchmarks
// and backend tests share: an MLP, one Gemm, a transformer encoder layer,
// a small CNN and a small mobile-style CNN, with weights from fixed seeds.
//
// Rules: every function returns a fresh, valid ONNX file, the same bytes
// on every call and every machine (benchmark results in bench/RESULTS.md
// depend on it); nothing here is imported by the library itself.
package testmodels

import (
	"math/rand/v2"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// Rand returns the deterministic source the models draw weights from.
func Rand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xbe4c)) }

// Uniform returns n values drawn uniformly from [-s, s).
func Uniform(r *rand.Rand, n int, s float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = (r.Float32()*2 - 1) * s
	}
	return v
}

// Weight returns a constant tensor of uniform values scaled by
// 1/sqrt(fan-in).
func Weight(r *rand.Rand, name string, shape ...int64) onnxbuild.Tensor {
	n, fan := int64(1), shape[0]
	for _, d := range shape {
		n *= d
	}
	if len(shape) > 2 {
		fan = n / shape[0]
	}
	s := float32(1)
	if fan > 0 {
		s = 1 / float32(sqrt(float64(fan)))
	}
	return onnxbuild.TensorOf(name, shape, Uniform(r, int(n), s))
}

func sqrt(x float64) float64 {
	z := x
	for range 30 {
		z -= (z*z - x) / (2 * z)
	}
	return z
}

// Node returns a node named after its one output.
func Node(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
	return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
}

// Encode encodes g as a model of opset 17.
func Encode(g onnxbuild.Graph) []byte {
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// MLP is MatMul+Add+Relu, 784-512-512-10, with a free batch dim.
func MLP() []byte {
	r := Rand(1)
	g := onnxbuild.Graph{
		Name:    "mlp",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 784)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
		Initializers: []onnxbuild.Tensor{
			Weight(r, "w1", 784, 512), Weight(r, "b1", 512),
			Weight(r, "w2", 512, 512), Weight(r, "b2", 512),
			Weight(r, "w3", 512, 10), Weight(r, "b3", 10),
		},
		Nodes: []onnxbuild.Node{
			Node("MatMul", []string{"x", "w1"}, "m1"), Node("Add", []string{"m1", "b1"}, "a1"), Node("Relu", []string{"a1"}, "h1"),
			Node("MatMul", []string{"h1", "w2"}, "m2"), Node("Add", []string{"m2", "b2"}, "a2"), Node("Relu", []string{"a2"}, "h2"),
			Node("MatMul", []string{"h2", "w3"}, "m3"), Node("Add", []string{"m3", "b3"}, "y"),
		},
	}
	return Encode(g)
}

// Gemm is one Gemm with a 256×256 weight and bias.
func Gemm() []byte {
	r := Rand(2)
	g := onnxbuild.Graph{
		Name:         "gemm",
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 256)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 256)},
		Initializers: []onnxbuild.Tensor{Weight(r, "w", 256, 256), Weight(r, "b", 256)},
		Nodes:        []onnxbuild.Node{Node("Gemm", []string{"x", "w", "b"}, "y")},
	}
	return Encode(g)
}

// Encoder is a post-norm transformer encoder layer: 4-head self
// attention over 32 tokens of width 128, then a 512-wide ReLU MLP, each
// with a residual and LayerNormalization.
func Encoder() []byte {
	const s, d, h, f = 32, 128, 4, 512
	r := Rand(3)
	ints := func(name string, v ...int64) onnxbuild.Tensor {
		return onnxbuild.TensorOf(name, []int64{int64(len(v))}, v)
	}
	ones, zeros := make([]float32, d), make([]float32, d)
	for i := range ones {
		ones[i] = 1
	}
	init := []onnxbuild.Tensor{
		Weight(r, "wq", d, d), Weight(r, "bq", d), Weight(r, "wk", d, d), Weight(r, "bk", d),
		Weight(r, "wv", d, d), Weight(r, "bv", d), Weight(r, "wo", d, d), Weight(r, "bo", d),
		Weight(r, "w1", d, f), Weight(r, "b1", f), Weight(r, "w2", f, d), Weight(r, "b2", d),
		onnxbuild.TensorOf("g1", []int64{d}, ones), onnxbuild.TensorOf("e1", []int64{d}, zeros),
		onnxbuild.TensorOf("g2", []int64{d}, ones), onnxbuild.TensorOf("e2", []int64{d}, zeros),
		ints("heads", 1, s, h, d/h), ints("flat", 1, s, d),
		onnxbuild.Scalar("scale", float32(1/sqrt(d/h))),
	}
	var nodes []onnxbuild.Node
	add := func(n onnxbuild.Node) { nodes = append(nodes, n) }
	proj := func(x, w, b, out string) {
		add(Node("MatMul", []string{x, w}, out+"_m"))
		add(Node("Add", []string{out + "_m", b}, out))
	}
	perm := func(p ...int64) onnxbuild.Attr { return onnxbuild.AInts("perm", p...) }
	proj("x", "wq", "bq", "q")
	proj("x", "wk", "bk", "k")
	proj("x", "wv", "bv", "v")
	add(Node("Reshape", []string{"q", "heads"}, "q4"))
	add(Node("Transpose", []string{"q4"}, "qh", perm(0, 2, 1, 3)))
	add(Node("Reshape", []string{"k", "heads"}, "k4"))
	add(Node("Transpose", []string{"k4"}, "kt", perm(0, 2, 3, 1)))
	add(Node("Reshape", []string{"v", "heads"}, "v4"))
	add(Node("Transpose", []string{"v4"}, "vh", perm(0, 2, 1, 3)))
	add(Node("MatMul", []string{"qh", "kt"}, "sc"))
	add(Node("Mul", []string{"sc", "scale"}, "scs"))
	add(Node("Softmax", []string{"scs"}, "p", onnxbuild.AInt("axis", -1)))
	add(Node("MatMul", []string{"p", "vh"}, "ctx"))
	add(Node("Transpose", []string{"ctx"}, "ctxt", perm(0, 2, 1, 3)))
	add(Node("Reshape", []string{"ctxt", "flat"}, "ctxf"))
	proj("ctxf", "wo", "bo", "att")
	add(Node("Add", []string{"x", "att"}, "r1"))
	add(Node("LayerNormalization", []string{"r1", "g1", "e1"}, "n1", onnxbuild.AInt("axis", -1)))
	proj("n1", "w1", "b1", "f1")
	add(Node("Relu", []string{"f1"}, "f1r"))
	proj("f1r", "w2", "b2", "f2")
	add(Node("Add", []string{"n1", "f2"}, "r2"))
	add(Node("LayerNormalization", []string{"r2", "g2", "e2"}, "y", onnxbuild.AInt("axis", -1)))
	g := onnxbuild.Graph{
		Name:         "encoder",
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, s, d)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, s, d)},
		Initializers: init,
		Nodes:        nodes,
	}
	return Encode(g)
}

// CNN is a small image classifier: two 3×3 Conv+Relu+MaxPool stages
// (3→16→32 channels on 32×32), then a Gemm to 10 classes.
func CNN() []byte {
	r := Rand(4)
	pads := onnxbuild.AInts("pads", 1, 1, 1, 1)
	pool := []onnxbuild.Attr{onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2)}
	g := onnxbuild.Graph{
		Name:    "cnn",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3, 32, 32)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
		Initializers: []onnxbuild.Tensor{
			Weight(r, "c1", 16, 3, 3, 3), Weight(r, "cb1", 16),
			Weight(r, "c2", 32, 16, 3, 3), Weight(r, "cb2", 32),
			Weight(r, "fw", 32*8*8, 10), Weight(r, "fb", 10),
		},
		Nodes: []onnxbuild.Node{
			Node("Conv", []string{"x", "c1", "cb1"}, "y1", pads), Node("Relu", []string{"y1"}, "r1"),
			Node("MaxPool", []string{"r1"}, "p1", pool...),
			Node("Conv", []string{"p1", "c2", "cb2"}, "y2", pads), Node("Relu", []string{"y2"}, "r2"),
			Node("MaxPool", []string{"r2"}, "p2", pool...),
			Node("Flatten", []string{"p2"}, "fl"),
			Node("Gemm", []string{"fl", "fw", "fb"}, "y"),
		},
	}
	return Encode(g)
}

// MobileCNN is a small mobile-style image classifier on 96×96 images: a
// 3×3 Conv (3→16) and BatchNormalization, a depthwise 3×3 stride-2 Conv
// and HardSwish, a 2×2 MaxPool, a 1×1 Conv (16→32) and Relu, a
// GlobalAveragePool, then a Gemm to 10 classes.
func MobileCNN() []byte {
	r := Rand(5)
	pads := onnxbuild.AInts("pads", 1, 1, 1, 1)
	ones := make([]float32, 16)
	for i := range ones {
		ones[i] = 1 + 0.1*float32(i%3)
	}
	g := onnxbuild.Graph{
		Name:    "mobile_cnn",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3, 96, 96)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
		Initializers: []onnxbuild.Tensor{
			Weight(r, "c1", 16, 3, 3, 3),
			onnxbuild.TensorOf("bn_s", []int64{16}, ones), onnxbuild.TensorOf("bn_b", []int64{16}, Uniform(r, 16, 0.1)),
			onnxbuild.TensorOf("bn_m", []int64{16}, Uniform(r, 16, 0.1)), onnxbuild.TensorOf("bn_v", []int64{16}, ones),
			Weight(r, "dw", 16, 1, 3, 3), Weight(r, "dwb", 16),
			Weight(r, "pw", 32, 16, 1, 1), Weight(r, "pwb", 32),
			Weight(r, "fw", 32, 10), Weight(r, "fb", 10),
		},
		Nodes: []onnxbuild.Node{
			Node("Conv", []string{"x", "c1"}, "y1", pads),
			Node("BatchNormalization", []string{"y1", "bn_s", "bn_b", "bn_m", "bn_v"}, "n1"),
			Node("Conv", []string{"n1", "dw", "dwb"}, "y2", pads, onnxbuild.AInt("group", 16), onnxbuild.AInts("strides", 2, 2)),
			Node("HardSwish", []string{"y2"}, "h2"),
			Node("MaxPool", []string{"h2"}, "p2", onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2)),
			Node("Conv", []string{"p2", "pw", "pwb"}, "y3"), Node("Relu", []string{"y3"}, "r3"),
			Node("GlobalAveragePool", []string{"r3"}, "g3"),
			Node("Flatten", []string{"g3"}, "fl"),
			Node("Gemm", []string{"fl", "fw", "fb"}, "y"),
		},
	}
	return Encode(g)
}
