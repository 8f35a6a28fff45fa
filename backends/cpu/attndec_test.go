package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// attnDecInputs returns random rows of n floats with stride ld, ld ≥ n.
func attnDecRows(r *rand.Rand, rows, n, ld int) []float32 {
	x := make([]float32, max(rows-1, 0)*ld+n)
	for i := range x {
		x[i] = r.Float32()*2 - 1
	}
	return x
}

// attnGuarded returns a buffer of rows rows of stride ld and guard
// cells of value 7 before, after and between them, and the slice of it
// the rows start at.
func attnGuarded(rows, ld, guard int) (buf, at []float32) {
	buf = make([]float32, rows*ld+2*guard)
	for i := range buf {
		buf[i] = 7
	}
	return buf, buf[guard:]
}

// TestAttnDecodeKernelsMatchGo checks the decoding kernels against
// their Go twins bit for bit on random inputs, over row and key counts
// with and without tails and padded strides, with guard cells around
// and between the output rows.
func TestAttnDecodeKernelsMatchGo(t *testing.T) {
	if !attnDecodeFast {
		t.Skip("no decoding kernels in this build or on this CPU: the Go twins would be compared with themselves")
	}
	r := rand.New(rand.NewPCG(71, 72))
	const guard = 16
	for _, d := range []int{16, 48, 64, 128} {
		for _, nk := range []int{1, 3, 4, 15, 16, 17, 33, 64, 101} {
			qld, kld, sld := d+5, d+3, nk+9
			q, k := attnDecRows(r, 4, d, qld), attnDecRows(r, nk, d, kld)
			scale := r.Float32() + 0.1
			t.Run(fmt.Sprintf("scores d=%d nk=%d", d, nk), func(t *testing.T) {
				gotBuf, got := attnGuarded(4, sld, guard)
				wantBuf, want := attnGuarded(4, sld, guard)
				if n4 := nk &^ 3; n4 > 0 {
					attnDot4(q, qld, k, kld, n4, d/16, scale, got, sld)
					attnDot4Go(q, qld, k, kld, n4, d/16, scale, want, sld)
				}
				if n16 := nk &^ 15; n16 > 0 {
					attnDot1(q[qld:], k, kld, n16, d/16, scale, got[3*sld+4:])
					attnDot1Go(q[qld:], k, kld, n16, d/16, scale, want[3*sld+4:])
				}
				for i := range gotBuf {
					if math.Float32bits(gotBuf[i]) != math.Float32bits(wantBuf[i]) {
						t.Fatalf("cell %d (guard %d, row stride %d): got %v, want %v", i, guard, sld, gotBuf[i], wantBuf[i])
					}
				}
			})
		}
	}
	for _, nk := range []int{0, 1, 2, 3, 4, 5, 7, 8, 31, 100} {
		for _, acc := range []bool{false, true} {
			for _, cols := range []int{16, 64} {
				pld, vld, yld := nk+3, 64+17, 64+11
				p, v := attnDecRows(r, 4, nk, pld), attnDecRows(r, nk, 64, vld)
				t.Run(fmt.Sprintf("values nk=%d acc=%v cols=%d", nk, acc, cols), func(t *testing.T) {
					gotBuf, got := attnGuarded(5, yld, guard)
					wantBuf, want := attnGuarded(5, yld, guard)
					for i := range 4 * yld {
						got[i] = float32(i%13) - 6
						want[i] = got[i]
					}
					attnPV4(p, pld, v, vld, nk, cols, got, yld, acc)
					attnPV4Go(p, pld, v, vld, nk, cols, want, yld, acc)
					attnPV1(p[pld:], v, vld, nk, cols, got[4*yld:], acc)
					attnPV1Go(p[pld:], v, vld, nk, cols, want[4*yld:], acc)
					for i := range gotBuf {
						if math.Float32bits(gotBuf[i]) != math.Float32bits(wantBuf[i]) {
							t.Fatalf("cell %d (guard %d, row stride %d): got %v, want %v", i, guard, yld, gotBuf[i], wantBuf[i])
						}
					}
				})
			}
		}
	}
}

// TestAttnDecodeDrivers checks attnScores and attnPV, which split rows
// into kernels of four and of one and keys into the kernels' blocks and
// tails, against sums in float64.
func TestAttnDecodeDrivers(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	for _, m := range []int{1, 2, 3, 4, 5, 8} {
		for _, nk := range []int{0, 1, 5, 16, 19, 40} {
			for _, dims := range [][2]int{{16, 64}, {64, 128}, {32, 16}, {80, 80}, {64, 96}} {
				d, dv := dims[0], dims[1]
				qld, kld, sld, vld, yld := d+1, d+2, nk+3, dv+4, dv+5
				q, k, v := attnDecRows(r, m, d, qld), attnDecRows(r, nk, d, kld), attnDecRows(r, nk, dv, vld)
				s := make([]float32, m*sld)
				attnScores(q, qld, m, k, kld, nk, d, 0.5, s, sld)
				for i := range m {
					for j := range nk {
						var want float64
						for c := range d {
							want += float64(q[i*qld+c]) * float64(k[j*kld+c])
						}
						want *= 0.5
						if got := float64(s[i*sld+j]); math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
							t.Fatalf("m=%d nk=%d d=%d: score[%d][%d] = %v, want %v", m, nk, d, i, j, got, want)
						}
					}
				}
				for _, acc := range []bool{false, true} {
					y := make([]float32, m*yld)
					for i := range y {
						y[i] = 1
					}
					attnPV(s, sld, m, v, vld, nk, dv, acc, y, yld)
					for i := range m {
						for c := range dv {
							var want float64
							if acc {
								want = 1
							}
							for j := range nk {
								want += float64(s[i*sld+j]) * float64(v[j*vld+c])
							}
							if got := float64(y[i*yld+c]); math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
								t.Fatalf("m=%d nk=%d dv=%d acc=%v: y[%d][%d] = %v, want %v", m, nk, dv, acc, i, c, got, want)
							}
						}
					}
				}
			}
		}
	}
}
