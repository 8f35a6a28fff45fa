package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestSTFT(t *testing.T) {
	stft := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("STFT", []string{"x", "step", "w", "len"}, attrs...), opset: 17}
	}
	// Frames [0 1 2 3] and [2 3 4 5]: spectra [6, −2+2i, −2] and [14,
	// −2+2i, −2].
	sig := mk([]int{1, 6, 1}, []float32{0, 1, 2, 3, 4, 5})
	// The window [1 0 1 0] leaves [0 0 2 0] and [2 0 4 0].
	win := mk([]int{4}, []float32{1, 0, 1, 0})
	runKernelCases(t, []kernelCase{
		{name: "frame_length", c: stft(), ins: []*tensor{sig, sc(int64(2)), nil, sc(int64(4))}, shape: []int{1, 2, 3, 2},
			want: []float64{6, 0, -2, 2, -2, 0, 14, 0, -2, 2, -2, 0}},
		{name: "window", c: stft(), ins: []*tensor{sig, sc(int32(2)), win}, shape: []int{1, 2, 3, 2},
			want: []float64{2, 0, -2, 0, 2, 0, 6, 0, -2, 0, 6, 0}},
		{name: "window and length", c: stft(), ins: []*tensor{sig, sc(int64(2)), win, sc(int64(4))}, shape: []int{1, 2, 3, 2},
			want: []float64{2, 0, -2, 0, 2, 0, 6, 0, -2, 0, 6, 0}},
		{name: "two-sided", c: stft(aInt("onesided", 0)), ins: []*tensor{sig, sc(int64(2)), nil, sc(int64(4))}, shape: []int{1, 2, 4, 2},
			want: []float64{6, 0, -2, 2, -2, 0, -2, -2, 14, 0, -2, 2, -2, 0, -2, -2}},
		// The last value is in no frame.
		{name: "leftover", c: stft(), ins: []*tensor{mk([]int{1, 5, 1}, []float32{1, 1, 1, 1, 9}), sc(int64(2)), nil, sc(int64(2))}, shape: []int{1, 2, 2, 2},
			want: []float64{2, 0, 0, 0, 2, 0, 0, 0}},
		{name: "complex", c: stft(aInt("onesided", 0)), ins: []*tensor{mk([]int{1, 2, 2}, []float32{1, 2, 3, 4}), sc(int64(1))}, shape: []int{1, 1, 2, 2},
			want: []float64{4, 6, -2, -2}},
		{name: "rank 2 signal", c: stft(), ins: []*tensor{mk([]int{2, 2}, []float32{1, 2, 3, 5}), sc(int64(1))}, shape: []int{2, 1, 2, 2},
			want: []float64{3, 0, -1, 0, 8, 0, -2, 0}},
		{name: "frame too long", c: stft(), ins: []*tensor{sig, sc(int64(2)), nil, sc(int64(7))}, err: errs.ShapeMismatch},
		{name: "window and length disagree", c: stft(), ins: []*tensor{sig, sc(int64(2)), win, sc(int64(3))}, err: errs.ShapeMismatch},
		{name: "step 0", c: stft(), ins: []*tensor{sig, sc(int64(0)), win}, err: errs.ShapeMismatch},
		{name: "float step", c: stft(), ins: []*tensor{sig, sc(float32(2)), win}, err: errs.InvalidArtifact},
		{name: "float64 window for float32", c: stft(), ins: []*tensor{sig, sc(int64(2)), mk([]int{4}, []float64{1, 0, 1, 0})}, err: errs.InvalidArtifact},
	})
	wantSteadyNoAllocs(t, stft(), mk([]int{2, 400, 1}, make([]float32, 800)), sc(int64(160)), mk([]int{100}, make([]float32, 100)))
}
