package bench

import (
	"math/rand/v2"

	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// benchCase is one model and the shape of one input item.
type benchCase struct {
	name string
	// onnx is the model file.
	onnx []byte
	// in is the input's shape for the whole call, batch first.
	in []int
	// batch is how many items one call holds: InferBatch runs batch
	// items of shape in[1:] with a leading 1.
	batch int
}

// f32 is a float32 tensor payload.
type f32 = payload.Tensor[float32]

// cases returns every benchmark case.
func cases() []benchCase {
	mlp := mlpModel()
	return []benchCase{
		{name: "mlp_784_512_512_10_b1", onnx: mlp, in: []int{1, 784}, batch: 1},
		{name: "mlp_784_512_512_10_b64", onnx: mlp, in: []int{64, 784}, batch: 64},
		{name: "gemm_256x256_b256", onnx: gemmModel(), in: []int{256, 256}, batch: 256},
		{name: "transformer_layer_s32_d128_b1", onnx: encoderModel(), in: []int{1, 32, 128}, batch: 1},
		{name: "cnn_32x32_b1", onnx: cnnModel(), in: []int{1, 3, 32, 32}, batch: 1},
		{name: "ppocr_cls_b1", onnx: models.PPOCRClassifier, in: []int{1, 3, 48, 192}, batch: 1},
	}
}

// rng is the cases' deterministic source.
func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xbe4c)) }

// randn returns n values in [-s, s).
func randn(r *rand.Rand, n int, s float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = (r.Float32()*2 - 1) * s
	}
	return v
}

// weight is a constant tensor of uniform values scaled by 1/sqrt(fan-in).
func weight(r *rand.Rand, name string, shape ...int64) onnxbuild.Tensor {
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
	return onnxbuild.TensorOf(name, shape, randn(r, int(n), s))
}

func sqrt(x float64) float64 {
	z := x
	for range 30 {
		z -= (z*z - x) / (2 * z)
	}
	return z
}

func node(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
	return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
}

func encode(g onnxbuild.Graph) []byte {
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// mlpModel is MatMul+Add+Relu, 784-512-512-10, with a free batch dim.
func mlpModel() []byte {
	r := rng(1)
	g := onnxbuild.Graph{
		Name:    "mlp",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 784)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
		Initializers: []onnxbuild.Tensor{
			weight(r, "w1", 784, 512), weight(r, "b1", 512),
			weight(r, "w2", 512, 512), weight(r, "b2", 512),
			weight(r, "w3", 512, 10), weight(r, "b3", 10),
		},
		Nodes: []onnxbuild.Node{
			node("MatMul", []string{"x", "w1"}, "m1"), node("Add", []string{"m1", "b1"}, "a1"), node("Relu", []string{"a1"}, "h1"),
			node("MatMul", []string{"h1", "w2"}, "m2"), node("Add", []string{"m2", "b2"}, "a2"), node("Relu", []string{"a2"}, "h2"),
			node("MatMul", []string{"h2", "w3"}, "m3"), node("Add", []string{"m3", "b3"}, "y"),
		},
	}
	return encode(g)
}

// gemmModel is one Gemm with a 256×256 weight and bias.
func gemmModel() []byte {
	r := rng(2)
	g := onnxbuild.Graph{
		Name:         "gemm",
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 256)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 256)},
		Initializers: []onnxbuild.Tensor{weight(r, "w", 256, 256), weight(r, "b", 256)},
		Nodes:        []onnxbuild.Node{node("Gemm", []string{"x", "w", "b"}, "y")},
	}
	return encode(g)
}

// encoderModel is a post-norm transformer encoder layer: 4-head self
// attention over 32 tokens of width 128, then a 512-wide ReLU MLP, each
// with a residual and LayerNormalization.
func encoderModel() []byte {
	const s, d, h, f = 32, 128, 4, 512
	r := rng(3)
	ints := func(name string, v ...int64) onnxbuild.Tensor {
		return onnxbuild.TensorOf(name, []int64{int64(len(v))}, v)
	}
	ones, zeros := make([]float32, d), make([]float32, d)
	for i := range ones {
		ones[i] = 1
	}
	init := []onnxbuild.Tensor{
		weight(r, "wq", d, d), weight(r, "bq", d), weight(r, "wk", d, d), weight(r, "bk", d),
		weight(r, "wv", d, d), weight(r, "bv", d), weight(r, "wo", d, d), weight(r, "bo", d),
		weight(r, "w1", d, f), weight(r, "b1", f), weight(r, "w2", f, d), weight(r, "b2", d),
		onnxbuild.TensorOf("g1", []int64{d}, ones), onnxbuild.TensorOf("e1", []int64{d}, zeros),
		onnxbuild.TensorOf("g2", []int64{d}, ones), onnxbuild.TensorOf("e2", []int64{d}, zeros),
		ints("heads", 1, s, h, d/h), ints("flat", 1, s, d),
		onnxbuild.Scalar("scale", float32(1/sqrt(d/h))),
	}
	var nodes []onnxbuild.Node
	add := func(n onnxbuild.Node) { nodes = append(nodes, n) }
	proj := func(x, w, b, out string) {
		add(node("MatMul", []string{x, w}, out+"_m"))
		add(node("Add", []string{out + "_m", b}, out))
	}
	perm := func(p ...int64) onnxbuild.Attr { return onnxbuild.AInts("perm", p...) }
	proj("x", "wq", "bq", "q")
	proj("x", "wk", "bk", "k")
	proj("x", "wv", "bv", "v")
	add(node("Reshape", []string{"q", "heads"}, "q4"))
	add(node("Transpose", []string{"q4"}, "qh", perm(0, 2, 1, 3)))
	add(node("Reshape", []string{"k", "heads"}, "k4"))
	add(node("Transpose", []string{"k4"}, "kt", perm(0, 2, 3, 1)))
	add(node("Reshape", []string{"v", "heads"}, "v4"))
	add(node("Transpose", []string{"v4"}, "vh", perm(0, 2, 1, 3)))
	add(node("MatMul", []string{"qh", "kt"}, "sc"))
	add(node("Mul", []string{"sc", "scale"}, "scs"))
	add(node("Softmax", []string{"scs"}, "p", onnxbuild.AInt("axis", -1)))
	add(node("MatMul", []string{"p", "vh"}, "ctx"))
	add(node("Transpose", []string{"ctx"}, "ctxt", perm(0, 2, 1, 3)))
	add(node("Reshape", []string{"ctxt", "flat"}, "ctxf"))
	proj("ctxf", "wo", "bo", "att")
	add(node("Add", []string{"x", "att"}, "r1"))
	add(node("LayerNormalization", []string{"r1", "g1", "e1"}, "n1", onnxbuild.AInt("axis", -1)))
	proj("n1", "w1", "b1", "f1")
	add(node("Relu", []string{"f1"}, "f1r"))
	proj("f1r", "w2", "b2", "f2")
	add(node("Add", []string{"n1", "f2"}, "r2"))
	add(node("LayerNormalization", []string{"r2", "g2", "e2"}, "y", onnxbuild.AInt("axis", -1)))
	g := onnxbuild.Graph{
		Name:         "encoder",
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, s, d)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, s, d)},
		Initializers: init,
		Nodes:        nodes,
	}
	return encode(g)
}

// cnnModel is a small image classifier: two 3×3 Conv+Relu+MaxPool stages
// (3→16→32 channels on 32×32), then a Gemm to 10 classes.
func cnnModel() []byte {
	r := rng(4)
	pads := onnxbuild.AInts("pads", 1, 1, 1, 1)
	pool := []onnxbuild.Attr{onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2)}
	g := onnxbuild.Graph{
		Name:    "cnn",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3, 32, 32)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
		Initializers: []onnxbuild.Tensor{
			weight(r, "c1", 16, 3, 3, 3), weight(r, "cb1", 16),
			weight(r, "c2", 32, 16, 3, 3), weight(r, "cb2", 32),
			weight(r, "fw", 32*8*8, 10), weight(r, "fb", 10),
		},
		Nodes: []onnxbuild.Node{
			node("Conv", []string{"x", "c1", "cb1"}, "y1", pads), node("Relu", []string{"y1"}, "r1"),
			node("MaxPool", []string{"r1"}, "p1", pool...),
			node("Conv", []string{"p1", "c2", "cb2"}, "y2", pads), node("Relu", []string{"y2"}, "r2"),
			node("MaxPool", []string{"r2"}, "p2", pool...),
			node("Flatten", []string{"p2"}, "fl"),
			node("Gemm", []string{"fl", "fw", "fb"}, "y"),
		},
	}
	return encode(g)
}
