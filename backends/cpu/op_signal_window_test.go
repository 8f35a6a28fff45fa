package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestSignalWindow(t *testing.T) {
	win := func(op string, dt payload.DType, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node(op, []string{"size"}, attrs...), opset: 17, outTypes: []payload.DType{dt}}
	}
	sym := aInt("periodic", 0)
	f32, f64 := payload.Float32, payload.Float64
	h0, h1 := 4.0/46, 1.0 // Hamming: 25/46 ∓ 21/46
	runKernelCases(t, []kernelCase{
		{name: "hann periodic", c: win("HannWindow", f32), ins: []*tensor{sc(int64(4))}, shape: []int{4}, want: []float64{0, 0.5, 1, 0.5}},
		{name: "hann symmetric", c: win("HannWindow", f32, sym), ins: []*tensor{sc(int32(3))}, shape: []int{3}, want: []float64{0, 1, 0}},
		{name: "hamming periodic", c: win("HammingWindow", f32), ins: []*tensor{sc(int64(2))}, shape: []int{2}, want: []float64{h0, h1}},
		{name: "hamming symmetric double", c: win("HammingWindow", f64, sym, aInt("output_datatype", 11)), ins: []*tensor{sc(int64(3))}, shape: []int{3}, want: []float64{h0, h1, h0}},
		{name: "blackman periodic", c: win("BlackmanWindow", f32), ins: []*tensor{sc(int64(4))}, shape: []int{4}, want: []float64{0, 0.34, 1, 0.34}},
		{name: "blackman symmetric", c: win("BlackmanWindow", f32, sym), ins: []*tensor{sc(int64(3))}, shape: []int{3}, want: []float64{0, 1, 0}},
		// Integers truncate toward zero.
		{name: "hann int32", c: win("HannWindow", payload.Int32, aInt("output_datatype", 6)), ins: []*tensor{sc(int64(4))}, shape: []int{4}, want: []float64{0, 0, 1, 0}},
		{name: "empty", c: win("HannWindow", f32), ins: []*tensor{sc(int64(0))}, shape: []int{0}, want: []float64{}},
	})
	// The suite's periodic Blackman window starts at 0.42 − 0.5 + 0.08,
	// which rounds to −1.4e-17: the same operations give the same value.
	outs, err := runNode(t, win("BlackmanWindow", f64, aInt("output_datatype", 11)), sc(int64(10)))
	if err != nil {
		t.Fatal(err)
	}
	a0, a1, a2 := 0.42, -0.5, 0.08
	if got, want := outs[0].f64()[0], a0+a1+a2; got != want || want == 0 {
		t.Errorf("blackman[0]: got %v, want %v", got, want)
	}
	wantSteadyNoAllocs(t, win("HannWindow", f32), sc(int64(400)))
}
