package cpu

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestUnaryFloat(t *testing.T) {
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	sp := func(x float64) float64 { return math.Log(1 + math.Exp(x)) }
	cases := []struct {
		op    string
		attrs []model.Attr
		f     func(x float64) float64
		pos   bool // inputs must be positive
		unit  bool // inputs must be in (-1, 1)
	}{
		{"Neg", nil, func(x float64) float64 { return -x }, false, false},
		{"Abs", nil, math.Abs, false, false},
		{"Sqrt", nil, math.Sqrt, true, false},
		{"Exp", nil, math.Exp, false, false},
		{"Log", nil, math.Log, true, false},
		{"Erf", nil, math.Erf, false, false},
		{"Reciprocal", nil, func(x float64) float64 { return 1 / x }, true, false},
		{"Floor", nil, math.Floor, false, false},
		{"Ceil", nil, math.Ceil, false, false},
		{"Round", nil, math.RoundToEven, false, false},
		{"Sin", nil, math.Sin, false, false},
		{"Cos", nil, math.Cos, false, false},
		{"Tan", nil, math.Tan, false, false},
		{"Asin", nil, math.Asin, false, true},
		{"Acos", nil, math.Acos, false, true},
		{"Atan", nil, math.Atan, false, false},
		{"Sinh", nil, math.Sinh, false, false},
		{"Cosh", nil, math.Cosh, false, false},
		{"Asinh", nil, math.Asinh, false, false},
		{"Atanh", nil, math.Atanh, false, true},
		{"Sign", nil, func(x float64) float64 {
			if x > 0 {
				return 1
			} else if x < 0 {
				return -1
			}
			return 0
		}, false, false},
		{"Relu", nil, func(x float64) float64 { return math.Max(x, 0) }, false, false},
		{"LeakyRelu", nil, func(x float64) float64 {
			if x < 0 {
				return 0.01 * x
			}
			return x
		}, false, false},
		{"LeakyRelu", []model.Attr{aFloat("alpha", 0.5)}, func(x float64) float64 {
			if x < 0 {
				return 0.5 * x
			}
			return x
		}, false, false},
		{"ThresholdedRelu", []model.Attr{aFloat("alpha", 0.5)}, func(x float64) float64 {
			if x > 0.5 {
				return x
			}
			return 0
		}, false, false},
		{"Elu", []model.Attr{aFloat("alpha", 2)}, func(x float64) float64 {
			if x < 0 {
				return 2 * (math.Exp(x) - 1)
			}
			return x
		}, false, false},
		{"Selu", nil, func(x float64) float64 {
			const a, g = 1.6732632423543772, 1.0507009873554805
			if x <= 0 {
				return g * a * (math.Exp(x) - 1)
			}
			return g * x
		}, false, false},
		{"Celu", []model.Attr{aFloat("alpha", 2)}, func(x float64) float64 {
			return math.Max(0, x) + math.Min(0, 2*(math.Exp(x/2)-1))
		}, false, false},
		{"Sigmoid", nil, sig, false, false},
		{"Tanh", nil, math.Tanh, false, false},
		{"Softplus", nil, sp, false, false},
		{"Softsign", nil, func(x float64) float64 { return x / (1 + math.Abs(x)) }, false, false},
		{"HardSigmoid", nil, func(x float64) float64 { return math.Max(0, math.Min(1, 0.2*x+0.5)) }, false, false},
		{"HardSigmoid", []model.Attr{aFloat("alpha", 0.5), aFloat("beta", 0.25)}, func(x float64) float64 { return math.Max(0, math.Min(1, 0.5*x+0.25)) }, false, false},
		{"HardSwish", nil, func(x float64) float64 { return x * math.Max(0, math.Min(1, x/6+0.5)) }, false, false},
		{"Gelu", nil, func(x float64) float64 { return x * 0.5 * (1 + math.Erf(x/math.Sqrt2)) }, false, false},
		{"Gelu", []model.Attr{aString("approximate", "tanh")}, func(x float64) float64 {
			return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
		}, false, false},
		{"Mish", nil, func(x float64) float64 { return x * math.Tanh(sp(x)) }, false, false},
	}
	xs := []float64{-4, -2.5, -1.5, -0.5, -0.25, 0, 0.25, 0.5, 1.5, 2.5, 3, 7.75}
	for _, c := range cases {
		in := make([]float64, 0, len(xs))
		for _, x := range xs {
			switch {
			case c.pos && x <= 0:
				continue
			case c.unit:
				x /= 8
			}
			in = append(in, x)
		}
		x32 := make([]float32, len(in))
		for i, v := range in {
			x32[i] = float32(v)
		}
		outs, err := runNode(t, nodeCase{node: node(c.op, []string{"x"}, c.attrs...), opset: 20}, mk([]int{len(in)}, x32))
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		outs64, err := runNode(t, nodeCase{node: node(c.op, []string{"x"}, c.attrs...), opset: 20, outTypes: []payload.DType{payload.Float64}}, mk([]int{len(in)}, in))
		if err != nil {
			t.Fatalf("%s float64: %v", c.op, err)
		}
		for i, v := range in {
			want := c.f(float64(float32(v)))
			got := float64(outs[0].f32()[i])
			if math.Abs(got-want) > 2e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("%s%v(%v) = %v, want %v", c.op, c.attrs, v, got, want)
			}
			// Attributes are float32, so float64 results agree to about 1e-7.
			want = c.f(v)
			if got := outs64[0].f64()[i]; math.Abs(got-want) > 1e-7*math.Max(1, math.Abs(want)) {
				t.Errorf("%s%v float64(%v) = %v, want %v", c.op, c.attrs, v, got, want)
			}
		}
	}
}

func TestUnaryIntAndBool(t *testing.T) {
	x := []int64{-3, 0, 5, math.MinInt64 + 1}
	cases := []struct {
		op   string
		want []int64
	}{
		{"Neg", []int64{3, 0, -5, math.MaxInt64}},
		{"Abs", []int64{3, 0, 5, math.MaxInt64}},
		{"Sign", []int64{-1, 0, 1, -1}},
		{"Relu", []int64{0, 0, 5, 0}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node(c.op, []string{"x"}), opset: 14, outTypes: []payload.DType{payload.Int64}}, mk([]int{4}, x))
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if d := cmp.Diff(c.want, outs[0].i64()); d != "" {
			t.Errorf("%s: %s", c.op, d)
		}
		outs, err = runNode(t, nodeCase{node: node(c.op, []string{"x"}), opset: 14, outTypes: []payload.DType{payload.Int32}}, mk([]int{3}, []int32{-3, 0, 5}))
		if err != nil {
			t.Fatalf("%s int32: %v", c.op, err)
		}
		if d := cmp.Diff([]int32{int32(c.want[0]), int32(c.want[1]), int32(c.want[2])}, outs[0].i32()); d != "" {
			t.Errorf("%s int32: %s", c.op, d)
		}
	}
	outs, err := runNode(t, nodeCase{node: node("Not", []string{"x"}), outTypes: []payload.DType{payload.Bool}}, mk([]int{3}, []bool{true, false, true}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]bool{false, true, false}, outs[0].bools()); d != "" {
		t.Error(d)
	}
}

func TestClip(t *testing.T) {
	x := []float32{-3, -1, 0, 2, 5}
	cases := []struct {
		name  string
		c     nodeCase
		ins   []*tensor
		want  []float32
		wantI []int64
	}{
		{"opset6 attrs", nodeCase{node: node("Clip", []string{"x"}, aFloat("min", -1.5), aFloat("max", 2.5)), opset: 7},
			[]*tensor{mk([]int{5}, x)}, []float32{-1.5, -1, 0, 2, 2.5}, nil},
		{"opset6 default", nodeCase{node: node("Clip", []string{"x"}, aFloat("max", 1)), opset: 7},
			[]*tensor{mk([]int{5}, x)}, []float32{-3, -1, 0, 1, 1}, nil},
		{"opset11 both", nodeCase{node: node("Clip", []string{"x", "lo", "hi"}), opset: 11},
			[]*tensor{mk([]int{5}, x), mk([]int{}, []float32{-2}), mk([]int{}, []float32{1})}, []float32{-2, -1, 0, 1, 1}, nil},
		{"opset11 min only", nodeCase{node: node("Clip", []string{"x", "lo"}), opset: 11},
			[]*tensor{mk([]int{5}, x), mk([]int{}, []float32{0})}, []float32{0, 0, 0, 2, 5}, nil},
		{"opset13 max only", nodeCase{node: node("Clip", []string{"x", "", "hi"}), opset: 13},
			[]*tensor{mk([]int{5}, x), nil, mk([]int{1}, []float32{0})}, []float32{-3, -1, 0, 0, 0}, nil},
		{"opset13 none", nodeCase{node: node("Clip", []string{"x"}), opset: 13},
			[]*tensor{mk([]int{5}, x)}, x, nil},
		{"int64", nodeCase{node: node("Clip", []string{"x", "lo", "hi"}), opset: 13, outTypes: []payload.DType{payload.Int64}},
			[]*tensor{mk([]int{3}, []int64{-9, 4, 9}), mk([]int{}, []int64{-1}), mk([]int{}, []int64{5})}, nil, []int64{-1, 4, 5}},
	}
	for _, c := range cases {
		outs, err := runNode(t, c.c, c.ins...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.want != nil {
			if d := cmp.Diff(c.want, outs[0].f32()); d != "" {
				t.Errorf("%s: %s", c.name, d)
			}
		} else if d := cmp.Diff(c.wantI, outs[0].i64()); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
	}
}

func TestPRelu(t *testing.T) {
	x := mk([]int{2, 3, 2}, []float32{-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6})
	cases := []struct {
		slope *tensor
		want  []float32
	}{
		{mk([]int{1}, []float32{0.5}), []float32{-0.5, 1, -1, 2, -1.5, 3, -2, 4, -2.5, 5, -3, 6}},
		{mk([]int{3, 1}, []float32{1, 2, 3}), []float32{-1, 1, -4, 2, -9, 3, -4, 4, -10, 5, -18, 6}},
		{mk([]int{2}, []float32{0, 1}), []float32{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("PRelu", []string{"x", "s"}), opset: 16}, x, c.slope)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, outs[0].f32()); d != "" {
			t.Errorf("slope %v: %s", c.slope.shape, d)
		}
	}
	_, err := runNode(t, nodeCase{node: node("PRelu", []string{"x", "s"})}, x, mk([]int{4}, []float32{1, 2, 3, 4}))
	if !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("bad slope: %v", err)
	}
}

func TestUnaryErrors(t *testing.T) {
	f := mk([]int{2}, []float32{1, 2})
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"int exp", nodeCase{node: node("Exp", []string{"x"})}, []*tensor{mk([]int{1}, []int64{1})}, errs.Unsupported},
		{"float16 relu", nodeCase{node: node("Relu", []string{"x"})}, []*tensor{mk([]int{1}, []uint16{1})}, errs.Unsupported},
		{"gelu mode", nodeCase{node: node("Gelu", []string{"x"}, aString("approximate", "erf")), opset: 20}, []*tensor{f}, errs.InvalidArtifact},
		{"alpha type", nodeCase{node: node("LeakyRelu", []string{"x"}, aInt("alpha", 1))}, []*tensor{f}, errs.InvalidArtifact},
		{"not float", nodeCase{node: node("Not", []string{"x"})}, []*tensor{f}, errs.Unsupported},
		{"clip bound shape", nodeCase{node: node("Clip", []string{"x", "lo"}), opset: 13}, []*tensor{f, f}, errs.ShapeMismatch},
		{"clip bound type", nodeCase{node: node("Clip", []string{"x", "lo"}), opset: 13}, []*tensor{f, mk([]int{}, []float64{1})}, errs.InvalidArtifact},
		{"celu alpha", nodeCase{node: node("Celu", []string{"x"}, aFloat("alpha", 0))}, []*tensor{f}, errs.InvalidArtifact},
	}
	for _, c := range cases {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestSigmoid32(t *testing.T) {
	for x := -25.0; x <= 25; x += 0.37 {
		got := float64(sigmoid32(float32(x)))
		want := 1 / (1 + math.Exp(-float64(float32(x))))
		if math.Abs(got-want) > 3e-7 || got < 0 || got > 1 {
			t.Errorf("sigmoid32(%v) = %v, want %v", x, got, want)
		}
	}
	if g := sigmoid32(float32(math.NaN())); g == g {
		t.Errorf("sigmoid32(NaN) = %v", g)
	}
}

func TestIsNaNIsInf(t *testing.T) {
	inf := math.Inf(1)
	x := mk([]int{4}, []float32{1, float32(math.NaN()), float32(inf), float32(-inf)})
	cases := []struct {
		n    *model.Node
		want []bool
	}{
		{node("IsNaN", []string{"x"}), []bool{false, true, false, false}},
		{node("IsInf", []string{"x"}), []bool{false, false, true, true}},
		{node("IsInf", []string{"x"}, aInt("detect_negative", 0)), []bool{false, false, true, false}},
		{node("IsInf", []string{"x"}, aInt("detect_positive", 0)), []bool{false, false, false, true}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: c.n, opset: 20, outTypes: []payload.DType{payload.Bool}}, x)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, outs[0].bools()); d != "" {
			t.Errorf("%s %v: %s", c.n.OpType, c.n.Attrs, d)
		}
	}
}

// TestReluFloat32Bits checks the float32 Relu bit for bit against its
// rule, v > 0 ? v : 0 (NaN and −0 give +0), at lengths around the AVX
// loop's 8 lanes, into a separate output and in place.
func TestReluFloat32Bits(t *testing.T) {
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0, 1e-45, -1e-45}
	r := rand.New(rand.NewPCG(41, 42))
	k := &unaryKernel{op: uRelu, dt: payload.Float32}
	for _, n := range []int{0, 1, 7, 8, 9, 31, 64, 1000} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.Float64()*4 - 2)
			if i%5 == 0 {
				x[i] = special[(i/5)%len(special)]
			}
		}
		want := make([]float32, n)
		for i, v := range x {
			if v > 0 {
				want[i] = v
			}
		}
		for _, inPlace := range []bool{false, true} {
			src := append([]float32(nil), x...)
			xt := mk([]int{n}, src)
			ot := mk([]int{n}, make([]float32, n))
			if inPlace {
				ot = xt
			}
			if err := k.run([]*tensor{xt}, []*tensor{ot}); err != nil {
				t.Fatalf("n=%d in place=%v: %v", n, inPlace, err)
			}
			for i, got := range ot.f32() {
				if math.Float32bits(got) != math.Float32bits(want[i]) {
					t.Errorf("n=%d in place=%v: Relu(%v) = %v (%#x), want %v (%#x)", n, inPlace, x[i], got, math.Float32bits(got), want[i], math.Float32bits(want[i]))
				}
			}
		}
	}
}
