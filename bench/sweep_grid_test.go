//go:build ort

package bench

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// sweepCase is one single-op model of the sweep: its family (the table
// groups by it), a name that gives its geometry, the model and the
// input's shape.
type sweepCase struct {
	family string
	benchCase
	// macs is the multiply-adds of one call, 0 where not counted.
	macs int64
}

// sweepMaxMACs caps one call of a swept convolution or product, so that
// the whole sweep runs in a few minutes.
const sweepMaxMACs = 300_000_000

// singleOp encodes a model of one node: input x of shape in, the given
// constants after it, output y.
func singleOp(op string, in []int, consts []onnxbuild.Tensor, attrs ...onnxbuild.Attr) []byte {
	dims := make([]int64, len(in))
	for i, d := range in {
		dims[i] = int64(d)
	}
	names := []string{"x"}
	for _, c := range consts {
		names = append(names, c.Name)
	}
	g := onnxbuild.Graph{
		Name:         op,
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, dims...)},
		Outputs:      []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}},
		Initializers: consts,
		Nodes:        []onnxbuild.Node{testmodels.Node(op, names, "y", attrs...)},
	}
	return testmodels.Encode(g)
}

// sweepConvs is the convolution grid: every kernel size (1, 3, 5, 7),
// stride (1, 2), dilation (1, 2; 1 only for 1×1 kernels) and grouping
// (dense, 4 groups, depthwise), each at three of the channel and
// spatial sizes of sweepSizes, chosen in turn so that every size meets
// every geometry somewhere. Padding keeps "same" output sizes at stride
// 1. A configuration past sweepMaxMACs is left out.
func sweepConvs() []sweepCase {
	// Channels and spatial size go together as in a CNN's stages.
	sizes := [][2]int{{8, 112}, {16, 112}, {32, 56}, {64, 56}, {128, 28}, {256, 14}, {512, 7}, {64, 28}, {256, 28}}
	r := testmodels.Rand(31)
	var out []sweepCase
	i := 0
	for _, k := range []int{1, 3, 5, 7} {
		for _, s := range []int{1, 2} {
			for _, d := range []int{1, 2} {
				if k == 1 && d == 2 {
					continue
				}
				for _, grouping := range []string{"dense", "g4", "dw"} {
					for j := range 3 {
						sz := sizes[(i+3*j)%len(sizes)]
						c, hw := sz[0], sz[1]
						groups := 1
						switch grouping {
						case "g4":
							groups = 4
						case "dw":
							groups = c
						}
						pad := d * (k - 1) / 2
						oh := (hw+2*pad-d*(k-1)-1)/s + 1
						macs := int64(c) * int64(c/groups) * int64(k*k) * int64(oh*oh)
						if macs > sweepMaxMACs || oh < 1 {
							continue
						}
						name := fmt.Sprintf("Conv k%d s%d d%d %s c%d %d×%d", k, s, d, grouping, c, hw, hw)
						w := testmodels.Weight(r, "w", int64(c), int64(c/groups), int64(k), int64(k))
						b := testmodels.Weight(r, "b", int64(c))
						onnx := singleOp("Conv", []int{1, c, hw, hw}, []onnxbuild.Tensor{w, b},
							onnxbuild.AInts("kernel_shape", int64(k), int64(k)),
							onnxbuild.AInts("strides", int64(s), int64(s)),
							onnxbuild.AInts("dilations", int64(d), int64(d)),
							onnxbuild.AInts("pads", int64(pad), int64(pad), int64(pad), int64(pad)),
							onnxbuild.AInt("group", int64(groups)))
						out = append(out, sweepCase{family: "Conv", macs: macs,
							benchCase: benchCase{name: name, onnx: onnx, in: []int{1, c, hw, hw}, batch: 1}})
					}
					i++
				}
			}
		}
	}
	return out
}

// sweepProducts is the MatMul (B constant, as in a dense layer) and Gemm
// (transB and bias, as exporters write Linear) grid.
func sweepProducts() []sweepCase {
	r := testmodels.Rand(32)
	var out []sweepCase
	for _, s := range [][]int{{1, 256, 256}, {1, 1024, 1024}, {1, 4096, 1024}, {16, 512, 512}, {64, 784, 512},
		{128, 128, 128}, {197, 768, 768}, {256, 256, 256}, {49, 512, 2048}, {512, 512, 512}, {8, 64, 64, 64}, {12, 197, 64, 197}} {
		in := s[:len(s)-1]
		k, n := s[len(s)-2], s[len(s)-1]
		m := 1
		for _, d := range in[:len(in)-1] {
			m *= d
		}
		w := testmodels.Weight(r, "w", int64(k), int64(n))
		name := fmt.Sprintf("MatMul %v·%d×%d", in, k, n)
		out = append(out, sweepCase{family: "MatMul", macs: int64(m) * int64(k) * int64(n),
			benchCase: benchCase{name: name, onnx: singleOp("MatMul", in, []onnxbuild.Tensor{w}), in: in, batch: 1}})
	}
	for _, s := range [][3]int{{1, 512, 1000}, {1, 1280, 1000}, {32, 256, 256}, {64, 1024, 1024}, {256, 384, 1536}} {
		m, k, n := s[0], s[1], s[2]
		w := testmodels.Weight(r, "w", int64(n), int64(k))
		b := testmodels.Weight(r, "b", int64(n))
		name := fmt.Sprintf("Gemm %d×%d·(%d×%d)ᵀ+bias", m, k, n, k)
		out = append(out, sweepCase{family: "Gemm", macs: int64(m) * int64(k) * int64(n),
			benchCase: benchCase{name: name, onnx: singleOp("Gemm", []int{m, k}, []onnxbuild.Tensor{w, b}, onnxbuild.AInt("transB", 1)), in: []int{m, k}, batch: 1}})
	}
	return out
}

// sweepPools is the pooling grid.
func sweepPools() []sweepCase {
	var out []sweepCase
	add := func(op string, in []int, label string, attrs ...onnxbuild.Attr) {
		out = append(out, sweepCase{family: "Pool", benchCase: benchCase{name: fmt.Sprintf("%s %s %v", op, label, in),
			onnx: singleOp(op, in, nil, attrs...), in: in, batch: 1}})
	}
	for _, in := range [][]int{{1, 64, 112, 112}, {1, 256, 28, 28}, {1, 512, 14, 14}} {
		add("MaxPool", in, "k2s2", onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2))
		add("MaxPool", in, "k3s2p1", onnxbuild.AInts("kernel_shape", 3, 3), onnxbuild.AInts("strides", 2, 2), onnxbuild.AInts("pads", 1, 1, 1, 1))
		add("AveragePool", in, "k2s2", onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2))
		add("AveragePool", in, "k3s1p1", onnxbuild.AInts("kernel_shape", 3, 3), onnxbuild.AInts("pads", 1, 1, 1, 1))
	}
	add("MaxPool", []int{1, 32, 56, 56}, "k5s1p2", onnxbuild.AInts("kernel_shape", 5, 5), onnxbuild.AInts("pads", 2, 2, 2, 2))
	add("GlobalAveragePool", []int{1, 1280, 7, 7}, "")
	add("GlobalAveragePool", []int{1, 64, 56, 56}, "")
	return out
}

// sweepElementwise is the elementwise, Softmax, LayerNormalization and
// Resize grid.
func sweepElementwise() []sweepCase {
	r := testmodels.Rand(33)
	var out []sweepCase
	add := func(family, op string, in []int, label string, consts []onnxbuild.Tensor, attrs ...onnxbuild.Attr) {
		name := fmt.Sprintf("%s %v", op, in)
		if label != "" {
			name = fmt.Sprintf("%s %s %v", op, label, in)
		}
		out = append(out, sweepCase{family: family, benchCase: benchCase{name: name, onnx: singleOp(op, in, consts, attrs...), in: in, batch: 1}})
	}
	shapes := [][]int{{1, 1024}, {1, 64, 28, 28}, {1, 64, 112, 112}}
	for _, in := range shapes {
		n := int64(1)
		dims := make([]int64, len(in))
		for i, d := range in {
			n *= int64(d)
			dims[i] = int64(d)
		}
		same := onnxbuild.TensorOf("c", dims, testmodels.Uniform(r, int(n), 1))
		pos := testmodels.Uniform(r, int(n), 0.5)
		for i := range pos {
			pos[i] += 1
		}
		divisor := onnxbuild.TensorOf("c", dims, pos)
		add("Elementwise", "Add", in, "same shape", []onnxbuild.Tensor{same})
		add("Elementwise", "Mul", in, "same shape", []onnxbuild.Tensor{same})
		add("Elementwise", "Sub", in, "same shape", []onnxbuild.Tensor{same})
		add("Elementwise", "Div", in, "same shape", []onnxbuild.Tensor{divisor})
		add("Elementwise", "Add", in, "scalar", []onnxbuild.Tensor{onnxbuild.Scalar("c", float32(0.5))})
		add("Elementwise", "Mul", in, "scalar", []onnxbuild.Tensor{onnxbuild.Scalar("c", float32(0.5))})
		if len(in) == 4 {
			ch := onnxbuild.TensorOf("c", []int64{dims[1], 1, 1}, testmodels.Uniform(r, in[1], 1))
			add("Elementwise", "Add", in, "per channel", []onnxbuild.Tensor{ch})
			add("Elementwise", "Mul", in, "per channel", []onnxbuild.Tensor{ch})
		}
		for _, op := range []string{"Relu", "Sigmoid", "Tanh", "Exp", "Abs", "Neg", "Erf", "Softplus", "HardSwish"} {
			add("Elementwise", op, in, "", nil)
		}
		add("Elementwise", "LeakyRelu", in, "", nil, onnxbuild.AFloat("alpha", 0.1))
		add("Elementwise", "Clip", in, "[-0.5, 0.5]", []onnxbuild.Tensor{onnxbuild.Scalar("lo", float32(-0.5)), onnxbuild.Scalar("hi", float32(0.5))})
	}
	for _, in := range [][]int{{64, 1000}, {1, 128, 128}, {1, 12, 197, 197}, {8, 4, 64, 64}} {
		add("Softmax", "Softmax", in, "last axis", nil, onnxbuild.AInt("axis", -1))
	}
	add("Softmax", "Softmax", []int{1, 1000, 16, 16}, "axis 1", nil, onnxbuild.AInt("axis", 1))
	for _, in := range [][]int{{1, 128, 768}, {1, 197, 384}, {64, 1024}, {1, 4096, 64}} {
		d := int64(in[len(in)-1])
		add("LayerNorm", "LayerNormalization", in, "last axis", []onnxbuild.Tensor{testmodels.Weight(r, "s", d), testmodels.Weight(r, "b", d)}, onnxbuild.AInt("axis", -1))
	}
	resize := func(in []int, scale float32, label string, attrs ...onnxbuild.Attr) {
		scales := onnxbuild.TensorOf("scales", []int64{4}, []float32{1, 1, scale, scale})
		roi := onnxbuild.TensorOf("roi", []int64{0}, []float32{})
		add("Resize", "Resize", in, label, []onnxbuild.Tensor{roi, scales}, attrs...)
	}
	resize([]int{1, 64, 56, 56}, 2, "nearest ×2 asymmetric floor", onnxbuild.AString("mode", "nearest"),
		onnxbuild.AString("coordinate_transformation_mode", "asymmetric"), onnxbuild.AString("nearest_mode", "floor"))
	resize([]int{1, 256, 14, 14}, 2, "nearest ×2", onnxbuild.AString("mode", "nearest"))
	resize([]int{1, 64, 56, 56}, 2, "linear ×2 half_pixel", onnxbuild.AString("mode", "linear"))
	resize([]int{1, 32, 112, 112}, 0.5, "linear ×0.5", onnxbuild.AString("mode", "linear"))
	resize([]int{1, 96, 40, 40}, 2, "linear ×2 align_corners", onnxbuild.AString("mode", "linear"), onnxbuild.AString("coordinate_transformation_mode", "align_corners"))
	resize([]int{1, 16, 32, 32}, 2, "cubic ×2", onnxbuild.AString("mode", "cubic"))
	return out
}

// sweepCases is the whole grid.
func sweepCases() []sweepCase {
	var out []sweepCase
	out = append(out, sweepConvs()...)
	out = append(out, sweepProducts()...)
	out = append(out, sweepPools()...)
	out = append(out, sweepElementwise()...)
	return out
}
