package metal

import (
	"math/rand/v2"
	"testing"

	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

const (
	f32 = payload.Float32
	i64 = payload.Int64
	boo = payload.Bool
)

func in(name string, dt payload.DType, shape ...int64) ob.Value { return ob.Input(name, dt, shape...) }

func w32(name string, r *rand.Rand, shape ...int64) ob.Tensor {
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

func ints(name string, v ...int64) ob.Tensor { return ob.TensorOf(name, []int64{int64(len(v))}, v) }

// opCase is one single-op model, run on the fake device and on the CPU
// backend with the same random inputs.
type opCase struct {
	name   string
	opset  int64
	op     string
	out    payload.DType
	ins    []ob.Value
	inits  func(r *rand.Rand) []ob.Tensor
	attrs  []ob.Attr
	shapes [][]int // concrete input shapes; nil means the declared ones
}

func opCases() []opCase {
	none := func(*rand.Rand) []ob.Tensor { return nil }
	x := func(shape ...int64) []ob.Value { return []ob.Value{in("x", f32, shape...)} }
	xz := func(a, b []int64) []ob.Value { return []ob.Value{in("x", f32, a...), in("z", f32, b...)} }
	var cs []opCase
	for _, op := range []string{"Relu", "Sigmoid", "Tanh", "Exp", "Neg", "Abs", "Erf", "Gelu", "LeakyRelu", "HardSigmoid", "HardSwish", "Reciprocal"} {
		opset := int64(17)
		if op == "Gelu" {
			opset = 20
		}
		cs = append(cs, opCase{name: op, opset: opset, op: op, out: f32, ins: x(3, 5), inits: none})
	}
	cs = append(cs,
		opCase{name: "Gelu tanh", opset: 20, op: "Gelu", out: f32, ins: x(4, 4), inits: none, attrs: []ob.Attr{ob.AString("approximate", "tanh")}},
		opCase{name: "Clip", opset: 13, op: "Clip", out: f32, ins: x(2, 7), inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ob.Scalar[float32]("lo", -0.5), ob.Scalar[float32]("hi", 0.75)}
		}},
		opCase{name: "Clip attrs", opset: 7, op: "Clip", out: f32, ins: x(2, 7), inits: none, attrs: []ob.Attr{ob.AFloat("min", -1), ob.AFloat("max", 0.5)}},
	)
	for _, op := range []string{"Add", "Sub", "Mul", "Div", "Min", "Max"} {
		cs = append(cs, opCase{name: op + " broadcast", opset: 17, op: op, out: f32, ins: xz([]int64{2, 1, 4}, []int64{3, 1}), inits: none})
	}
	cs = append(cs,
		opCase{name: "Add const", opset: 17, op: "Add", out: f32, ins: x(4, 3), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("b", r, 3)} }},
		opCase{name: "Pow", opset: 17, op: "Pow", out: f32, ins: x(3, 3), inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{ob.Scalar[float32]("e", 2)} }},
		opCase{name: "Max variadic", opset: 17, op: "Max", out: f32, ins: []ob.Value{in("x", f32, 2, 3), in("z", f32, 3), in("u", f32, 1, 3)}, inits: none},
		opCase{name: "Equal", opset: 17, op: "Equal", out: boo, ins: xz([]int64{2, 3}, []int64{2, 3}), inits: none},
		opCase{name: "Less", opset: 17, op: "Less", out: boo, ins: xz([]int64{2, 3}, []int64{3}), inits: none},
		opCase{name: "GreaterOrEqual", opset: 17, op: "GreaterOrEqual", out: boo, ins: xz([]int64{4, 1}, []int64{1, 5}), inits: none},
		opCase{name: "Not", opset: 17, op: "Not", out: boo, ins: []ob.Value{in("x", boo, 3, 4)}, inits: none},
		opCase{name: "Where", opset: 17, op: "Where", out: f32, ins: []ob.Value{in("c", boo, 2, 1, 4), in("x", f32, 3, 4), in("z", f32, 1)}, inits: none},
		opCase{name: "Cast f32 to i64", opset: 17, op: "Cast", out: i64, ins: x(2, 5), inits: none, attrs: []ob.Attr{ob.AInt("to", int64(i64))}},
		opCase{name: "Cast bool to f32", opset: 17, op: "Cast", out: f32, ins: []ob.Value{in("x", boo, 6)}, inits: none, attrs: []ob.Attr{ob.AInt("to", int64(f32))}},
		opCase{name: "Cast i64 to f32", opset: 17, op: "Cast", out: f32, ins: []ob.Value{in("x", i64, 6)}, inits: none, attrs: []ob.Attr{ob.AInt("to", int64(f32))}},
		opCase{name: "MatMul 2-D", opset: 17, op: "MatMul", out: f32, ins: xz([]int64{5, 19}, []int64{19, 33}), inits: none},
		opCase{name: "MatMul batched broadcast", opset: 17, op: "MatMul", out: f32, ins: xz([]int64{2, 3, 4, 7}, []int64{3, 7, 5}), inits: none},
		opCase{name: "MatMul vector", opset: 17, op: "MatMul", out: f32, ins: xz([]int64{7}, []int64{2, 7, 3}), inits: none},
		opCase{name: "MatMul weights", opset: 17, op: "MatMul", out: f32, ins: x(-1, 17), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("w", r, 17, 20)} }, shapes: [][]int{{3, 17}}},
		opCase{name: "Gemm transB bias", opset: 13, op: "Gemm", out: f32, ins: x(4, 6), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("w", r, 9, 6), w32("b", r, 9)} },
			attrs: []ob.Attr{ob.AInt("transB", 1), ob.AFloat("alpha", 0.5), ob.AFloat("beta", 2)}},
		opCase{name: "Gemm transA", opset: 13, op: "Gemm", out: f32, ins: x(6, 4), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("w", r, 6, 3), w32("b", r, 4, 1)} },
			attrs: []ob.Attr{ob.AInt("transA", 1)}},
		opCase{name: "Softmax", opset: 13, op: "Softmax", out: f32, ins: x(2, 3, 5), inits: none, attrs: []ob.Attr{ob.AInt("axis", 1)}},
		opCase{name: "Softmax opset 11", opset: 11, op: "Softmax", out: f32, ins: x(2, 3, 5), inits: none},
		opCase{name: "LogSoftmax", opset: 13, op: "LogSoftmax", out: f32, ins: x(4, 6), inits: none},
		opCase{name: "LayerNormalization", opset: 17, op: "LayerNormalization", out: f32, ins: x(3, 4, 8),
			inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("s", r, 8), w32("b", r, 8)} }},
		opCase{name: "LayerNormalization 2 axes", opset: 17, op: "LayerNormalization", out: f32, ins: x(3, 4, 8),
			inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("s", r, 4, 8)} }, attrs: []ob.Attr{ob.AInt("axis", 1)}},
		opCase{name: "ReduceMean", opset: 13, op: "ReduceMean", out: f32, ins: x(2, 3, 4), inits: none, attrs: []ob.Attr{ob.AInts("axes", -1)}},
		opCase{name: "ReduceSum axes input", opset: 13, op: "ReduceSum", out: f32, ins: x(2, 3, 4), inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{ints("a", 0, 2)} },
			attrs: []ob.Attr{ob.AInt("keepdims", 0)}},
		opCase{name: "ReduceMax all", opset: 13, op: "ReduceMax", out: f32, ins: x(2, 3, 4), inits: none},
		opCase{name: "ArgMax", opset: 13, op: "ArgMax", out: i64, ins: x(3, 5, 2), inits: none, attrs: []ob.Attr{ob.AInt("axis", 1)}},
		opCase{name: "Transpose", opset: 13, op: "Transpose", out: f32, ins: x(2, 3, 4), inits: none, attrs: []ob.Attr{ob.AInts("perm", 1, 2, 0)}},
		opCase{name: "Expand", opset: 13, op: "Expand", out: f32, ins: x(3, 1), inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{ints("s", 2, 3, 4)} }},
		opCase{name: "Slice", opset: 13, op: "Slice", out: f32, ins: x(5, 6), inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ints("st", 1, -1), ints("en", 4, -7), ints("ax", 0, 1), ints("sp", 2, -2)}
		}},
		opCase{name: "Concat", opset: 13, op: "Concat", out: f32, ins: xz([]int64{2, 3}, []int64{2, 5}), inits: none, attrs: []ob.Attr{ob.AInt("axis", 1)}},
		opCase{name: "Gather", opset: 13, op: "Gather", out: f32, ins: x(5, 4), inits: func(*rand.Rand) []ob.Tensor {
			return []ob.Tensor{ob.TensorOf("i", []int64{2, 2}, []int64{4, 0, -1, 2})}
		}},
		opCase{name: "Gather indices input", opset: 13, op: "Gather", out: f32, ins: []ob.Value{in("x", f32, 3, 10, 2), in("i", i64, 6)}, inits: none, attrs: []ob.Attr{ob.AInt("axis", 1)}},
		opCase{name: "Reshape", opset: 13, op: "Reshape", out: f32, ins: x(2, 6), inits: func(*rand.Rand) []ob.Tensor { return []ob.Tensor{ints("s", 3, -1)} }},
		opCase{name: "Conv", opset: 13, op: "Conv", out: f32, ins: x(2, 3, 9, 8), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("w", r, 4, 3, 3, 3), w32("b", r, 4)} },
			attrs: []ob.Attr{ob.AInts("pads", 1, 0, 1, 2), ob.AInts("strides", 2, 1)}},
		opCase{name: "Conv grouped dilated", opset: 13, op: "Conv", out: f32, ins: x(1, 4, 7, 7), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("w", r, 6, 2, 3, 2)} },
			attrs: []ob.Attr{ob.AInt("group", 2), ob.AInts("dilations", 2, 1)}},
		opCase{name: "Conv 1-D", opset: 13, op: "Conv", out: f32, ins: x(2, 3, 11), inits: func(r *rand.Rand) []ob.Tensor { return []ob.Tensor{w32("w", r, 5, 3, 3)} },
			attrs: []ob.Attr{ob.AInts("pads", 1, 1)}},
		opCase{name: "MaxPool", opset: 13, op: "MaxPool", out: f32, ins: x(1, 2, 7, 6), inits: none,
			attrs: []ob.Attr{ob.AInts("kernel_shape", 3, 2), ob.AInts("strides", 2, 2), ob.AInts("pads", 1, 0, 1, 1), ob.AInt("ceil_mode", 1)}},
		opCase{name: "AveragePool include pad", opset: 13, op: "AveragePool", out: f32, ins: x(1, 2, 6, 6), inits: none,
			attrs: []ob.Attr{ob.AInts("kernel_shape", 3, 3), ob.AInts("strides", 2, 2), ob.AInts("pads", 1, 1, 1, 1), ob.AInt("count_include_pad", 1)}},
		opCase{name: "AveragePool", opset: 13, op: "AveragePool", out: f32, ins: x(2, 3, 5, 5), inits: none,
			attrs: []ob.Attr{ob.AInts("kernel_shape", 2, 2), ob.AInts("pads", 1, 1, 0, 0)}},
		opCase{name: "GlobalAveragePool", opset: 13, op: "GlobalAveragePool", out: f32, ins: x(2, 3, 4, 5), inits: none},
		opCase{name: "GlobalMaxPool", opset: 13, op: "GlobalMaxPool", out: f32, ins: x(2, 3, 4, 5), inits: none},
		opCase{name: "BatchNormalization", opset: 15, op: "BatchNormalization", out: f32, ins: x(2, 3, 4), inits: func(r *rand.Rand) []ob.Tensor {
			return []ob.Tensor{w32("s", r, 3), w32("b", r, 3), w32("m", r, 3), ob.TensorOf("v", []int64{3}, []float32{0.5, 1, 2})}
		}},
	)
	return cs
}

// TestOpsMatchCPU runs every single-op case on the fake device and on the
// CPU backend with the same random inputs, twice per loaded model.
func TestOpsMatchCPU(t *testing.T) {
	runOpCases(t, func() (device, error) { return newFake(), nil }, 1e-5)
}

// TestOpsMatchCPUOnDevice runs the same cases on the Metal device, where
// the build has the driver and the machine a GPU: go test -tags metal on
// a Mac. Elsewhere it skips.
func TestOpsMatchCPUOnDevice(t *testing.T) {
	dev, err := openDevice()
	if err != nil {
		t.Skipf("no Metal device: %v", err)
	}
	t.Logf("device: %s", dev.name())
	dev.close()
	runOpCases(t, openDevice, 1e-4)
}

func runOpCases(t *testing.T, open func() (device, error), tol float64) {
	for _, tc := range opCases() {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			b := oneOp(tc.opset, tc.op, tc.out, tc.ins, tc.inits(r), tc.attrs...)
			gm := loadOn(t, b, open)
			cm := loadCPU(t, b)
			for round := range 2 {
				var inp multi
				for k, v := range tc.ins {
					shape := make([]int, len(v.Shape))
					for j, d := range v.Shape {
						shape[j] = int(d)
					}
					if tc.shapes != nil {
						shape = tc.shapes[k]
					}
					inp.Tensors = append(inp.Tensors, randInput(r, v.Name, v.DType, shape, -3, 10))
				}
				var got, want multi
				if err := cm.InferOne(&inp, &want); err != nil {
					t.Fatal(err)
				}
				if err := gm.InferOne(&inp, &got); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				compareOutputs(t, got, want, tol)
			}
		})
	}
}
