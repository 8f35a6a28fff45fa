package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// refSoftmax normalises x of shape s over the elements that share every
// index outside [a, b): axes a..b-1 are reduced together.
func refSoftmax(x []float64, s []int, a, b int, log bool) []float64 {
	outer, n, inner := 1, 1, 1
	for _, d := range s[:a] {
		outer *= d
	}
	for _, d := range s[a:b] {
		n *= d
	}
	for _, d := range s[b:] {
		inner *= d
	}
	y := make([]float64, len(x))
	for o := range outer {
		for j := range inner {
			m := math.Inf(-1)
			for i := range n {
				m = math.Max(m, x[(o*n+i)*inner+j])
			}
			var sum float64
			for i := range n {
				sum += math.Exp(x[(o*n+i)*inner+j] - m)
			}
			for i := range n {
				k := (o*n+i)*inner + j
				if log {
					y[k] = x[k] - m - math.Log(sum)
				} else {
					y[k] = math.Exp(x[k]-m) / sum
				}
			}
		}
	}
	return y
}

func TestSoftmax(t *testing.T) {
	s := []int{2, 3, 4}
	x := ewSeq(24, func(i int) float64 { return float64((i*7)%11)*0.9 - 3 + 500*float64(i/12) })
	cases := []struct {
		opset int64
		axis  *int64
		a, b  int // reference reduces axes a..b-1
	}{
		{13, nil, 2, 3},
		{13, ewPtr(int64(1)), 1, 2},
		{13, ewPtr(int64(-3)), 0, 1},
		{13, ewPtr(int64(0)), 0, 1},
		{11, nil, 1, 3},
		{11, ewPtr(int64(0)), 0, 3},
		{11, ewPtr(int64(-1)), 2, 3},
		{7, ewPtr(int64(2)), 2, 3},
	}
	for _, op := range []string{"Softmax", "LogSoftmax"} {
		for _, c := range cases {
			var attrs []model.Attr
			if c.axis != nil {
				attrs = append(attrs, aInt("axis", *c.axis))
			}
			want := refSoftmax(x, s, c.a, c.b, op == "LogSoftmax")
			x32 := ewMap(x, func(v float64) float32 { return float32(v) })
			outs, err := runNode(t, nodeCase{node: node(op, []string{"x"}, attrs...), opset: c.opset}, mk(s, x32))
			if err != nil {
				t.Fatalf("%s opset %d: %v", op, c.opset, err)
			}
			outs64, err := runNode(t, nodeCase{node: node(op, []string{"x"}, attrs...), opset: c.opset, outTypes: []payload.DType{payload.Float64}}, mk(s, x))
			if err != nil {
				t.Fatal(err)
			}
			want32 := refSoftmax(ewMap(x32, func(v float32) float64 { return float64(v) }), s, c.a, c.b, op == "LogSoftmax")
			for i := range want {
				w32 := want32[i]
				if g := float64(outs[0].f32()[i]); math.Abs(g-w32) > 1e-6*math.Max(1, math.Abs(w32)) {
					t.Fatalf("%s opset %d axis %v: [%d] = %v, want %v", op, c.opset, c.axis, i, g, w32)
				}
				if g := outs64[0].f64()[i]; math.Abs(g-want[i]) > 1e-12*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("%s float64 opset %d axis %v: [%d] = %v, want %v", op, c.opset, c.axis, i, g, want[i])
				}
			}
		}
	}
	_, err := runNode(t, nodeCase{node: node("Softmax", []string{"x"}, aInt("axis", 3)), opset: 13}, mk(s, make([]float32, 24)))
	if !errors.Is(err, errs.InvalidArtifact) {
		t.Errorf("axis 3: %v", err)
	}
	_, err = runNode(t, nodeCase{node: node("Softmax", []string{"x"})}, mk([]int{2}, []int64{1, 2}))
	if !errors.Is(err, errs.Unsupported) {
		t.Errorf("int64: %v", err)
	}
}

func ewPtr[T any](v T) *T { return &v }

// TestSoftmaxRow32Special checks the float32 row path on rows whose
// maximum is not finite (it must decline them, for the float64 path) and
// on rows of signed zeros and negative infinities.
func TestSoftmaxRow32Special(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		name string
		x    []float32
		ok   bool
	}{
		{"plain", []float32{1, -2, 3, 0.5}, true},
		{"nan first", []float32{nan, 1, 2}, false},
		{"nan after max", []float32{5, 1, nan}, false},
		{"nan before max", []float32{1, nan, 5}, false},
		{"plus inf", []float32{1, inf, 2}, false},
		{"all minus inf", []float32{-inf, -inf}, false},
		{"minus inf and finite", []float32{-inf, 2, -inf}, true},
		{"signed zeros", []float32{negZero, 0, negZero}, true},
	}
	for _, c := range cases {
		d := make([]float32, len(c.x))
		if got := softmaxRow32(d, c.x); got != c.ok {
			t.Fatalf("%s: took the row: %t, want %t", c.name, got, c.ok)
		}
		if !c.ok {
			continue
		}
		x64 := ewMap(c.x, func(v float32) float64 { return float64(v) })
		want := refSoftmax(x64, []int{len(c.x)}, 0, 1, false)
		for i := range d {
			if math.Abs(float64(d[i])-want[i]) > 1e-6 {
				t.Fatalf("%s: element %d is %v, want %v", c.name, i, d[i], want[i])
			}
		}
	}
}

// TestSoftmaxStrided32 checks float32 Softmax over a middle axis (the
// transposed-rows path) on a shape larger than TestSoftmax's, with a NaN
// in one column and +Inf in another (those columns take the float64
// row), against the float64 reference.
func TestSoftmaxStrided32(t *testing.T) {
	s := []int{2, 40, 5, 7}
	inner := s[2] * s[3]
	r := nnRng(9)
	x32 := make([]float32, 2*40*inner)
	for i := range x32 {
		x32[i] = (r.Float32()*2 - 1) * 20
	}
	x32[(0*40+17)*inner+3] = float32(math.NaN())
	x32[(1*40+5)*inner+10] = float32(math.Inf(1))
	x32[(1*40+6)*inner+11] = float32(math.Inf(-1))
	outs, err := runNode(t, nodeCase{node: node("Softmax", []string{"x"}, aInt("axis", 1)), opset: 13}, mk(s, x32))
	if err != nil {
		t.Fatal(err)
	}
	want := refSoftmax(ewMap(x32, func(v float32) float64 { return float64(v) }), s, 1, 2, false)
	for i, w := range want {
		g := float64(outs[0].f32()[i])
		if math.IsNaN(w) != math.IsNaN(g) || math.Abs(g-w) > 1e-6*math.Max(1, math.Abs(w)) {
			t.Fatalf("[%d] = %v, want %v", i, g, w)
		}
	}
}
