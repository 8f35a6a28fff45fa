//go:build amd64 && !purego

package cpu

import (
	"math"
	"testing"
)

// TestDirectKernelsAVX512 runs the AVX-512 direct kernels and the AVX2
// ones (past six channels, the one-channel AVX-512 kernel channel by
// channel) on the same random tiles, for every channel count, flag and a
// row's tile count from one to five (pairs and a last single tile): the
// outputs must be the same bits and the cells around the tiles
// untouched; and directKernelRows, whose rows end inside their last
// tile, must store those bits for the lanes it keeps and nothing else.
func TestDirectKernelsAVX512(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	defer func(v bool) { directAVX512 = v }(directAVX512)
	r := nnRng(11)
	const guard = 8
	for rows := 1; rows <= directMaxR; rows++ {
		for _, kc := range []int{0, 1, 5, 144, gemmKC} {
			for flags := range 8 {
				for nt := 1; nt <= 5; nt++ {
					// One to three rows: rows of one tile go in pairs, the odd one alone.
					nr := 1 + (rows+flags+nt)%3
					xrow, crow := nt*directNR+3, nt*directNR+1
					ldc := nr*crow + 5
					x := nnRand(r, 4*kc+nr*xrow+nt*directNR)
					offs := make([]int, max(kc, 1))
					for p := range offs {
						offs[p] = r.IntN(4*kc + 1)
					}
					a, bias := nnRand(r, max(kc, 1)*rows), nnRand(r, rows)
					c0 := nnRand(r, guard+rows*ldc+guard)
					var got [2][]float32
					for v, z := range []bool{false, true} {
						directAVX512 = z
						c := append([]float32(nil), c0...)
						if !z && rows > 6 {
							// No AVX2 kernel takes past six channels: the
							// reference is the one-channel AVX-512 kernel,
							// channel by channel (the same FMAs).
							directAVX512 = true
							for i := range rows {
								a1 := make([]float32, max(kc, 1))
								for p := range kc {
									a1[p] = a[p*rows+i]
								}
								directKernel(1, kc, &a1[0], &x[0], &offs[0], &c[guard+i*ldc], ldc, flags, &bias[i], nr, nt, xrow, crow)
							}
							got[v] = c
							continue
						}
						directKernel(rows, kc, &a[0], &x[0], &offs[0], &c[guard], ldc, flags, &bias[0], nr, nt, xrow, crow)
						got[v] = c
					}
					for j := range c0 {
						if g, w := math.Float32bits(got[1][j]), math.Float32bits(got[0][j]); g != w {
							t.Fatalf("r%d kc%d flags%d tiles%d rows%d: cell %d: avx512 %v, avx2 %v", rows, kc, flags, nt, nr, j, got[1][j], got[0][j])
						}
					}
					for j := range guard {
						if got[1][j] != c0[j] || got[1][len(c0)-1-j] != c0[len(c0)-1-j] {
							t.Fatalf("r%d kc%d flags%d tiles%d: a guard cell was written", rows, kc, flags, nt)
						}
					}
					// Rows ending inside their last tile: the lanes kept
					// are the whole tiles' bits, the others untouched.
					for _, last := range []int{1, 7, directNR} {
						directAVX512 = true
						c := append([]float32(nil), c0...)
						if !directKernelRows(rows, kc, &a[0], &x[0], &offs[0], &c[guard], ldc, flags, &bias[0], nr, nt, xrow, crow, last) {
							t.Fatal("directKernelRows refused with the AVX-512 kernels")
						}
						width := (nt-1)*directNR + last
						for j := range c0 {
							want := c0[j]
							if k := j - guard; k >= 0 && k < rows*ldc {
								col := k % ldc
								if col/crow < nr && col%crow < width {
									want = got[0][j]
								}
							}
							if math.Float32bits(c[j]) != math.Float32bits(want) {
								t.Fatalf("r%d kc%d flags%d tiles%d rows%d last%d: cell %d = %v, want %v", rows, kc, flags, nt, nr, last, j, c[j], want)
							}
						}
					}
				}
			}
		}
	}
}
