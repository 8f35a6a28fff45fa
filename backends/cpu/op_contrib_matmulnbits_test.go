package cpu

import (
	"fmt"
	"math"
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

// TestMatMulNBitsBlocks runs MatMulNBits of blocks of 32 to 128 values
// (the few-row path's nbitsCols, in assembly where the CPU has it, and
// the tiled path) with no, packed and float zero points, against the
// weights dequantized and multiplied in float64, and checks that the
// few-row path allocates nothing once warm.
func TestMatMulNBitsBlocks(t *testing.T) {
	r := nnRng(9)
	for _, bs := range []int{32, 64, 128} {
		for _, zp := range []string{"none", "u8", "f"} {
			for _, m := range []int{1, 3, 4, 9} {
				const n = 13
				K := 2 * bs
				kb := K / bs
				name := fmt.Sprintf("bs%d_zp_%s_m%d", bs, zp, m)
				q := make([]uint8, n*kb*bs/2)
				for i := range q {
					q[i] = uint8(r.IntN(256))
				}
				sc := nnRand(r, n*kb)
				zps := make([]float64, n*kb)
				for i := range zps {
					zps[i] = 8
				}
				in := []string{"a", "b", "s"}
				var zt *tensor
				switch zp {
				case "u8":
					row := (kb + 1) / 2
					zu := make([]uint8, n*row)
					for j := range n {
						for b := range kb {
							v := uint8(r.IntN(16))
							zu[j*row+b/2] |= v << (4 * (b & 1))
							zps[j*kb+b] = float64(v)
						}
					}
					zt, in = mk([]int{len(zu)}, zu), append(in, "z")
				case "f":
					zf := make([]float32, n*kb)
					for i := range zf {
						zf[i] = float32(r.IntN(16))
						zps[i] = float64(zf[i])
					}
					zt, in = mk([]int{len(zf)}, zf), append(in, "z")
				}
				a := nnRand(r, m*K)
				c := nodeCase{node: msNode("MatMulNBits", in, aInt("K", int64(K)), aInt("N", n), aInt("bits", 4), aInt("block_size", int64(bs)))}
				ins := []*tensor{mk([]int{m, K}, a), mk([]int{n, kb, bs / 2}, q), mk([]int{n * kb}, sc)}
				if zt != nil {
					ins = append(ins, zt)
				}
				outs, err := runNode(t, c, ins...)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := outs[0].f32()
				for i := range m {
					for j := range n {
						var want, mag float64
						for kk := range K {
							b := kk / bs
							code := q[j*kb*bs/2+kk/2] >> (4 * (kk & 1)) & 15
							w := (float64(code) - zps[j*kb+b]) * float64(sc[j*kb+b])
							want += w * float64(a[i*K+kk])
							mag += math.Abs(w * float64(a[i*K+kk]))
						}
						if d := math.Abs(float64(got[i*n+j]) - want); !(d <= 1e-5*mag+1e-6) {
							t.Fatalf("%s: y[%d][%d] = %v, want %v", name, i, j, got[i*n+j], want)
						}
					}
				}
				if m <= nbitsFewRows {
					wantSteadyNoAllocs(t, c, ins...)
				}
			}
		}
	}
}
