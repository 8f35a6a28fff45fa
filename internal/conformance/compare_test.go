package conformance

import (
	"fmt"
	"math"
	"slices"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// The tolerances of ONNX's runner (numpy.testing.assert_allclose).
const (
	rtol = 1e-3
	atol = 1e-7
)

// absTol holds the absolute tolerance of the tests whose
// expected outputs NumPy computed with its single-precision FFT (its
// input was complex64): where the exact value is 0 they hold that FFT's
// rounding error, 1.9e-7, past atol. lintel transforms in float64 and
// gives the exact 0.
var absTol = map[string]float64{
	"test_dft_inverse":         1e-6,
	"test_dft_inverse_opset19": 1e-6,
}

// absTolOf returns the absolute tolerance of the test name.
func absTolOf(name string) float64 {
	if a, ok := absTol[name]; ok {
		return a
	}
	return atol
}

// compare returns how got differs from want, or "" when they match as
// ONNX's runner compares them: same element type and shape, floating-point
// elements within abs + rtol*|want| with NaN equal to NaN (abs is atol
// but for the tests absTol names), every other element type (strings
// included) exactly.
func compare(got payload.Dynamic, want *model.Tensor, abs float64) string {
	if got.DType != want.DType {
		return fmt.Sprintf("element type %s, want %s", got.DType, want.DType)
	}
	if !slices.Equal(got.Shape, want.Shape) {
		return fmt.Sprintf("shape %v, want %v", got.Shape, want.Shape)
	}
	n := want.NumElems()
	if want.DType == payload.String {
		return compareStrings(got, want)
	}
	size := want.DType.Size()
	if len(got.Data) < n*size {
		return fmt.Sprintf("%d bytes of data, want %d", len(got.Data), n*size)
	}
	if g, w := floats(want.DType, got.Data[:n*size]), floats(want.DType, want.Raw); g != nil {
		bad, first := 0, -1
		for i := range w {
			if !close(g[i], w[i], abs) {
				if first < 0 {
					first = i
				}
				bad++
			}
		}
		if bad > 0 {
			return fmt.Sprintf("%d of %d values differ; the first, value %d, is %v, want %v", bad, len(w), first, g[first], w[first])
		}
		return ""
	}
	// Integers and booleans: exactly, booleans by truth.
	bad, first := 0, -1
	for i := 0; i < n; i++ {
		if elem(want.DType, got.Data, i) != elem(want.DType, want.Raw, i) {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Sprintf("%d of %d values differ; the first, value %d, is %s, want %s", bad, n, first,
			format(want.DType, elem(want.DType, got.Data, first)), format(want.DType, elem(want.DType, want.Raw, first)))
	}
	return ""
}

// compareStrings compares string tensors of the same shape exactly.
func compareStrings(got payload.Dynamic, want *model.Tensor) string {
	g, err := got.Strings()
	if err != nil {
		return err.Error()
	}
	w, err := payload.DecodeStrings(want.Raw, want.NumElems())
	if err != nil {
		return err.Error()
	}
	bad, first := 0, -1
	for i := range w {
		if g[i] != w[i] {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Sprintf("%d of %d strings differ; the first, value %d, is %q, want %q", bad, len(w), first, g[first], w[first])
	}
	return ""
}

// elem returns element i of integer or boolean element bytes b, its bits
// zero-extended (a boolean as 0 or 1).
func elem(dt payload.DType, b []byte, i int) uint64 {
	size := dt.Size()
	var u uint64
	for j := size - 1; j >= 0; j-- {
		u = u<<8 | uint64(b[i*size+j])
	}
	if dt == payload.Bool && u != 0 {
		u = 1
	}
	return u
}

// format formats an element that elem returned.
func format(dt payload.DType, u uint64) string {
	switch dt {
	case payload.Int8, payload.I4, payload.I2:
		return fmt.Sprint(int8(u))
	case payload.Int16:
		return fmt.Sprint(int16(u))
	case payload.Int32:
		return fmt.Sprint(int32(u))
	case payload.Int64:
		return fmt.Sprint(int64(u))
	case payload.Bool:
		return fmt.Sprint(u != 0)
	}
	return fmt.Sprint(u)
}

// close reports whether got matches want within the tolerances (abs
// the absolute one), NaN matching NaN and infinities only themselves.
func close(got, want, abs float64) bool {
	if got == want {
		return true
	}
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	if math.IsInf(got, 0) || math.IsInf(want, 0) {
		return false
	}
	return math.Abs(got-want) <= abs+rtol*math.Abs(want)
}

// floats returns the values of floating-point (and complex, as pairs)
// element bytes b, or nil for other types.
func floats(dt payload.DType, b []byte) []float64 {
	var out []float64
	switch dt {
	case payload.Float32, payload.Complex64:
		for i := 0; i+4 <= len(b); i += 4 {
			out = append(out, float64(math.Float32frombits(le32(b[i:]))))
		}
	case payload.Float64, payload.Complex128:
		for i := 0; i+8 <= len(b); i += 8 {
			out = append(out, math.Float64frombits(uint64(le32(b[i:]))|uint64(le32(b[i+4:]))<<32))
		}
	case payload.Float16:
		for i := 0; i+2 <= len(b); i += 2 {
			out = append(out, float64(float16.Frombits(uint16(b[i])|uint16(b[i+1])<<8).Float32()))
		}
	case payload.BF16:
		for i := 0; i+2 <= len(b); i += 2 {
			out = append(out, float64(payload.BFloat16(uint16(b[i])|uint16(b[i+1])<<8).Float32()))
		}
	case payload.F8E4M3FN, payload.F8E4M3FNUZ, payload.F8E5M2, payload.F8E5M2FNUZ, payload.F8E8M0, payload.F4E2M1:
		// One byte an element in memory (ADR 24); NaN's bits vary.
		for _, x := range b {
			out = append(out, float64(payload.LowFloat32(dt, x)))
		}
	default:
		return nil
	}
	if out == nil {
		out = []float64{}
	}
	return out
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
