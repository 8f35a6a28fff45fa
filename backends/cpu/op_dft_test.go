package cpu

import (
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// sc is a scalar tensor.
func sc[E payload.Elem](v E) *tensor { return mk([]int{}, []E{v}) }

func TestDFT(t *testing.T) {
	dft := func(opset int64, attrs ...model.Attr) nodeCase {
		ins := []string{"x", "n", "axis"}
		if opset < 20 {
			ins = ins[:2]
		}
		return nodeCase{node: node("DFT", ins, attrs...), opset: opset}
	}
	inv, one := aInt("inverse", 1), aInt("onesided", 1)
	// x = [1, 2, 3, 4] has the spectrum [10, −2+2i, −2, −2−2i].
	real4 := mk([]int{1, 4, 1}, []float32{1, 2, 3, 4})
	spec4 := mk([]int{1, 4, 2}, []float32{10, 0, -2, 2, -2, 0, -2, -2})
	half4 := mk([]int{1, 3, 2}, []float32{10, 0, -2, 2, -2, 0})
	// [[1, 2], [3, 4]] transformed down its columns or along its rows.
	grid := mk([]int{1, 2, 2, 1}, []float32{1, 2, 3, 4})
	s3 := math.Sqrt(3) / 2
	runKernelCases(t, []kernelCase{
		{name: "real", c: dft(17), ins: []*tensor{real4}, shape: []int{1, 4, 2}, want: []float64{10, 0, -2, 2, -2, 0, -2, -2}},
		{name: "onesided", c: dft(17, one), ins: []*tensor{real4}, shape: []int{1, 3, 2}, want: []float64{10, 0, -2, 2, -2, 0}},
		{name: "inverse", c: dft(17, inv), ins: []*tensor{spec4}, shape: []int{1, 4, 2}, want: []float64{1, 0, 2, 0, 3, 0, 4, 0}},
		{name: "irfft", c: dft(17, inv, one), ins: []*tensor{half4}, shape: []int{1, 4, 1}, want: []float64{1, 2, 3, 4}},
		// The DC bin's imaginary part is dropped, as the middle one's.
		{name: "irfft drops imaginary dc", c: dft(17, inv, one), ins: []*tensor{mk([]int{1, 3, 2}, []float32{10, 7, -2, 2, -2, 5})}, shape: []int{1, 4, 1}, want: []float64{1, 2, 3, 4}},
		{name: "irfft odd length", c: dft(17, inv, one), ins: []*tensor{mk([]int{1, 2, 2}, []float32{3, 0, 0, 0}), sc(int64(3))}, shape: []int{1, 3, 1}, want: []float64{1, 1, 1}},
		{name: "pad", c: dft(17), ins: []*tensor{mk([]int{1, 3, 1}, []float32{1, 2, 3}), sc(int64(4))}, shape: []int{1, 4, 2}, want: []float64{6, 0, -2, -2, 2, 0, -2, 2}},
		{name: "cut", c: dft(17), ins: []*tensor{real4, sc(int32(2))}, shape: []int{1, 2, 2}, want: []float64{3, 0, -1, 0}},
		// Length 3 takes the direct sum.
		{name: "length 3", c: dft(17), ins: []*tensor{mk([]int{1, 3, 2}, []float32{0, 0, 1, 0, 0, 0})}, shape: []int{1, 3, 2}, want: []float64{1, 0, -0.5, -s3, -0.5, s3}},
		{name: "complex", c: dft(17), ins: []*tensor{mk([]int{1, 2, 2}, []float32{1, 2, 3, 4})}, shape: []int{1, 2, 2}, want: []float64{4, 6, -2, -2}},
		{name: "columns", c: dft(17), ins: []*tensor{grid}, shape: []int{1, 2, 2, 2}, want: []float64{4, 0, 6, 0, -2, 0, -2, 0}},
		{name: "rows", c: dft(17, aInt("axis", 2)), ins: []*tensor{grid}, shape: []int{1, 2, 2, 2}, want: []float64{3, 0, -1, 0, 7, 0, -1, 0}},
		{name: "rows -2", c: dft(17, aInt("axis", -2)), ins: []*tensor{grid}, shape: []int{1, 2, 2, 2}, want: []float64{3, 0, -1, 0, 7, 0, -1, 0}},
		{name: "default axis 20", c: dft(20), ins: []*tensor{grid}, shape: []int{1, 2, 2, 2}, want: []float64{3, 0, -1, 0, 7, 0, -1, 0}},
		{name: "axis input 20", c: dft(20), ins: []*tensor{grid, nil, sc(int64(1))}, shape: []int{1, 2, 2, 2}, want: []float64{4, 0, 6, 0, -2, 0, -2, 0}},
		{name: "float64", c: dft(17), ins: []*tensor{mk([]int{1, 4, 1}, []float64{1, 2, 3, 4})}, shape: []int{1, 4, 2}, want: []float64{10, 0, -2, 2, -2, 0, -2, -2}},
		{name: "empty batch", c: dft(17), ins: []*tensor{mk([]int{0, 4, 1}, []float32{})}, shape: []int{0, 4, 2}, want: []float64{}},
		{name: "axis out of range", c: dft(20), ins: []*tensor{grid, nil, sc(int64(3))}, err: errs.ShapeMismatch},
		{name: "zero length", c: dft(17), ins: []*tensor{real4, sc(int64(0))}, err: errs.ShapeMismatch},
		{name: "int32 signal", c: dft(17), ins: []*tensor{mk([]int{1, 4, 1}, []int32{1, 2, 3, 4})}, err: errs.Unsupported},
		{name: "float dft_length", c: dft(17), ins: []*tensor{real4, sc(float32(4))}, err: errs.InvalidArtifact},
	})
	// A long signal takes Bluestein's algorithm: a single impulse at 1
	// has the spectrum exp(−2πi·k/n).
	n := 100
	x := make([]float32, n)
	x[1] = 1
	outs, err := runNode(t, dft(17), mk([]int{1, n, 1}, x))
	if err != nil {
		t.Fatal(err)
	}
	got := outs[0].f32()
	for k := range n {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
		if math.Abs(float64(got[2*k])-c) > 1e-6 || math.Abs(float64(got[2*k+1])-s) > 1e-6 {
			t.Fatalf("bin %d: got (%v, %v), want (%v, %v)", k, got[2*k], got[2*k+1], c, s)
		}
	}
	// Float16 is read and written through float64.
	h := make([]float16.Float16, 4)
	for i, v := range []float32{1, 2, 3, 4} {
		h[i] = float16.Fromfloat32(v)
	}
	half := dft(17, one)
	half.outTypes = []payload.DType{payload.Float16}
	outs, err = runNode(t, half, mk([]int{1, 4, 1}, h))
	if err != nil {
		t.Fatal(err)
	}
	var gotH []float32
	for _, v := range elems[float16.Float16](outs[0]) {
		gotH = append(gotH, v.Float32())
	}
	if want := []float32{10, 0, -2, 2, -2, 0}; !equalF32(gotH, want) {
		t.Errorf("float16: got %v, want %v", gotH, want)
	}
	for _, c := range []struct {
		name string
		c    nodeCase
		ins  []*tensor
	}{
		{"radix 2", dft(17), []*tensor{mk([]int{4, 64, 2}, make([]float32, 512))}},
		{"bluestein", dft(20, inv), []*tensor{mk([]int{2, 100, 3, 2}, make([]float32, 1200)), nil, sc(int64(1))}},
		{"irfft", dft(20, inv, one), []*tensor{mk([]int{2, 9, 2}, make([]float32, 36)), sc(int64(16))}},
	} {
		t.Run(c.name, func(t *testing.T) { wantSteadyNoAllocs(t, c.c, c.ins...) })
	}
}

func equalF32(a, b []float32) bool {
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
