package cpu

import (
	"fmt"
	"math"
	"testing"
)

// TestNbitsCols checks nbitsCols (its assembly where nbitsWide, reading
// A deinterleaved) against nbitsColsGo on random codes, scales, zero
// points (per column and shared) and block sums, over column counts
// around its group of four, with guard cells around y.
func TestNbitsCols(t *testing.T) {
	if !nbitsWide(32) {
		t.Skip("no assembly for nbitsCols on this CPU or build: nbitsCols is nbitsColsGo")
	}
	for _, z := range nbitsWidths() {
		t.Run(fmt.Sprintf("avx512=%v", z), func(t *testing.T) {
			defer nbitsUse(z)()
			testNbitsCols(t)
		})
	}
}

func testNbitsCols(t *testing.T) {
	r := nnRng(5)
	const guard = 4
	for _, bs := range []int{32, 64, 128, 256} {
		for _, kb := range []int{1, 3, 16} {
			for _, ncols := range []int{1, 3, 4, 5, 8, 11} {
				for _, zs := range []int{0, kb} {
					name := fmt.Sprintf("bs%d_kb%d_cols%d_zstride%d", bs, kb, ncols, zs)
					qstride := kb*bs/2 + 3
					q := make([]uint8, ncols*qstride)
					for i := range q {
						q[i] = uint8(r.IntN(256))
					}
					a := nnRand(r, kb*bs)
					ad := make([]float32, len(a))
					deinterleave32(ad, a)
					sc := nnRand(r, ncols*kb)
					zp := make([]float32, max(ncols*zs, kb))
					for i := range zp {
						zp[i] = float32(r.IntN(16))
					}
					asum := make([]float32, kb)
					for b := range kb {
						for _, v := range a[b*bs : (b+1)*bs] {
							asum[b] += v
						}
					}
					want := make([]float32, ncols)
					nbitsColsGo(want, q, qstride, a, sc, zp, zs, asum, kb, bs, ncols)
					y := nnRand(r, guard+ncols+guard)
					y0 := append([]float32(nil), y...)
					nbitsCols(y[guard:guard+ncols], q, qstride, ad, sc, zp, zs, asum, kb, bs, ncols)
					for j := range ncols {
						got := y[guard+j]
						// Within float32 rounding of the sum of the
						// terms' magnitudes.
						var mag float64
						for b := range kb {
							var s float64
							for _, v := range a[b*bs : (b+1)*bs] {
								s += 15 * math.Abs(float64(v))
							}
							mag += math.Abs(float64(sc[j*kb+b])) * (s + 15*math.Abs(float64(asum[b])))
						}
						tol := 1e-6 * mag
						if d := math.Abs(float64(got - want[j])); !(d <= tol) {
							t.Fatalf("%s: column %d = %v, want %v (within %.1e)", name, j, got, want[j], tol)
						}
					}
					for i := range guard {
						if y[i] != y0[i] || y[len(y)-1-i] != y0[len(y)-1-i] {
							t.Fatalf("%s: a guard cell was written", name)
						}
					}
				}
			}
		}
	}
}

// TestNibblesCol checks nibblesCol (its assembly where nbitsWide)
// against nibblesColGo bit for bit, with guard cells after the column.
func TestNibblesCol(t *testing.T) {
	if !nbitsWide(32) {
		t.Skip("no assembly for nibblesCol on this CPU or build: nibblesCol is nibblesColGo")
	}
	for _, z := range nbitsWidths() {
		t.Run(fmt.Sprintf("avx512=%v", z), func(t *testing.T) {
			defer nbitsUse(z)()
			testNibblesCol(t)
		})
	}
}

func testNibblesCol(t *testing.T) {
	r := nnRng(6)
	const guard = 5
	for _, bs := range []int{32, 64, 256} {
		for _, kb := range []int{1, 2, 7} {
			q := make([]uint8, kb*bs/2)
			for i := range q {
				q[i] = uint8(r.IntN(256))
			}
			sc := nnRand(r, kb)
			zp := make([]float32, kb)
			for i := range zp {
				zp[i] = float32(r.IntN(16)) + 0.25*float32(i%2)
			}
			want := make([]float32, kb*bs)
			nibblesColGo(want, q, kb, bs, sc, zp)
			got := nnRand(r, kb*bs+guard)
			g0 := append([]float32(nil), got...)
			nibblesCol(got, q, kb, bs, sc, zp)
			for i, w := range want {
				if math.Float32bits(got[i]) != math.Float32bits(w) {
					t.Fatalf("bs%d kb%d: value %d = %v, want %v", bs, kb, i, got[i], w)
				}
			}
			for i := kb * bs; i < len(got); i++ {
				if got[i] != g0[i] {
					t.Fatalf("bs%d kb%d: guard cell %d was written", bs, kb, i-kb*bs)
				}
			}
		}
	}
}
