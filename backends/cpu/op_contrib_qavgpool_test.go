package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// TestQLinearAveragePool checks QLinearAveragePool on small windows whose
// averages are worked out by hand: the divisors with and without the
// pads, ties rounding to even after the zero point is added, int8 with
// zero points, channels last, a whole-image window (GlobalAveragePool's
// integer average) and the errors.
func TestQLinearAveragePool(t *testing.T) {
	in := []string{"x", "xs", "xz", "ys", "yz"}
	pool := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: msNode("QLinearAveragePool", in, attrs...)}
	}
	k2 := aInts("kernel_shape", 2, 2)
	x := func() *tensor { return qu8([]int{1, 1, 3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9) }
	runDMCases(t, []dmCase{
		// Windows [1 2 4 5] [2 3 5 6] [4 5 7 8] [5 6 8 9]: 3, 4, 6, 7.
		{name: "k2", c: pool(k2), ins: []*tensor{x(), one32(), qu8(nil, 0), one32(), qu8(nil, 0)}, shapes: [][]int{{1, 1, 2, 2}}, vals: []string{"[3 4 6 7]"}},
		// Pads of one, stride 2: windows [1] [2 3] [4 7] [5 6 8 9], means
		// 1, 2.5, 5.5 and 7 (ties to even: 2 and 6), or over four values
		// with count_include_pad: 0.25, 1.25, 2.75 and 7.
		{name: "pads", c: pool(k2, aInts("strides", 2, 2), aInts("pads", 1, 1, 1, 1)), ins: []*tensor{x(), one32(), qu8(nil, 0), one32(), qu8(nil, 0)},
			shapes: [][]int{{1, 1, 2, 2}}, vals: []string{"[1 2 6 7]"}},
		{name: "count pads", c: pool(k2, aInts("strides", 2, 2), aInts("pads", 1, 1, 1, 1), aInt("count_include_pad", 1)), ins: []*tensor{x(), one32(), qu8(nil, 0), one32(), qu8(nil, 0)},
			shapes: [][]int{{1, 1, 2, 2}}, vals: []string{"[0 1 3 7]"}},
		// (1+2)/2 = 1.5, plus zero point 10: 11.5 to even, 12.
		{name: "tie after the zero point", c: pool(aInts("kernel_shape", 2)), ins: []*tensor{qu8([]int{1, 1, 2}, 1, 2), one32(), qu8(nil, 0), one32(), qu8(nil, 10)},
			shapes: [][]int{{1, 1, 1}}, vals: []string{"[12]"}},
		// int8: (x+3)·0.5 = 0.5, 1.5; mean 1, over 0.25 is 4, plus 3.
		{name: "int8", c: pool(aInts("kernel_shape", 2)), ins: []*tensor{qs8([]int{1, 1, 2}, -2, 0), qf(nil, 0.5), qs8(nil, -3), qf(nil, 0.25), qs8(nil, 3)},
			shapes: [][]int{{1, 1, 1}}, vals: []string{"[7]"}},
		// Channels last: [1 10] [2 20] [3 30] [4 40] over 1×2 windows.
		{name: "channels last", c: pool(aInts("kernel_shape", 1, 2), aInt("channels_last", 1)), ins: []*tensor{qu8([]int{1, 2, 2, 2}, 1, 10, 2, 20, 3, 30, 4, 40), one32(), qu8(nil, 0), one32(), qu8(nil, 0)},
			shapes: [][]int{{1, 2, 1, 2}}, vals: []string{"[2 15 4 35]"}},
		// The whole image: GlobalAveragePool's average, 45/9 = 5.
		{name: "whole image", c: pool(aInts("kernel_shape", 3, 3)), ins: []*tensor{x(), one32(), qu8(nil, 0), one32(), qu8(nil, 0)}, shapes: [][]int{{1, 1, 1, 1}}, vals: []string{"[5]"}},
		{name: "rank", c: pool(k2), ins: []*tensor{qu8([]int{1, 4}, 1, 2, 3, 4), one32(), qu8(nil, 0), one32(), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "zero point of another type", c: pool(k2), ins: []*tensor{x(), one32(), qs8(nil, 0), one32(), qu8(nil, 0)}, err: errs.InvalidArtifact},
	})
	big := make([]uint8, 2*8*49)
	for i := range big {
		big[i] = uint8(i)
	}
	dmNoAllocs(t, "qlinearaveragepool", pool(aInts("kernel_shape", 3, 3), aInts("pads", 1, 1, 1, 1)), qu8([]int{2, 8, 7, 7}, big...), qf(nil, 0.03), qu8(nil, 100), qf(nil, 0.02), qu8(nil, 110))
}
