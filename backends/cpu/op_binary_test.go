package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// ewRefIndex maps flat output index i of shape out to the flat index of an
// operand of shape s broadcast onto out, by plain index arithmetic.
func ewRefIndex(out, s []int, i int) int {
	idx, mul := 0, 1
	for j := len(out) - 1; j >= 0; j-- {
		c := i % out[j]
		i /= out[j]
		if k := j - (len(out) - len(s)); k >= 0 {
			if s[k] != 1 {
				idx += c * mul
			}
			mul *= s[k]
		}
	}
	return idx
}

// ewRefShape broadcasts shapes by the numpy rule.
func ewRefShape(shapes ...[]int) []int {
	r := 0
	for _, s := range shapes {
		r = max(r, len(s))
	}
	out := make([]int, r)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for j, v := range s {
			if k := r - len(s) + j; v != 1 {
				out[k] = v
			}
		}
	}
	return out
}

func ewNumel(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// ewSeq returns n values start, start+step, ...
func ewSeq[E payload.Elem](n int, f func(i int) E) []E {
	v := make([]E, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

var bcastShapes = [][2][]int{
	{{2, 3, 4}, {2, 3, 4}},
	{{2, 3, 4}, {4}},
	{{4}, {2, 3, 4}},
	{{2, 1, 4}, {3, 1}},
	{{2, 3, 4}, {}},
	{{}, {2, 3}},
	{{}, {}},
	{{2, 3, 4}, {3, 1}},
	{{1, 3, 1}, {2, 1, 5}},
	{{2, 3, 4, 5}, {1, 3, 1, 5}},
	{{5, 1}, {1, 5}},
	{{2, 0, 3}, {3}},
}

func TestBinaryFloatBroadcast(t *testing.T) {
	ops := []struct {
		op string
		f  func(a, b float64) float64
	}{
		{"Add", func(a, b float64) float64 { return a + b }},
		{"Sub", func(a, b float64) float64 { return a - b }},
		{"Mul", func(a, b float64) float64 { return a * b }},
		{"Div", func(a, b float64) float64 { return a / b }},
		{"Pow", func(a, b float64) float64 { return math.Pow(a, b) }},
		{"Min", math.Min},
		{"Max", math.Max},
	}
	for _, o := range ops {
		for _, sh := range bcastShapes {
			a := ewSeq(ewNumel(sh[0]), func(i int) float32 { return float32(i%7)*0.5 + 0.25 })
			b := ewSeq(ewNumel(sh[1]), func(i int) float32 { return float32(i%5)*0.75 - 1 })
			if o.op == "Pow" {
				b = ewSeq(ewNumel(sh[1]), func(i int) float32 { return float32(i%4) * 0.5 })
			}
			outs, err := runNode(t, nodeCase{node: node(o.op, []string{"a", "b"}), opset: 14}, mk(sh[0], a), mk(sh[1], b))
			if err != nil {
				t.Fatalf("%s %v: %v", o.op, sh, err)
			}
			os := ewRefShape(sh[0], sh[1])
			if !sameShape(outs[0].shape, os) {
				t.Fatalf("%s %v: shape %v, want %v", o.op, sh, outs[0].shape, os)
			}
			got := outs[0].f32()
			for i := range ewNumel(os) {
				want := float32(o.f(float64(a[ewRefIndex(os, sh[0], i)]), float64(b[ewRefIndex(os, sh[1], i)])))
				if d := math.Abs(float64(got[i] - want)); d > 1e-6*math.Max(1, math.Abs(float64(want))) {
					t.Fatalf("%s %v: [%d] = %v, want %v", o.op, sh, i, got[i], want)
				}
			}
		}
	}
}

func TestBinaryInt(t *testing.T) {
	a := []int64{7, -7, 7, -7, 5, 0, math.MinInt64, 9}
	b := []int64{2, 2, -2, -2, 0, 3, -1, 3}
	cases := []struct {
		op   string
		fmod int64
		want []int64
	}{
		{"Add", -1, []int64{9, -5, 5, -9, 5, 3, 0, 12}},
		{"Sub", -1, []int64{5, -9, 9, -5, 5, -3, math.MinInt64 + 1, 6}},
		{"Mul", -1, []int64{14, -14, -14, 14, 0, 0, math.MinInt64, 27}},
		{"Div", -1, []int64{3, -3, -3, 3, 0, 0, math.MinInt64, 3}},
		{"Mod", 0, []int64{1, 1, -1, -1, 0, 0, 0, 0}},
		{"Mod", 1, []int64{1, -1, 1, -1, 0, 0, 0, 0}},
		{"Pow", -1, []int64{49, 49, 0, 0, 1, 0, 0, 729}},
		{"Max", -1, []int64{7, 2, 7, -2, 5, 3, -1, 9}},
		{"Min", -1, []int64{2, -7, -2, -7, 0, 0, math.MinInt64, 3}},
	}
	// Add overflows: MinInt64 + -1 wraps to MaxInt64.
	cases[0].want[6] = math.MaxInt64
	for _, c := range cases {
		n := node(c.op, []string{"a", "b"})
		if c.fmod >= 0 {
			n = node(c.op, []string{"a", "b"}, aInt("fmod", c.fmod))
		}
		outs, err := runNode(t, nodeCase{node: n, opset: 13, outTypes: []payload.DType{payload.Int64}}, mk([]int{8}, a), mk([]int{8}, b))
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if d := cmp.Diff(c.want, outs[0].i64()); d != "" {
			t.Errorf("%s fmod=%d: %s", c.op, c.fmod, d)
		}
		// int32 through the same kernels, minus the overflow lanes.
		a32 := []int32{7, -7, 7, -7, 5, 0}
		b32 := []int32{2, 2, -2, -2, 0, 3}
		outs, err = runNode(t, nodeCase{node: n, opset: 13, outTypes: []payload.DType{payload.Int32}}, mk([]int{6}, a32), mk([]int{6}, b32))
		if err != nil {
			t.Fatalf("%s int32: %v", c.op, err)
		}
		want32 := make([]int32, 6)
		for i := range want32 {
			want32[i] = int32(c.want[i])
		}
		if d := cmp.Diff(want32, outs[0].i32()); d != "" {
			t.Errorf("%s int32 fmod=%d: %s", c.op, c.fmod, d)
		}
	}
}

func TestBinaryMixed(t *testing.T) {
	// Float base, int exponent; float64; float Mod.
	outs, err := runNode(t, nodeCase{node: node("Pow", []string{"a", "b"}), opset: 15},
		mk([]int{2, 2}, []float32{2, 3, -2, 0.5}), mk([]int{2}, []int64{3, -1}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{8, 1.0 / 3, -8, 2}, outs[0].f32()); d != "" {
		t.Error(d)
	}
	outs, err = runNode(t, nodeCase{node: node("Pow", []string{"a", "b"}), outTypes: []payload.DType{payload.Float64}},
		mk([]int{3}, []float64{4, 9, 2}), mk([]int{}, []float64{0.5}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float64{2, 3, math.Sqrt2}, outs[0].f64()); d != "" {
		t.Error(d)
	}
	outs, err = runNode(t, nodeCase{node: node("Mod", []string{"a", "b"}, aInt("fmod", 1))},
		mk([]int{4}, []float32{5.5, -5.5, 5.5, -5.5}), mk([]int{4}, []float32{2, 2, -2, -2}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{1.5, -1.5, 1.5, -1.5}, outs[0].f32()); d != "" {
		t.Error(d)
	}
	outs, err = runNode(t, nodeCase{node: node("Div", []string{"a", "b"}), outTypes: []payload.DType{payload.Float64}},
		mk([]int{2, 2}, []float64{1, 2, 3, 4}), mk([]int{2, 1}, []float64{2, 4}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float64{0.5, 1, 0.75, 1}, outs[0].f64()); d != "" {
		t.Error(d)
	}
	// Min and Max propagate NaN.
	nan := float32(math.NaN())
	outs, err = runNode(t, nodeCase{node: node("Max", []string{"a", "b"})}, mk([]int{2}, []float32{nan, 1}), mk([]int{2}, []float32{1, 2}))
	if err != nil {
		t.Fatal(err)
	}
	if g := outs[0].f32(); !math.IsNaN(float64(g[0])) || g[1] != 2 {
		t.Errorf("Max with NaN = %v", g)
	}
}

func TestNary(t *testing.T) {
	a := mk([]int{2, 3}, []float32{1, 5, 3, 4, 2, 6})
	b := mk([]int{3}, []float32{2, 2, 2})
	c := mk([]int{2, 1}, []float32{0, 10})
	cases := []struct {
		op   string
		ins  []*tensor
		want []float32
	}{
		{"Max", []*tensor{a, b, c}, []float32{2, 5, 3, 10, 10, 10}},
		{"Min", []*tensor{a, b, c}, []float32{0, 0, 0, 2, 2, 2}},
		{"Sum", []*tensor{a, b, c}, []float32{3, 7, 5, 16, 14, 18}},
		{"Mean", []*tensor{a, b}, []float32{1.5, 3.5, 2.5, 3, 2, 4}},
		{"Max", []*tensor{a}, []float32{1, 5, 3, 4, 2, 6}},
		{"Sum", []*tensor{c, b}, []float32{2, 2, 2, 12, 12, 12}},
	}
	for _, cs := range cases {
		names := []string{"a", "b", "c"}[:len(cs.ins)]
		outs, err := runNode(t, nodeCase{node: node(cs.op, names), opset: 13}, cs.ins...)
		if err != nil {
			t.Fatalf("%s: %v", cs.op, err)
		}
		if !sameShape(outs[0].shape, []int{2, 3}) {
			t.Fatalf("%s: shape %v", cs.op, outs[0].shape)
		}
		if d := cmp.Diff(cs.want, outs[0].f32()); d != "" {
			t.Errorf("%s: %s", cs.op, d)
		}
	}
	outs, err := runNode(t, nodeCase{node: node("Max", []string{"a", "b"}), outTypes: []payload.DType{payload.Int64}},
		mk([]int{3}, []int64{1, 9, 3}), mk([]int{1}, []int64{4}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int64{4, 9, 4}, outs[0].i64()); d != "" {
		t.Error(d)
	}
}

func TestBinaryErrors(t *testing.T) {
	f := mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"shape", nodeCase{node: node("Add", []string{"a", "b"})}, []*tensor{f, mk([]int{2}, []float32{1, 2})}, errs.ShapeMismatch},
		{"types", nodeCase{node: node("Add", []string{"a", "b"})}, []*tensor{f, mk([]int{3}, []int64{1, 2, 3})}, errs.InvalidArtifact},
		{"dtype", nodeCase{node: node("Mul", []string{"a", "b"})}, []*tensor{mk([]int{1}, []bool{true}), mk([]int{1}, []bool{true})}, errs.Unsupported},
		{"pow dtype", nodeCase{node: node("Pow", []string{"a", "b"})}, []*tensor{mk([]int{1}, []uint8{1}), mk([]int{1}, []uint8{1})}, errs.Unsupported},
		{"float mod", nodeCase{node: node("Mod", []string{"a", "b"})}, []*tensor{f, f}, errs.InvalidArtifact},
		{"fmod value", nodeCase{node: node("Mod", []string{"a", "b"}, aInt("fmod", 2))}, []*tensor{f, f}, errs.InvalidArtifact},
		{"one input", nodeCase{node: node("Sub", []string{"a"})}, []*tensor{f}, errs.InvalidArtifact},
		{"nary shape", nodeCase{node: node("Max", []string{"a", "b", "c"})}, []*tensor{f, f, mk([]int{4}, []float32{1, 2, 3, 4})}, errs.ShapeMismatch},
		{"mean int", nodeCase{node: node("Mean", []string{"a"})}, []*tensor{mk([]int{1}, []int64{1})}, errs.Unsupported},
	}
	for _, c := range cases {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestBinarySmallInts(t *testing.T) {
	outs, err := runNode(t, nodeCase{node: node("Add", []string{"a", "b"}), outTypes: []payload.DType{payload.Uint8}},
		mk([]int{3}, []uint8{250, 1, 2}), mk([]int{}, []uint8{10}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]uint8{4, 11, 12}, outs[0].u8()); d != "" {
		t.Error(d)
	}
	outs, err = runNode(t, nodeCase{node: node("Mod", []string{"a", "b"}), outTypes: []payload.DType{payload.Int8}},
		mk([]int{2}, []int8{-7, 7}), mk([]int{1}, []int8{3}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int8{2, 1}, elems[int8](outs[0])); d != "" {
		t.Error(d)
	}
	outs, err = runNode(t, nodeCase{node: node("Div", []string{"a", "b"}), outTypes: []payload.DType{payload.Uint32}},
		mk([]int{2}, []uint32{7, 9}), mk([]int{2}, []uint32{2, 0}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]uint32{3, 0}, elems[uint32](outs[0])); d != "" {
		t.Error(d)
	}
}

func TestBitShift(t *testing.T) {
	a := mk([]int{2, 2}, []uint8{1, 2, 128, 255})
	b := mk([]int{2}, []uint8{1, 3})
	cases := []struct {
		dir  string
		want []uint8
	}{
		{"LEFT", []uint8{2, 16, 0, 248}},
		{"RIGHT", []uint8{0, 0, 64, 31}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("BitShift", []string{"a", "b"}, aString("direction", c.dir)), opset: 11, outTypes: []payload.DType{payload.Uint8}}, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, outs[0].u8()); d != "" {
			t.Errorf("%s: %s", c.dir, d)
		}
	}
	outs, err := runNode(t, nodeCase{node: node("BitShift", []string{"a", "b"}, aString("direction", "LEFT")), outTypes: []payload.DType{payload.Uint64}},
		mk([]int{2}, []uint64{1, 3}), mk([]int{}, []uint64{40}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]uint64{1 << 40, 3 << 40}, elems[uint64](outs[0])); d != "" {
		t.Error(d)
	}
	_, err = runNode(t, nodeCase{node: node("BitShift", []string{"a", "b"})}, a, b)
	if !errors.Is(err, errs.InvalidArtifact) {
		t.Errorf("no direction: %v", err)
	}
	_, err = runNode(t, nodeCase{node: node("BitShift", []string{"a", "b"}, aString("direction", "LEFT"))}, mk([]int{1}, []int32{1}), mk([]int{1}, []int32{1}))
	if !errors.Is(err, errs.Unsupported) {
		t.Errorf("int32: %v", err)
	}
}
