package gputest

import (
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/backends/internal/gpu"

	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

const (
	f32 = payload.Float32
	i64 = payload.Int64
	boo = payload.Bool
)

// In returns a model input of the given type and shape (-1: free).
func In(name string, dt payload.DType, shape ...int64) ob.Value { return ob.Input(name, dt, shape...) }

// W32 returns a random float32 initializer.
func W32(name string, r *rand.Rand, shape ...int64) ob.Tensor {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return ob.TensorOf(name, shape, v)
}

// Ints returns a one-dimensional int64 initializer.
func Ints(name string, v ...int64) ob.Tensor { return ob.TensorOf(name, []int64{int64(len(v))}, v) }

// OpCase is one single-op model, run on the fake device and on the CPU
// backend with the same random inputs.
type OpCase struct {
	Name   string
	Opset  int64
	Op     string
	Out    payload.DType
	Ins    []ob.Value
	Inits  func(r *rand.Rand) []ob.Tensor
	Attrs  []ob.Attr
	Shapes [][]int // concrete input shapes; nil means the declared ones
}

// OpCases returns every single-op case the kernels are tested on.
func OpCases() []OpCase {
	none := func(*rand.Rand) []ob.Tensor { return nil }
	x := func(shape ...int64) []ob.Value { return []ob.Value{In("x", f32, shape...)} }
	xz := func(a, b []int64) []ob.Value { return []ob.Value{In("x", f32, a...), In("z", f32, b...)} }
	var cs []OpCase
	for _, op := range []string{"Relu", "Sigmoid", "Tanh", "Exp", "Neg", "Abs", "Erf", "Gelu", "LeakyRelu", "HardSigmoid", "HardSwish", "Reciprocal"} {
		opset := int64(17)
		if op == "Gelu" {
			opset = 20
		}
		cs = append(cs, OpCase{Name: op, Opset: opset, Op: op, Out: f32, Ins: x(3, 5), Inits: none})
	}
	cs = append(cs,
		OpCase{Name: "Gelu tanh", Opset: 20, Op: "Gelu", Out: f32, Ins: x(4, 4), Inits: none, Attrs: []ob.Attr{ob.AString("approximate", "tanh")}},
		OpCase{Name: "Clip", Opset: 13, Op: "Clip", Out: f32, Ins: x(2, 7), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ob.Scalar[float32]("lo", -0.5), ob.Scalar[float32]("hi", 0.75)}
		}},
		OpCase{Name: "Clip attrs", Opset: 7, Op: "Clip", Out: f32, Ins: x(2, 7), Inits: none, Attrs: []ob.Attr{ob.AFloat("min", -1), ob.AFloat("max", 0.5)}},
	)
	for _, op := range []string{"Add", "Sub", "Mul", "Div", "Min", "Max"} {
		cs = append(cs, OpCase{Name: op + " broadcast", Opset: 17, Op: op, Out: f32, Ins: xz([]int64{2, 1, 4}, []int64{3, 1}), Inits: none})
	}
	cs = append(cs,
		OpCase{Name: "Add const", Opset: 17, Op: "Add", Out: f32, Ins: x(4, 3), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("b", r, 3)} }},
		OpCase{Name: "Pow", Opset: 17, Op: "Pow", Out: f32, Ins: x(3, 3), Inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{ob.Scalar[float32]("e", 2)} }},
		OpCase{Name: "Max variadic", Opset: 17, Op: "Max", Out: f32, Ins: []ob.Value{In("x", f32, 2, 3), In("z", f32, 3), In("u", f32, 1, 3)}, Inits: none},
		OpCase{Name: "Equal", Opset: 17, Op: "Equal", Out: boo, Ins: xz([]int64{2, 3}, []int64{2, 3}), Inits: none},
		OpCase{Name: "Less", Opset: 17, Op: "Less", Out: boo, Ins: xz([]int64{2, 3}, []int64{3}), Inits: none},
		OpCase{Name: "GreaterOrEqual", Opset: 17, Op: "GreaterOrEqual", Out: boo, Ins: xz([]int64{4, 1}, []int64{1, 5}), Inits: none},
		OpCase{Name: "Not", Opset: 17, Op: "Not", Out: boo, Ins: []ob.Value{In("x", boo, 3, 4)}, Inits: none},
		OpCase{Name: "Where", Opset: 17, Op: "Where", Out: f32, Ins: []ob.Value{In("c", boo, 2, 1, 4), In("x", f32, 3, 4), In("z", f32, 1)}, Inits: none},
		OpCase{Name: "Cast f32 to i64", Opset: 17, Op: "Cast", Out: i64, Ins: x(2, 5), Inits: none, Attrs: []ob.Attr{ob.AInt("to", int64(i64))}},
		OpCase{Name: "Cast bool to f32", Opset: 17, Op: "Cast", Out: f32, Ins: []ob.Value{In("x", boo, 6)}, Inits: none, Attrs: []ob.Attr{ob.AInt("to", int64(f32))}},
		OpCase{Name: "Cast i64 to f32", Opset: 17, Op: "Cast", Out: f32, Ins: []ob.Value{In("x", i64, 6)}, Inits: none, Attrs: []ob.Attr{ob.AInt("to", int64(f32))}},
		OpCase{Name: "MatMul 2-D", Opset: 17, Op: "MatMul", Out: f32, Ins: xz([]int64{5, 19}, []int64{19, 33}), Inits: none},
		OpCase{Name: "MatMul batched broadcast", Opset: 17, Op: "MatMul", Out: f32, Ins: xz([]int64{2, 3, 4, 7}, []int64{3, 7, 5}), Inits: none},
		OpCase{Name: "MatMul vector", Opset: 17, Op: "MatMul", Out: f32, Ins: xz([]int64{7}, []int64{2, 7, 3}), Inits: none},
		OpCase{Name: "MatMul weights", Opset: 17, Op: "MatMul", Out: f32, Ins: x(-1, 17), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 17, 20)} }, Shapes: [][]int{{3, 17}}},
		OpCase{Name: "Gemm transB bias", Opset: 13, Op: "Gemm", Out: f32, Ins: x(4, 6), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 9, 6), W32("b", r, 9)} },
			Attrs: []ob.Attr{ob.AInt("transB", 1), ob.AFloat("alpha", 0.5), ob.AFloat("beta", 2)}},
		OpCase{Name: "Gemm transA", Opset: 13, Op: "Gemm", Out: f32, Ins: x(6, 4), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 6, 3), W32("b", r, 4, 1)} },
			Attrs: []ob.Attr{ob.AInt("transA", 1)}},
		OpCase{Name: "Softmax", Opset: 13, Op: "Softmax", Out: f32, Ins: x(2, 3, 5), Inits: none, Attrs: []ob.Attr{ob.AInt("axis", 1)}},
		OpCase{Name: "Softmax opset 11", Opset: 11, Op: "Softmax", Out: f32, Ins: x(2, 3, 5), Inits: none},
		OpCase{Name: "LogSoftmax", Opset: 13, Op: "LogSoftmax", Out: f32, Ins: x(4, 6), Inits: none},
		OpCase{Name: "LayerNormalization", Opset: 17, Op: "LayerNormalization", Out: f32, Ins: x(3, 4, 8),
			Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("s", r, 8), W32("b", r, 8)} }},
		OpCase{Name: "LayerNormalization 2 axes", Opset: 17, Op: "LayerNormalization", Out: f32, Ins: x(3, 4, 8),
			Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("s", r, 4, 8)} }, Attrs: []ob.Attr{ob.AInt("axis", 1)}},
		OpCase{Name: "ReduceMean", Opset: 13, Op: "ReduceMean", Out: f32, Ins: x(2, 3, 4), Inits: none, Attrs: []ob.Attr{ob.AInts("axes", -1)}},
		OpCase{Name: "ReduceSum axes input", Opset: 13, Op: "ReduceSum", Out: f32, Ins: x(2, 3, 4), Inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{Ints("a", 0, 2)} },
			Attrs: []ob.Attr{ob.AInt("keepdims", 0)}},
		OpCase{Name: "ReduceMax all", Opset: 13, Op: "ReduceMax", Out: f32, Ins: x(2, 3, 4), Inits: none},
		OpCase{Name: "ArgMax", Opset: 13, Op: "ArgMax", Out: i64, Ins: x(3, 5, 2), Inits: none, Attrs: []ob.Attr{ob.AInt("axis", 1)}},
		OpCase{Name: "Transpose", Opset: 13, Op: "Transpose", Out: f32, Ins: x(2, 3, 4), Inits: none, Attrs: []ob.Attr{ob.AInts("perm", 1, 2, 0)}},
		OpCase{Name: "Expand", Opset: 13, Op: "Expand", Out: f32, Ins: x(3, 1), Inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{Ints("s", 2, 3, 4)} }},
		OpCase{Name: "Slice", Opset: 13, Op: "Slice", Out: f32, Ins: x(5, 6), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{Ints("st", 1, -1), Ints("en", 4, -7), Ints("ax", 0, 1), Ints("sp", 2, -2)}
		}},
		OpCase{Name: "Concat", Opset: 13, Op: "Concat", Out: f32, Ins: xz([]int64{2, 3}, []int64{2, 5}), Inits: none, Attrs: []ob.Attr{ob.AInt("axis", 1)}},
		OpCase{Name: "Gather", Opset: 13, Op: "Gather", Out: f32, Ins: x(5, 4), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ob.TensorOf("i", []int64{2, 2}, []int64{4, 0, -1, 2})}
		}},
		OpCase{Name: "Gather indices input", Opset: 13, Op: "Gather", Out: f32, Ins: []ob.Value{In("x", f32, 3, 10, 2), In("i", i64, 6)}, Inits: none, Attrs: []ob.Attr{ob.AInt("axis", 1)}},
		OpCase{Name: "Reshape", Opset: 13, Op: "Reshape", Out: f32, Ins: x(2, 6), Inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{Ints("s", 3, -1)} }},
		OpCase{Name: "Conv", Opset: 13, Op: "Conv", Out: f32, Ins: x(2, 3, 9, 8), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 4, 3, 3, 3), W32("b", r, 4)} },
			Attrs: []ob.Attr{ob.AInts("pads", 1, 0, 1, 2), ob.AInts("strides", 2, 1)}},
		OpCase{Name: "Conv grouped dilated", Opset: 13, Op: "Conv", Out: f32, Ins: x(1, 4, 7, 7), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 6, 2, 3, 2)} },
			Attrs: []ob.Attr{ob.AInt("group", 2), ob.AInts("dilations", 2, 1)}},
		OpCase{Name: "Conv grouped bias", Opset: 13, Op: "Conv", Out: f32, Ins: x(2, 4, 6, 5), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 6, 2, 3, 3), W32("b", r, 6)} },
			Attrs: []ob.Attr{ob.AInt("group", 2), ob.AInts("pads", 1, 1, 1, 1)}},
		OpCase{Name: "Conv depthwise", Opset: 13, Op: "Conv", Out: f32, Ins: x(1, 3, 5, 5), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 3, 1, 3, 3), W32("b", r, 3)} },
			Attrs: []ob.Attr{ob.AInt("group", 3)}},
		OpCase{Name: "Conv 1-D", Opset: 13, Op: "Conv", Out: f32, Ins: x(2, 3, 11), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 5, 3, 3)} },
			Attrs: []ob.Attr{ob.AInts("pads", 1, 1)}},
		OpCase{Name: "ConvTranspose", Opset: 13, Op: "ConvTranspose", Out: f32, Ins: x(2, 3, 4, 5), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 3, 2, 3, 3), W32("b", r, 2)} },
			Attrs: []ob.Attr{ob.AInts("strides", 2, 1), ob.AInts("pads", 1, 0, 0, 1), ob.AInts("output_padding", 1, 0)}},
		OpCase{Name: "ConvTranspose grouped dilated", Opset: 13, Op: "ConvTranspose", Out: f32, Ins: x(1, 4, 3, 3), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 4, 3, 2, 2)} },
			Attrs: []ob.Attr{ob.AInt("group", 2), ob.AInts("dilations", 2, 1), ob.AInts("strides", 2, 2)}},
		OpCase{Name: "ConvTranspose 1-D SAME_UPPER", Opset: 13, Op: "ConvTranspose", Out: f32, Ins: x(1, 3, 7), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 3, 2, 3), W32("b", r, 2)} },
			Attrs: []ob.Attr{ob.AString("auto_pad", "SAME_UPPER"), ob.AInts("strides", 2), ob.AInts("dilations", 2)}},
		OpCase{Name: "ConvTranspose output_shape", Opset: 13, Op: "ConvTranspose", Out: f32, Ins: x(1, 3, 4, 4), Inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{W32("w", r, 3, 2, 3, 3)} },
			Attrs: []ob.Attr{ob.AInts("strides", 2, 2), ob.AInts("output_shape", 1, 2, 9, 10), ob.AString("auto_pad", "SAME_LOWER")}},
		OpCase{Name: "MaxPool", Opset: 13, Op: "MaxPool", Out: f32, Ins: x(1, 2, 7, 6), Inits: none,
			Attrs: []ob.Attr{ob.AInts("kernel_shape", 3, 2), ob.AInts("strides", 2, 2), ob.AInts("pads", 1, 0, 1, 1), ob.AInt("ceil_mode", 1)}},
		OpCase{Name: "AveragePool include pad", Opset: 13, Op: "AveragePool", Out: f32, Ins: x(1, 2, 6, 6), Inits: none,
			Attrs: []ob.Attr{ob.AInts("kernel_shape", 3, 3), ob.AInts("strides", 2, 2), ob.AInts("pads", 1, 1, 1, 1), ob.AInt("count_include_pad", 1)}},
		OpCase{Name: "AveragePool", Opset: 13, Op: "AveragePool", Out: f32, Ins: x(2, 3, 5, 5), Inits: none,
			Attrs: []ob.Attr{ob.AInts("kernel_shape", 2, 2), ob.AInts("pads", 1, 1, 0, 0)}},
		OpCase{Name: "GlobalAveragePool", Opset: 13, Op: "GlobalAveragePool", Out: f32, Ins: x(2, 3, 4, 5), Inits: none},
		OpCase{Name: "GlobalMaxPool", Opset: 13, Op: "GlobalMaxPool", Out: f32, Ins: x(2, 3, 4, 5), Inits: none},
		OpCase{Name: "Resize nearest scales", Opset: 13, Op: "Resize", Out: f32, Ins: x(1, 2, 3, 4), Inits: resizeInits([]float32{1, 1, 2, 1.5}, nil)},
		OpCase{Name: "Resize nearest asymmetric floor", Opset: 13, Op: "Resize", Out: f32, Ins: x(2, 5, 7), Inits: resizeInits([]float32{1, 0.6, 1.7}, nil),
			Attrs: []ob.Attr{ob.AString("coordinate_transformation_mode", "asymmetric"), ob.AString("nearest_mode", "floor")}},
		OpCase{Name: "Resize linear half_pixel", Opset: 13, Op: "Resize", Out: f32, Ins: x(1, 2, 5, 6), Inits: resizeInits([]float32{1, 1, 1.5, 0.75}, nil),
			Attrs: []ob.Attr{ob.AString("mode", "linear")}},
		OpCase{Name: "Resize linear sizes align_corners", Opset: 13, Op: "Resize", Out: f32, Ins: x(1, 3, 4, 4), Inits: resizeInits(nil, []int64{1, 3, 7, 3}),
			Attrs: []ob.Attr{ob.AString("mode", "linear"), ob.AString("coordinate_transformation_mode", "align_corners")}},
		OpCase{Name: "Resize linear pytorch_half_pixel", Opset: 13, Op: "Resize", Out: f32, Ins: x(1, 1, 6, 5), Inits: resizeInits([]float32{1, 1, 0.5, 2}, nil),
			Attrs: []ob.Attr{ob.AString("mode", "linear"), ob.AString("coordinate_transformation_mode", "pytorch_half_pixel")}},
		OpCase{Name: "Resize tf_crop_and_resize", Opset: 13, Op: "Resize", Out: f32, Ins: x(1, 1, 5, 5), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ob.TensorOf("roi", []int64{8}, []float32{0, 0, -0.2, 0.1, 1, 1, 0.9, 1.3}), ob.TensorOf("scales", []int64{0}, []float32{}), Ints("sizes", 1, 1, 6, 4)}
		}, Attrs: []ob.Attr{ob.AString("mode", "linear"), ob.AString("coordinate_transformation_mode", "tf_crop_and_resize"), ob.AFloat("extrapolation_value", 3)}},
		OpCase{Name: "Resize opset 10", Opset: 10, Op: "Resize", Out: f32, Ins: x(1, 2, 3, 3), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ob.TensorOf("scales", []int64{4}, []float32{1, 1, 2, 2})}
		}},
		OpCase{Name: "Pad constant", Opset: 13, Op: "Pad", Out: f32, Ins: x(2, 3, 4), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{Ints("p", 0, 1, 2, 1, -1, 0), ob.Scalar[float32]("v", 1.5)}
		}},
		OpCase{Name: "Pad reflect", Opset: 13, Op: "Pad", Out: f32, Ins: x(1, 3, 5), Inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{Ints("p", 0, 2, 4, 0, 1, 3)} },
			Attrs: []ob.Attr{ob.AString("mode", "reflect")}},
		OpCase{Name: "Pad edge", Opset: 13, Op: "Pad", Out: f32, Ins: x(3, 4), Inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{Ints("p", 2, 0, 1, 3)} },
			Attrs: []ob.Attr{ob.AString("mode", "edge")}},
		OpCase{Name: "Pad wrap axes", Opset: 19, Op: "Pad", Out: f32, Ins: x(2, 3, 4), Inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{Ints("p", 1, 5, 2, 1), ob.Scalar[float32]("v", 0), Ints("a", 2, 0)}
		}, Attrs: []ob.Attr{ob.AString("mode", "wrap")}},
		OpCase{Name: "Pad opset 10", Opset: 10, Op: "Pad", Out: f32, Ins: x(2, 3), Inits: func(*rand.Rand) []ob.Tensor { return nil },
			Attrs: []ob.Attr{ob.AInts("pads", 1, 0, 0, 2), ob.AFloat("value", -1)}},
		OpCase{Name: "BatchNormalization", Opset: 15, Op: "BatchNormalization", Out: f32, Ins: x(2, 3, 4), Inits: func(r *rand.Rand) []ob.Tensor {
			return []ob.Tensor{W32("s", r, 3), W32("b", r, 3), W32("m", r, 3), ob.TensorOf("v", []int64{3}, []float32{0.5, 1, 2})}
		}},
	)
	return cs
}

// RunOpCases runs every case of OpCases with cfg and on the CPU backend
// with the same random inputs, twice per loaded model, and compares the
// outputs: floats to a relative L2 error of tol.
func RunOpCases(t *testing.T, cfg *gpu.Config, tol float64) {
	t.Helper()
	for _, tc := range OpCases() {
		t.Run(tc.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(tc.Name))))
			b := OneOp(tc.Opset, tc.Op, tc.Out, tc.Ins, tc.Inits(r), tc.Attrs...)
			gm := LoadOn(t, b, cfg)
			cm := LoadCPU(t, b)
			for round := range 2 {
				var inp multi
				for k, v := range tc.Ins {
					shape := make([]int, len(v.Shape))
					for j, d := range v.Shape {
						shape[j] = int(d)
					}
					if tc.Shapes != nil {
						shape = tc.Shapes[k]
					}
					inp.Tensors = append(inp.Tensors, RandInput(r, v.Name, v.DType, shape, -3, 10))
				}
				var got, want multi
				if err := cm.InferOne(&inp, &want); err != nil {
					t.Fatal(err)
				}
				if err := gm.InferOne(&inp, &got); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				CompareOutputs(t, got, want, tol)
			}
		})
	}
}

// resizeInits returns Resize-13's roi (empty), scales and sizes
// initializers; an absent one is empty.
func resizeInits(scales []float32, sizes []int64) func(*rand.Rand) []ob.Tensor {
	return func(*rand.Rand) []ob.Tensor {
		ts := []ob.Tensor{ob.TensorOf("roi", []int64{0}, []float32{}), ob.TensorOf("scales", []int64{int64(len(scales))}, append([]float32{}, scales...))}
		if sizes != nil {
			ts = append(ts, Ints("sizes", sizes...))
		}
		return ts
	}
}
