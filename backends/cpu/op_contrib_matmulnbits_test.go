package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestMatMulNBits(t *testing.T) {
	attrs := func(extra ...model.Attr) []model.Attr {
		return append([]model.Attr{aInt("K", 16), aInt("N", 2), aInt("bits", 4), aInt("block_size", 16)}, extra...)
	}
	a := func() *tensor {
		v := make([]float32, 16)
		v[0], v[1] = 1, 2
		return mk([]int{1, 16}, v)
	}
	// Column 0 holds q = 1, 2, then 8s; column 1 q = 0, 15, then 8s.
	b := func() *tensor {
		q := make([]uint8, 16)
		for i := range q {
			q[i] = 0x88
		}
		q[0], q[8] = 0x21, 0xF0
		return mk([]int{2, 1, 8}, q)
	}
	scales := func() *tensor { return mk([]int{2}, []float32{0.5, 1}) }
	nb := func(in []string, extra ...model.Attr) nodeCase {
		return nodeCase{node: msNode("MatMulNBits", in, attrs(extra...)...)}
	}
	runKernelCases(t, []kernelCase{
		// Zero point 8: (1-8)·0.5 + 2·(2-8)·0.5 and (0-8) + 2·(15-8).
		{name: "default zero point", c: nb([]string{"a", "b", "s"}), ins: []*tensor{a(), b(), scales()}, shape: []int{1, 2}, want: []float64{-9.5, 6}},
		// Packed zero points 8 and 7: (0-7) + 2·(15-7); bias 1, 2.
		{name: "packed zero points and bias", c: nb([]string{"a", "b", "s", "z", "", "bias"}),
			ins: []*tensor{a(), b(), scales(), mk([]int{2}, []uint8{8, 7}), nil, mk([]int{2}, []float32{1, 2})}, shape: []int{1, 2}, want: []float64{-8.5, 11}},
		{name: "float zero points", c: nb([]string{"a", "b", "s", "z"}),
			ins: []*tensor{a(), b(), scales(), mk([]int{2}, []float32{8, 7.5})}, shape: []int{1, 2}, want: []float64{-9.5, 7.5}},
		{name: "bits 8", c: nodeCase{node: msNode("MatMulNBits", []string{"a", "b", "s"}, aInt("K", 16), aInt("N", 2), aInt("bits", 8), aInt("block_size", 16))}, ins: []*tensor{a(), mk([]int{2, 1, 16}, make([]uint8, 32)), scales()}, err: errs.Unsupported},
		{name: "g_idx", c: nb([]string{"a", "b", "s", "", "g"}), ins: []*tensor{a(), b(), scales(), nil, mk([]int{16}, make([]int32, 16))}, err: errs.Unsupported},
		{name: "K mismatch", c: nb([]string{"a", "b", "s"}), ins: []*tensor{mk([]int{1, 8}, make([]float32, 8)), b(), scales()}, err: errs.ShapeMismatch},
		{name: "scales count", c: nb([]string{"a", "b", "s"}), ins: []*tensor{a(), b(), mk([]int{3}, []float32{1, 1, 1})}, err: errs.ShapeMismatch},
		{name: "no block_size", c: nodeCase{node: msNode("MatMulNBits", []string{"a", "b", "s"}, aInt("K", 16), aInt("N", 2))}, ins: []*tensor{a(), b(), scales()}, err: errs.InvalidArtifact},
	})
	for _, m := range []int{3, 9} { // codes read in place, and tiles of weights
		wantSteadyNoAllocs(t, nb([]string{"a", "b", "s", "z"}), mk([]int{m, 16}, make([]float32, m*16)), b(), scales(), mk([]int{2}, []uint8{8, 7}))
	}
	// Nine rows take the tiled path: the same values as one row.
	rows := make([]float32, 9*16)
	for r := range 9 {
		rows[r*16], rows[r*16+1] = 1, 2
	}
	outs, err := runNode(t, nb([]string{"a", "b", "s"}), mk([]int{9, 16}, rows), b(), scales())
	if err != nil {
		t.Fatal(err)
	}
	for r := range 9 {
		if got := outs[0].f32()[2*r : 2*r+2]; got[0] != -9.5 || got[1] != 6 {
			t.Errorf("row %d = %v, want [-9.5 6]", r, got)
		}
	}
}
