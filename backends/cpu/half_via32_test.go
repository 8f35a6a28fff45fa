package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// f16s and bf16s return vs rounded to float16 and bfloat16.
func f16s(vs ...float32) []float16.Float16 {
	out := make([]float16.Float16, len(vs))
	for i, v := range vs {
		out[i] = float16.Fromfloat32(v)
	}
	return out
}

func bf16s(vs ...float32) []payload.BFloat16 {
	out := make([]payload.BFloat16, len(vs))
	for i, v := range vs {
		out[i] = payload.BFloat16From(v)
	}
	return out
}

// halfValues returns a float16 or bfloat16 tensor's values as float32.
func halfValues(t *tensor) []float32 {
	k := halfOf(t.dt)
	h := elems[uint16](t)[:t.numel()]
	out := make([]float32, len(h))
	k.widenGo(out, h)
	return out
}

// widenTensor returns a float32 copy of a half tensor, other tensors as
// they are.
func widenTensor(t *tensor) *tensor {
	if t == nil || halfOf(t.dt) == halfNone {
		return t
	}
	return mk(t.shape, halfValues(t))
}

func TestVia32Values(t *testing.T) {
	f16, bf16 := payload.Float16, payload.BF16
	for _, c := range []struct {
		name  string
		c     nodeCase
		ins   []*tensor
		wantT payload.DType
		want  []float32
	}{
		{"Mul float16", nodeCase{node: node("Mul", []string{"a", "b"}), outTypes: []payload.DType{f16}},
			[]*tensor{mk([]int{3}, f16s(1.5, -2, 0.1)), mk([]int{1}, f16s(3))}, f16, []float32{4.5, -6, 0.2999}},
		{"Div bfloat16", nodeCase{node: node("Div", []string{"a", "b"}), outTypes: []payload.DType{bf16}},
			[]*tensor{mk([]int{2}, bf16s(1, 10)), mk([]int{2}, bf16s(3, 4))}, bf16, []float32{0.333984375, 2.5}},
		{"Mod fmod float16", nodeCase{node: node("Mod", []string{"a", "b"}, aInt("fmod", 1)), outTypes: []payload.DType{f16}},
			[]*tensor{mk([]int{2}, f16s(-4.5, 7)), mk([]int{2}, f16s(2, -3))}, f16, []float32{-0.5, 1}},
		{"Pow float32 ^ float16", nodeCase{node: node("Pow", []string{"a", "b"})},
			[]*tensor{mk([]int{2}, []float32{2, 9}), mk([]int{2}, f16s(3, 0.5))}, payload.Float32, []float32{8, 3}},
		{"Max float16", nodeCase{node: node("Max", []string{"a", "b", "c"}), outTypes: []payload.DType{f16}},
			[]*tensor{mk([]int{2}, f16s(1, 5)), mk([]int{1}, f16s(3)), mk([]int{2}, f16s(-1, 4))}, f16, []float32{3, 5}},
		{"Celu bfloat16", nodeCase{node: node("Celu", []string{"x"}, aFloat("alpha", 2)), opset: 12, outTypes: []payload.DType{bf16}},
			[]*tensor{mk([]int{2}, bf16s(-1, 3))}, bf16, []float32{-0.78515625, 3}},
		{"Clip float16", nodeCase{node: node("Clip", []string{"x", "lo", "hi"}), opset: 13, outTypes: []payload.DType{f16}},
			[]*tensor{mk([]int{3}, f16s(-5, 0.5, 5)), mk([]int{}, f16s(-1)), mk([]int{}, f16s(1))}, f16, []float32{-1, 0.5, 1}},
		{"ReduceSum float16", nodeCase{node: node("ReduceSum", []string{"x"}, aInt("keepdims", 0)), opset: 11, outTypes: []payload.DType{f16}},
			[]*tensor{mk([]int{2, 2}, f16s(1, 2, 3, 4))}, f16, []float32{10}},
		{"Softmax bfloat16", nodeCase{node: node("Softmax", []string{"x"}), opset: 13, outTypes: []payload.DType{bf16}},
			[]*tensor{mk([]int{2}, bf16s(0, 0))}, bf16, []float32{0.5, 0.5}},
		{"MatMul float16 const B", nodeCase{node: node("MatMul", []string{"a", "b"}), outTypes: []payload.DType{f16}, consts: []int{1}},
			[]*tensor{mk([]int{1, 2}, f16s(1, 2)), mk([]int{2, 2}, f16s(1, 2, 3, 4))}, f16, []float32{7, 10}},
		{"Conv float16", nodeCase{node: node("Conv", []string{"x", "w"}), outTypes: []payload.DType{f16}, consts: []int{1}},
			[]*tensor{mk([]int{1, 1, 2, 2}, f16s(1, 2, 3, 4)), mk([]int{1, 1, 2, 2}, f16s(1, 1, 1, 0.5))}, f16, []float32{8}},
		{"Range float16", nodeCase{node: node("Range", []string{"s", "l", "d"}), opset: 11, outTypes: []payload.DType{f16}},
			[]*tensor{mk([]int{}, f16s(1)), mk([]int{}, f16s(2.5)), mk([]int{}, f16s(0.5))}, f16, []float32{1, 1.5, 2}},
	} {
		outs, err := runNode(t, c.c, c.ins...)
		if err != nil {
			t.Errorf("%s: runNode: %v", c.name, err)
			continue
		}
		y := outs[0]
		if y.dt != c.wantT {
			t.Errorf("%s: output type %s, want %s", c.name, y.dt, c.wantT)
			continue
		}
		got := y.f32()
		if c.wantT != payload.Float32 {
			got = halfValues(y)
		}
		if d := cmp.Diff(c.want, got, cmp.Comparer(func(a, b float32) bool { return math.Abs(float64(a-b)) <= 1e-3*math.Abs(float64(b)) })); d != "" {
			t.Errorf("%s: (-want +got)\n%s", c.name, d)
		}
	}
}

// TestVia32MatchesFloat32 checks that a half node gives exactly its float32
// kernel's result on the widened inputs, rounded to the half type.
func TestVia32MatchesFloat32(t *testing.T) {
	seq := func(n int, f func(i int) float32) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = f(i)
		}
		return v
	}
	x := seq(24, func(i int) float32 { return float32(i%7)*0.37 - 1.1 })
	y := seq(24, func(i int) float32 { return float32(i%5)*0.61 + 0.25 })
	for _, hk := range []halfKind{halfF16, halfBF16} {
		dt := payload.Float16
		half := func(s []int, v []float32) *tensor { return mk(s, f16s(v...)) }
		if hk == halfBF16 {
			dt = payload.BF16
			half = func(s []int, v []float32) *tensor { return mk(s, bf16s(v...)) }
		}
		s := []int{2, 3, 4}
		for _, c := range []struct {
			name string
			n    *model.Node
			ins  []*tensor
			out  payload.DType
		}{
			{"Add", node("Add", []string{"a", "b"}), []*tensor{half(s, x), half([]int{4}, y[:4])}, dt},
			{"Sub", node("Sub", []string{"a", "b"}), []*tensor{half(s, x), half(s, y)}, dt},
			{"Div", node("Div", []string{"a", "b"}), []*tensor{half(s, x), half(s, y)}, dt},
			{"Pow", node("Pow", []string{"a", "b"}), []*tensor{half(s, y), half(s, x)}, dt},
			{"Sqrt", node("Sqrt", []string{"a"}), []*tensor{half(s, y)}, dt},
			{"Exp", node("Exp", []string{"a"}), []*tensor{half(s, x)}, dt},
			{"Tanh", node("Tanh", []string{"a"}), []*tensor{half(s, x)}, dt},
			{"Relu", node("Relu", []string{"a"}), []*tensor{half(s, x)}, dt},
			{"Less", node("Less", []string{"a", "b"}), []*tensor{half(s, x), half(s, y)}, payload.Bool},
			{"IsNaN", node("IsNaN", []string{"a"}), []*tensor{half(s, x)}, payload.Bool},
			{"ArgMax", node("ArgMax", []string{"a"}, aInt("axis", 1)), []*tensor{half(s, x)}, payload.Int64},
			{"ReduceMean", node("ReduceMean", []string{"a"}, aInts("axes", 0, 2)), []*tensor{half(s, x)}, dt},
			{"ReduceLogSumExp", node("ReduceLogSumExp", []string{"a"}), []*tensor{half(s, x)}, dt},
			{"LogSoftmax", node("LogSoftmax", []string{"a"}), []*tensor{half(s, x)}, dt},
			{"MatMul", node("MatMul", []string{"a", "b"}), []*tensor{half([]int{2, 3, 4}, x), half([]int{4, 6}, y)}, dt},
			{"Gemm", node("Gemm", []string{"a", "b", "c"}, aInt("transB", 1)), []*tensor{half([]int{6, 4}, x), half([]int{6, 4}, y), half([]int{6}, x[:6])}, dt},
			{"AveragePool", node("AveragePool", []string{"a"}, aInts("kernel_shape", 2, 2)), []*tensor{half([]int{1, 2, 3, 4}, x)}, dt},
			{"MaxPool", node("MaxPool", []string{"a"}, aInts("kernel_shape", 2, 2)), []*tensor{half([]int{1, 2, 3, 4}, x)}, dt},
			{"GlobalAveragePool", node("GlobalAveragePool", []string{"a"}), []*tensor{half([]int{1, 2, 3, 4}, x)}, dt},
			{"ConvTranspose", node("ConvTranspose", []string{"a", "w"}), []*tensor{half([]int{1, 2, 3, 4}, x), half([]int{2, 1, 2, 2}, y[:8])}, dt},
			{"InstanceNormalization", node("InstanceNormalization", []string{"a", "s", "b"}), []*tensor{half([]int{1, 2, 3, 4}, x), half([]int{2}, y[:2]), half([]int{2}, x[:2])}, dt},
			{"BatchNormalization", node("BatchNormalization", []string{"a", "s", "b", "m", "v"}),
				[]*tensor{half([]int{1, 2, 3, 4}, x), half([]int{2}, y[:2]), half([]int{2}, x[:2]), half([]int{2}, x[2:4]), half([]int{2}, y[2:4])}, dt},
			{"Resize linear", node("Resize", []string{"a", "", "sc"}, aString("mode", "linear")),
				[]*tensor{half([]int{1, 2, 3, 4}, x), nil, mk([]int{4}, []float32{1, 1, 2, 2})}, dt},
		} {
			name := c.name + " " + dt.String()
			outs, err := runNode(t, nodeCase{node: c.n, opset: 17, outTypes: []payload.DType{c.out}}, c.ins...)
			if err != nil {
				t.Errorf("%s: runNode: %v", name, err)
				continue
			}
			ins32 := make([]*tensor, len(c.ins))
			for i, in := range c.ins {
				ins32[i] = widenTensor(in)
			}
			out32 := c.out
			if out32 == dt {
				out32 = payload.Float32
			}
			ref, err := runNode(t, nodeCase{node: c.n, opset: 17, outTypes: []payload.DType{out32}}, ins32...)
			if err != nil {
				t.Fatalf("%s float32: runNode: %v", name, err)
			}
			want := ref[0].data
			if out32 != c.out {
				h := make([]uint16, ref[0].numel())
				hk.narrowSlice(h, ref[0].f32())
				want = payload.AsBytes(h)
			}
			if !cmp.Equal(outs[0].shape, ref[0].shape) || !cmp.Equal(outs[0].data, want) {
				t.Errorf("%s: got shape %v data %v, want shape %v data %v (the float32 kernel's, rounded)", name, outs[0].shape, outs[0].data, ref[0].shape, want)
			}
		}
	}
}

func TestVia32Refusals(t *testing.T) {
	for _, c := range []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"Add float16 and float32", nodeCase{node: node("Add", []string{"a", "b"}), outTypes: []payload.DType{payload.Float16}},
			[]*tensor{mk([]int{1}, f16s(1)), mk([]int{1}, []float32{1})}, errs.InvalidArtifact},
		{"Mul float16 and bfloat16", nodeCase{node: node("Mul", []string{"a", "b"}), outTypes: []payload.DType{payload.Float16}},
			[]*tensor{mk([]int{1}, f16s(1)), mk([]int{1}, bf16s(1))}, errs.InvalidArtifact},
		{"Mod float16 fmod 0", nodeCase{node: node("Mod", []string{"a", "b"}), outTypes: []payload.DType{payload.Float16}},
			[]*tensor{mk([]int{1}, f16s(1)), mk([]int{1}, f16s(1))}, errs.InvalidArtifact},
		{"Pow int32 ^ float16 into float16", nodeCase{node: node("Pow", []string{"a", "b"}), outTypes: []payload.DType{payload.Float16}},
			[]*tensor{mk([]int{1}, []int32{2}), mk([]int{1}, f16s(1))}, errs.InvalidArtifact},
	} {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got error %v, want %v", c.name, err, c.want)
		}
	}
}

func TestVia32NoAllocs(t *testing.T) {
	for _, c := range []struct {
		name string
		n    *model.Node
		ins  []*tensor
	}{
		{"Mul", node("Mul", []string{"a", "b"}), []*tensor{mk([]int{4, 16}, f16s(make([]float32, 64)...)), mk([]int{16}, f16s(make([]float32, 16)...))}},
		{"MaxPool", node("MaxPool", []string{"a"}, aInts("kernel_shape", 2, 2)), []*tensor{mk([]int{1, 2, 4, 4}, bf16s(make([]float32, 32)...))}},
	} {
		g := model.NewGraph()
		g.Opset = 17
		bc := &buildCtx{g: g, n: c.n, opset: 17}
		for i, in := range c.ins {
			bc.in = append(bc.in, model.ValueInfo{Name: c.n.Input(i), DType: in.dt, Shape: in.shape, RankKnown: true})
		}
		bc.out = []model.ValueInfo{{Name: "y", DType: c.ins[0].dt}}
		k, err := buildKernel(bc)
		if err != nil {
			t.Fatalf("%s: buildKernel: %v", c.name, err)
		}
		sh := newOutShaper(bc, k)
		outs := []*tensor{{dt: c.ins[0].dt}}
		step := func() {
			if err := sh.shapes(c.ins, outs); err != nil {
				t.Fatalf("%s: shapes: %v", c.name, err)
			}
			growData(outs[0], outs[0].numel()*2)
			if err := k.run(c.ins, outs); err != nil {
				t.Fatalf("%s: run: %v", c.name, err)
			}
		}
		step()
		if got := testing.AllocsPerRun(20, step); got != 0 {
			t.Errorf("%s: %v allocations per run, want 0", c.name, got)
		}
	}
}

func TestNarrowSlice(t *testing.T) {
	src := []float32{0, -0, 1, 1.0009765625, 1.00048828125, 65504, 65520, 1e-8, 6e-8, float32(math.Inf(-1)), 3.14159, -2.71828, 0.1, 1e5, 5.9604645e-08, 1.5}
	for _, hk := range []halfKind{halfF16, halfBF16} {
		got := make([]uint16, len(src))
		hk.narrowSlice(got, src)
		for i, v := range src {
			if want := hk.narrow(v); got[i] != want {
				t.Errorf("%s narrowSlice(%v) = %#x, want %#x", hk, v, got[i], want)
			}
		}
	}
	got := make([]uint16, 9)
	halfF16.narrowSlice(got, []float32{float32(math.NaN()), 1, 1, 1, 1, 1, 1, 1, float32(math.NaN())})
	for _, i := range []int{0, 8} {
		if !float16.Frombits(got[i]).IsNaN() {
			t.Errorf("float16 narrowSlice(NaN)[%d] = %#x, want a NaN", i, got[i])
		}
	}
}

// TestVia32Float32Direct checks that float32 nodes get their kernel
// itself, not a wrapper.
func TestVia32Float32Direct(t *testing.T) {
	for _, op := range []string{"Mul", "Max", "Less", "Pow"} {
		g := model.NewGraph()
		n := node(op, []string{"a", "b"})
		bc := &buildCtx{g: g, n: n, opset: 17,
			in:  []model.ValueInfo{{Name: "a", DType: payload.Float32}, {Name: "b", DType: payload.Float32}},
			out: []model.ValueInfo{{Name: "y", DType: payload.Float32}}}
		if op == "Less" {
			bc.out[0].DType = payload.Bool
		}
		k, err := buildKernel(bc)
		if err != nil {
			t.Fatalf("%s: buildKernel: %v", op, err)
		}
		switch k.(type) {
		case *via32Kernel, *via32Shaper:
			t.Errorf("%s float32: got kernel %T, want the float32 kernel itself", op, k)
		}
	}
}
