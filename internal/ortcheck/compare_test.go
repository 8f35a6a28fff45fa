//go:build ort

package ortcheck

import (
	"fmt"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// value is an output normalized for comparison: float elements widened to
// float64 in f, integer and bool elements widened to int64 in i.
type value struct {
	name  string
	dtype payload.DType
	shape []int
	f     []float64
	i     []int64
}

func widenF[E float32 | float64](s []E) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

func widenI[E int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](s []E) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = int64(v)
	}
	return out
}

// fromDynamic normalizes one of lintel's outputs.
func fromDynamic(d payload.Dynamic) (value, error) {
	v := value{name: d.Name, dtype: d.DType, shape: d.Shape}
	var err error
	switch d.DType {
	case payload.Float32:
		v.f, err = conv(d, widenF[float32])
	case payload.Float64:
		v.f, err = conv(d, widenF[float64])
	case payload.Float16:
		v.f, err = conv(d, func(s []float16.Float16) []float64 {
			out := make([]float64, len(s))
			for i, h := range s {
				out[i] = float64(h.Float32())
			}
			return out
		})
	case payload.BF16:
		v.f, err = conv(d, func(s []payload.BFloat16) []float64 {
			out := make([]float64, len(s))
			for i, h := range s {
				out[i] = float64(h.Float32())
			}
			return out
		})
	case payload.Int8:
		v.i, err = conv(d, widenI[int8])
	case payload.Uint8:
		v.i, err = conv(d, widenI[uint8])
	case payload.Int16:
		v.i, err = conv(d, widenI[int16])
	case payload.Uint16:
		v.i, err = conv(d, widenI[uint16])
	case payload.Int32:
		v.i, err = conv(d, widenI[int32])
	case payload.Uint32:
		v.i, err = conv(d, widenI[uint32])
	case payload.Int64:
		v.i, err = conv(d, widenI[int64])
	case payload.Uint64:
		v.i, err = conv(d, widenI[uint64])
	case payload.Bool:
		v.i, err = conv(d, func(s []bool) []int64 {
			out := make([]int64, len(s))
			for i, b := range s {
				if b {
					out[i] = 1
				}
			}
			return out
		})
	default:
		err = fmt.Errorf("output %q: unexpected element type %s", d.Name, d.DType)
	}
	return v, err
}

func conv[E payload.Elem, R any](d payload.Dynamic, f func([]E) []R) ([]R, error) {
	t, err := payload.Typed[E](d)
	if err != nil {
		return nil, err
	}
	return f(t.Data), nil
}

// tolerance is the largest relative L2 error accepted for a float output.
// float16 and bfloat16 outputs are held to their own precision: a
// float16 result rounds by up to 2⁻¹¹ relative, and ONNX Runtime rounds
// some intermediates to float16 too (Attention's scores and weights), so
// the two differ by about two float16 units (2⁻¹⁰ each) on some draws.
func tolerance(dt payload.DType, tol float64) float64 {
	switch dt {
	case payload.Float16:
		return math.Max(tol, 2e-3)
	case payload.BF16:
		return math.Max(tol, 8e-3)
	}
	return tol
}

// relL2 returns ||got-want|| / max(||want||, tiny). Positions where both
// hold the same NaN or infinity count as equal; a NaN or infinity on one
// side only makes the error infinite.
func relL2(got, want []float64) float64 {
	var num, den float64
	for i := range want {
		g, w := got[i], want[i]
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if math.IsNaN(w) != math.IsNaN(g) {
				return math.Inf(1)
			}
			continue
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			if g != w {
				return math.Inf(1)
			}
			continue
		}
		d := g - w
		num += d * d
		den += w * w
	}
	return math.Sqrt(num) / math.Max(math.Sqrt(den), 1e-30)
}

// compare checks one output of lintel (got) against the reference (want).
// It returns the relative error for float outputs (0 otherwise) and an
// error describing the first difference found.
func compare(got, want value, tol float64) (float64, error) {
	if got.name != want.name {
		return 0, fmt.Errorf("output named %q, reference %q", got.name, want.name)
	}
	if got.dtype != want.dtype {
		return 0, fmt.Errorf("output %q: element type %s, reference %s", want.name, got.dtype, want.dtype)
	}
	if !sameShape(got.shape, want.shape) {
		return 0, fmt.Errorf("output %q: shape %v, reference %v", want.name, got.shape, want.shape)
	}
	if want.dtype.IsFloat() {
		if len(got.f) != len(want.f) {
			return 0, fmt.Errorf("output %q: %d elements, reference %d", want.name, len(got.f), len(want.f))
		}
		e := relL2(got.f, want.f)
		if !(e <= tolerance(want.dtype, tol)) {
			k := worst(got.f, want.f)
			return e, fmt.Errorf("output %q: relative L2 error %.3g > %.0e (worst at flat index %d: got %g, reference %g)",
				want.name, e, tolerance(want.dtype, tol), k, got.f[k], want.f[k])
		}
		return e, nil
	}
	if len(got.i) != len(want.i) {
		return 0, fmt.Errorf("output %q: %d elements, reference %d", want.name, len(got.i), len(want.i))
	}
	bad, first := 0, -1
	for k := range want.i {
		if got.i[k] != want.i[k] {
			if first < 0 {
				first = k
			}
			bad++
		}
	}
	if bad > 0 {
		return 0, fmt.Errorf("output %q: %d of %d elements differ (first at flat index %d: got %d, reference %d)",
			want.name, bad, len(want.i), first, got.i[first], want.i[first])
	}
	return 0, nil
}

func worst(got, want []float64) int {
	k, m := 0, -1.0
	for i := range want {
		d := math.Abs(got[i] - want[i])
		if math.IsNaN(d) {
			if math.IsNaN(got[i]) != math.IsNaN(want[i]) {
				return i
			}
			continue
		}
		if d > m {
			k, m = i, d
		}
	}
	return k
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCompare checks that the comparison catches each kind of difference.
func TestCompare(t *testing.T) {
	nan := math.NaN()
	f := func(dt payload.DType, shape []int, v ...float64) value {
		return value{name: "y", dtype: dt, shape: shape, f: v}
	}
	i := func(dt payload.DType, shape []int, v ...int64) value {
		return value{name: "y", dtype: dt, shape: shape, i: v}
	}
	cases := []struct {
		name      string
		got, want value
		ok        bool
	}{
		{"equal", f(F32, []int{2}, 1, 2), f(F32, []int{2}, 1, 2), true},
		{"within_tolerance", f(F32, []int{2}, 1, 2.00001), f(F32, []int{2}, 1, 2), true},
		{"beyond_tolerance", f(F32, []int{2}, 1, 2.01), f(F32, []int{2}, 1, 2), false},
		{"dtype", f(F64, []int{2}, 1, 2), f(F32, []int{2}, 1, 2), false},
		{"shape", f(F32, []int{2, 1}, 1, 2), f(F32, []int{2}, 1, 2), false},
		{"scalar_vs_1", f(F32, nil, 1), f(F32, []int{1}, 1), false},
		{"nan_both", f(F32, []int{2}, nan, 2), f(F32, []int{2}, nan, 2), true},
		{"nan_one_side", f(F32, []int{2}, nan, 2), f(F32, []int{2}, 1, 2), false},
		{"inf_mismatch", f(F32, []int{1}, math.Inf(1)), f(F32, []int{1}, math.Inf(-1)), false},
		{"zeros", f(F32, []int{2}, 0, 0), f(F32, []int{2}, 0, 0), true},
		{"int_exact", i(I64, []int{2}, 1, 2), i(I64, []int{2}, 1, 2), true},
		{"int_off_by_one", i(I64, []int{2}, 1, 3), i(I64, []int{2}, 1, 2), false},
		{"bool", i(B, []int{1}, 1), i(B, []int{1}, 0), false},
		{"name", value{name: "z", dtype: F32, shape: []int{1}, f: []float64{1}}, f(F32, []int{1}, 1), false},
	}
	for _, c := range cases {
		_, err := compare(c.got, c.want, 1e-4)
		if (err == nil) != c.ok {
			t.Errorf("%s: compare returned %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
