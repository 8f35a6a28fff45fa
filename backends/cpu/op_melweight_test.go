package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestMelWeightMatrix(t *testing.T) {
	mel := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("MelWeightMatrix", []string{"bins", "n", "rate", "lo", "hi"}, attrs...), opset: 17}
	}
	args := func(bins, n, rate int32, lo, hi float32) []*tensor {
		return []*tensor{sc(bins), sc(n), sc(rate), sc(lo), sc(hi)}
	}
	// The suite's case: 8 bands over a 16-point DFT at 8192 Hz, 0 to
	// 4096 Hz. The ten mel points fall on bins 0 0 1 2 3 4 5 6 7 8: band
	// 0's left and center points meet, every band is one bin wide.
	want := []float64{
		1, 1, 0, 0, 0, 0, 0, 0,
		0, 0, 1, 1, 0, 0, 0, 0,
		0, 0, 0, 0, 1, 0, 0, 0,
		0, 0, 0, 0, 0, 1, 0, 0,
		0, 0, 0, 0, 0, 0, 1, 0,
		0, 0, 0, 0, 0, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	}
	double := mel(aInt("output_datatype", 11))
	double.outTypes = []payload.DType{payload.Float64}
	runKernelCases(t, []kernelCase{
		{name: "suite", c: mel(), ins: args(8, 16, 8192, 0, 4096), shape: []int{9, 8}, want: want},
		{name: "double", c: double, ins: args(8, 16, 8192, 0, 4096), shape: []int{9, 8}, want: want},
		// Two bands over a 32-point DFT at 32 Hz from 0 to 16 Hz: the
		// four mel points, 6.37 mel apart, are 0, 3.97, 7.95 and 11.97 Hz,
		// bins 0, 4, 8 and 12 (floor(33·hz/32)). Band 0 rises over bins
		// 0 to 4 and falls to 8, band 1 rises from 4 to 8 and falls to 12.
		{name: "ramps", c: mel(), ins: args(2, 32, 32, 0, 16), shape: []int{17, 2}, want: []float64{
			0, 0, 0.25, 0, 0.5, 0, 0.75, 0, 1, 0,
			0.75, 0.25, 0.5, 0.5, 0.25, 0.75, 0, 1,
			0, 0.75, 0, 0.5, 0, 0.25,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		}},
		{name: "zero rate", c: mel(), ins: args(8, 16, 0, 0, 4096), err: errs.ShapeMismatch},
		{name: "above nyquist", c: mel(), ins: args(8, 16, 8192, 0, 8192), err: errs.ShapeMismatch},
		{name: "negative edge", c: mel(), ins: args(8, 16, 8192, -4000, 4096), err: errs.ShapeMismatch},
		{name: "float bins", c: mel(), ins: []*tensor{sc(float32(8)), sc(int32(16)), sc(int32(8192)), sc(float32(0)), sc(float32(1))}, err: errs.InvalidArtifact},
	})
	wantSteadyNoAllocs(t, mel(), args(80, 400, 16000, 0, 8000)...)
}
