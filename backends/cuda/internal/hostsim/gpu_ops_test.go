//go:build cuda && cgo

package hostsim

import (
	"testing"
)

// TestIm2Col runs im2col_f32 with groups, strides, padding and dilation.
func TestIm2Col(t *testing.T) {
	a := convArgs{C: 4, H: 7, W: 6, M: 6, KH: 3, KW: 2, Group: 2, SH: 2, SW: 1, PH: 1, PW: 1, DH: 1, DW: 2}
	const batch = 2
	a.OH = uint32((int32(a.H)+2*a.PH-a.DH*(int32(a.KH)-1)-1)/a.SH + 1)
	a.OW = uint32((int32(a.W)+2*a.PW-a.DW*(int32(a.KW)-1)-1)/a.SW + 1)
	cg := int(a.C / a.Group)
	kk := cg * int(a.KH*a.KW)
	P := int(a.OH * a.OW)
	a.N = uint32(batch * int(a.Group) * kk * P)
	r := newRand(1500)
	x := randF32(r, batch*int(a.C*a.H*a.W), -1, 1)
	xb, cb := f32Buf("x", x), newBuf("col", 4*int(a.N))
	launch1D(t, "im2col_f32", int(a.N), a, xb, cb)
	col := cb.f32()
	for b := range batch {
		for g := range int(a.Group) {
			for c := range cg {
				for ky := range int(a.KH) {
					for kx := range int(a.KW) {
						k := (c*int(a.KH)+ky)*int(a.KW) + kx
						for p := range P {
							iy := (p/int(a.OW))*int(a.SH) - int(a.PH) + ky*int(a.DH)
							ix := (p%int(a.OW))*int(a.SW) - int(a.PW) + kx*int(a.DW)
							var want float32
							if iy >= 0 && iy < int(a.H) && ix >= 0 && ix < int(a.W) {
								want = x[((b*int(a.C)+g*cg+c)*int(a.H)+iy)*int(a.W)+ix]
							}
							if got := col[((b*int(a.Group)+g)*kk+k)*P+p]; got != want {
								t.Fatalf("col[%d][%d][%d][%d] = %g, want %g", b, g, k, p, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestResize runs resize_f32 with nearest (one tap), linear (two taps,
// some zero weights) and cubic-like (four taps) tables, with
// extrapolated outputs.
func TestResize(t *testing.T) {
	const outer, nin, nout, inner = 3, 5, 9, 4
	r := newRand(1600)
	x := randF32(r, outer*nin*inner, -2, 2)
	for _, k := range []int{1, 2, 4} {
		idx := make([]int32, nout*k)
		w := make([]float32, nout*k)
		for j := range nout {
			for q := range k {
				idx[j*k+q] = int32(min(nin-1, j*nin/nout+q))
				w[j*k+q] = float32(r.Float64() - 0.25)
				if q > 0 && r.IntN(4) == 0 {
					w[j*k+q] = 0
				}
			}
		}
		idx[0], idx[(nout-1)*k] = -1, -1 // extrapolate at both ends
		const extrap = -7.5
		a := resizeArgs{N: outer * nout * inner, Outer: outer, NIn: nin, NOut: nout, Inner: inner, K: uint32(k), Extrap: extrap}
		xb, ib, wb, yb := f32Buf("x", x), i32Buf("idx", idx), f32Buf("w", w), newBuf("y", 4*int(a.N))
		launch1D(t, "resize_f32", int(a.N), a, xb, ib, wb, yb)
		for g, got := range yb.f32() {
			ii, tt := g%inner, g/inner
			j, o := tt%nout, tt/nout
			want := float32(extrap)
			if idx[j*k] >= 0 {
				s := x[o*nin*inner+ii:]
				want = float32(w[j*k] * s[int(idx[j*k])*inner])
				for q := 1; q < k; q++ {
					if w[j*k+q] != 0 {
						want += float32(w[j*k+q] * s[int(idx[j*k+q])*inner])
					}
				}
			}
			if got != want {
				t.Fatalf("k=%d: element %d = %g, want %g", k, g, got, want)
			}
		}
	}
}

// padSource returns the input coordinate that output coordinate c reads
// along a dimension of n elements padded by before, or false for the
// constant fill.
func padSource(mode uint32, c, before, n int) (int, bool) {
	s := c - before
	if s >= 0 && s < n {
		return s, true
	}
	switch {
	case mode == pConstant:
		return 0, false
	case mode == pWrap:
		return ((s % n) + n) % n, true
	case mode == pEdge || n == 1:
		return max(0, min(s, n-1)), true
	}
	for s < 0 || s >= n {
		if s < 0 {
			s = -s
		} else {
			s = 2*(n-1) - s
		}
	}
	return s, true
}

// TestPad runs every mode of pad_f32 with pads wider than the input (so
// that reflect reflects more than once), a crop (negative before) and a
// dimension of one element.
func TestPad(t *testing.T) {
	ishape := []int{2, 3, 1, 4}
	before := []int{1, 5, 2, -1}
	oshape := []int{5, 12, 4, 2}
	r := newRand(1700)
	x := randF32(r, numel(ishape), -1, 1)
	n := numel(oshape)
	for _, mode := range []uint32{pConstant, pReflect, pEdge, pWrap} {
		a := padArgs{N: uint32(n), Rank: 4, Mode: mode, Value: 3.5,
			OShape: fill6(i32s(oshape)), IShape: fill6(i32s(ishape)), Before: fill6(i32s(before))}
		xb, yb := f32Buf("x", x), newBuf("y", 4*n)
		launch1D(t, "pad_f32", n, a, xb, yb)
		for g, got := range yb.f32() {
			i, off, stride := g, 0, 1
			want := a.Value
			inside := true
			for d := len(oshape) - 1; d >= 0; d-- {
				c := i % oshape[d]
				i /= oshape[d]
				s, ok := padSource(mode, c, before[d], ishape[d])
				if !ok {
					inside = false
					break
				}
				off += s * stride
				stride *= ishape[d]
			}
			if inside {
				want = x[off]
			}
			if got != want {
				t.Fatalf("mode %d: element %d = %g, want %g", mode, g, got, want)
			}
		}
	}
}
