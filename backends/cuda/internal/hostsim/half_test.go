//go:build cuda && cgo

package hostsim

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/payload"
)

// narrowRef is the reference rounding of cast_any to a 16-bit type:
// nearest even (x448/float16, payload.BFloat16From), NaN to 0x7fff.
func narrowRef(to uint32, v float32) uint16 {
	if v != v {
		return 0x7fff
	}
	if to == tF16 {
		return float16.Fromfloat32(v).Bits()
	}
	return uint16(payload.BFloat16From(v))
}

func u16s(b []byte) []uint16 {
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out
}

func u16Buf(name string, v []uint16) *dbuf {
	d := newBuf(name, 2*len(v))
	for i, h := range v {
		binary.LittleEndian.PutUint16(d.data()[2*i:], h)
	}
	return d
}

// TestCastHalf runs cast_any from float32 to float16 and bfloat16 on the
// values where rounding is decided (every tie between two neighbouring
// 16-bit values of a sample and the floats either side of it), the range
// ends, subnormals, infinities, NaN and random bit patterns, against the
// Go rounding the CPU backend uses for its weights.
func TestCastHalf(t *testing.T) {
	r := newRand(1600)
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 65504, -65504, 65519.996, 65520, -65520, 1e6, 6.1035156e-05,
		6.097555e-05, 5.9604645e-08, 2.9802322e-08, 2.9802326e-08, 1e-10, 3.4028235e38, -3.4028235e38,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for _, to := range []uint32{tF16, tBF16} {
		widen := func(h uint16) float32 {
			if to == tF16 {
				return float16.Frombits(h).Float32()
			}
			return math.Float32frombits(uint32(h) << 16)
		}
		for h := uint16(0); h < 0x7c00; h += 37 {
			lo, hi := widen(h), widen(h+1)
			mid := float32((float64(lo) + float64(hi)) / 2)
			vals = append(vals, mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1))), -mid)
		}
	}
	for range 4096 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	n := len(vals)
	for _, to := range []uint32{tF16, tBF16} {
		y := newBuf("y", 2*n)
		launch1D(t, "cast_any", n, castArgs{N: uint32(n), From: tF32, To: to}, f32Buf("x", vals), y)
		got := u16s(y.data())
		bad := 0
		for i, v := range vals {
			if want := narrowRef(to, v); got[i] != want {
				if bad++; bad <= 10 {
					t.Errorf("cast_any to %d of %g (%#08x): %#04x, want %#04x", to, v, math.Float32bits(v), got[i], want)
				}
			}
		}
		y.checkGuards(t)
	}
}

// TestWidenHalf reads every float16 and bfloat16 value back as float32
// through cast_any, exactly (NaNs as some NaN).
func TestWidenHalf(t *testing.T) {
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	for _, from := range []uint32{tF16, tBF16} {
		y := newBuf("y", 4*len(all))
		launch1D(t, "cast_any", len(all), castArgs{N: uint32(len(all)), From: from, To: tF32}, u16Buf("x", all), y)
		for i, h := range all {
			want := math.Float32frombits(uint32(h) << 16)
			if from == tF16 {
				want = float16.Frombits(h).Float32()
			}
			got := y.f32()[i]
			if want != want && got != got {
				continue // NaN stays NaN; its payload is not specified
			}
			if math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("cast_any from %d of %#04x: %g (%#08x), want %g", from, h, got, math.Float32bits(got), want)
			}
		}
	}
}

// TestGemmHalf runs gemm_f32 on 16-bit A and B (ab_type), the kernel's
// fallback for half GEMMs cuBLAS cannot read: it must compute the float32
// product of the widened operands.
func TestGemmHalf(t *testing.T) {
	const m, n, k, batch = 19, 23, 37, 2
	for _, ab := range []uint32{tF16, tBF16} {
		r := newRand(uint64(1700 + ab))
		xf := randF32(r, batch*m*k, -1, 1)
		wf := randF32(r, k*n, -1, 1)
		cv := randF32(r, n, -1, 1)
		narrowAll := func(v []float32) ([]uint16, []float64) {
			h := make([]uint16, len(v))
			w := make([]float64, len(v))
			for i, f := range v {
				h[i] = narrowRef(ab, f)
				if ab == tF16 {
					w[i] = float64(float16.Frombits(h[i]).Float32())
				} else {
					w[i] = float64(math.Float32frombits(uint32(h[i]) << 16))
				}
			}
			return h, w
		}
		xh, x := narrowAll(xf)
		wh, w := narrowAll(wf)
		a := gemmArgs{M: m, N: n, K: k, Batch: batch, BRank: 1, SAM: k, SAK: 1, SBK: 1, SBN: k, SCM: 0, SCN: 1,
			HasC: 1, Alpha: 1, Beta: 1, ABType: ab}
		a.BShape[0], a.BSA[0], a.BSB[0] = batch, m*k, 0
		// B is read transposed: stored [n, k].
		wt := make([]uint16, len(wh))
		wv := make([]float64, len(w))
		for kk := range k {
			for j := range n {
				wt[j*k+kk], wv[j*k+kk] = wh[kk*n+j], w[kk*n+j]
			}
		}
		yb := newBuf("y", 4*batch*m*n)
		grid := [3]uint32{(n + gemmTile - 1) / gemmTile, (m + gemmTile - 1) / gemmTile, batch}
		launch(t, "gemm_f32", grid, [3]uint32{gemmTile, gemmTile, 1}, a, u16Buf("x", xh), u16Buf("w", wt), f32Buf("c", cv), yb)
		y := yb.f32()
		for b := range batch {
			for i := range m {
				for j := range n {
					acc, mag := float64(cv[j]), math.Abs(float64(cv[j]))
					for kk := range k {
						p := x[b*m*k+i*k+kk] * wv[j*k+kk]
						acc += p
						mag += math.Abs(p)
					}
					if got := y[(b*m+i)*n+j]; math.Abs(float64(got)-acc) > 1e-6*mag+1e-7 {
						t.Fatalf("ab_type %d: batch %d [%d,%d] = %g, want %g", ab, b, i, j, got, acc)
					}
				}
			}
		}
		yb.checkGuards(t)
	}
}
