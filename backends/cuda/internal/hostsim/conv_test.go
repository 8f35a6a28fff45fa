//go:build cuda && cgo

package hostsim

import (
	"math"
	"testing"
)

// TestConv2D runs conv2d_f32 with groups, strides, padding and dilation,
// with and without a bias.
func TestConv2D(t *testing.T) {
	a := convArgs{C: 4, H: 9, W: 11, M: 6, KH: 3, KW: 2, Group: 2, SH: 2, SW: 1, PH: 1, PW: 0, DH: 1, DW: 2}
	const batch = 2
	a.OH = uint32((int32(a.H)+2*a.PH-a.DH*(int32(a.KH)-1)-1)/a.SH + 1)
	a.OW = uint32((int32(a.W)+2*a.PW-a.DW*(int32(a.KW)-1)-1)/a.SW + 1)
	a.N = batch * a.M * a.OH * a.OW
	r := newRand(1300)
	cg := int(a.C / a.Group)
	x := randF32(r, batch*int(a.C*a.H*a.W), -1, 1)
	w := randF32(r, int(a.M)*cg*int(a.KH*a.KW), -1, 1)
	bias := randF32(r, int(a.M), -1, 1)
	for _, hasBias := range []uint32{0, 1} {
		a.HasBias = hasBias
		xb, wb, bb, yb := f32Buf("x", x), f32Buf("w", w), f32Buf("b", bias), newBuf("y", 4*int(a.N))
		launch1D(t, "conv2d_f32", int(a.N), a, xb, wb, bb, yb)
		y := yb.f32()
		mg := int(a.M / a.Group)
		for g := range int(a.N) {
			ox, oy := g%int(a.OW), (g/int(a.OW))%int(a.OH)
			m, b := (g/int(a.OW*a.OH))%int(a.M), g/int(a.OW*a.OH*a.M)
			var acc, mag float64
			if hasBias != 0 {
				acc, mag = float64(bias[m]), math.Abs(float64(bias[m]))
			}
			for ci := range cg {
				c := (m/mg)*cg + ci
				for ky := range int(a.KH) {
					iy := oy*int(a.SH) - int(a.PH) + ky*int(a.DH)
					for kx := range int(a.KW) {
						ix := ox*int(a.SW) - int(a.PW) + kx*int(a.DW)
						if iy < 0 || iy >= int(a.H) || ix < 0 || ix >= int(a.W) {
							continue
						}
						p := float64(x[((b*int(a.C)+c)*int(a.H)+iy)*int(a.W)+ix]) * float64(w[((m*cg+ci)*int(a.KH)+ky)*int(a.KW)+kx])
						acc += p
						mag += math.Abs(p)
					}
				}
			}
			if math.Abs(float64(y[g])-acc) > 1e-6*mag+1e-7 {
				t.Fatalf("bias=%d: element %d = %g, want %g", hasBias, g, y[g], acc)
			}
		}
	}
}

// TestPool2D runs pool2d_f32: max, and average with and without the
// padding counted, with asymmetric padding.
func TestPool2D(t *testing.T) {
	const planes = 3
	a := poolArgs{H: 7, W: 8, KH: 3, KW: 2, SH: 2, SW: 2, PH: 1, PW: 0, PEH: 1, PEW: 1, DH: 1, DW: 1}
	a.OH = uint32((int32(a.H)+a.PH+a.PEH-a.DH*(int32(a.KH)-1)-1)/a.SH + 1)
	a.OW = uint32((int32(a.W)+a.PW+a.PEW-a.DW*(int32(a.KW)-1)-1)/a.SW + 1)
	a.N = planes * a.OH * a.OW
	r := newRand(1400)
	x := randF32(r, planes*int(a.H*a.W), -2, 2)
	for _, mode := range []struct {
		name             string
		isMax, inclusive uint32
	}{{"max", 1, 0}, {"avg", 0, 0}, {"avg_count_pad", 0, 1}} {
		a.IsMax, a.IncludePad = mode.isMax, mode.inclusive
		xb, yb := f32Buf("x", x), newBuf("y", 4*int(a.N))
		launch1D(t, "pool2d_f32", int(a.N), a, xb, yb)
		for g, got := range yb.f32() {
			ox, oy, p := g%int(a.OW), (g/int(a.OW))%int(a.OH), g/int(a.OW*a.OH)
			best, sum, cnt, padCnt := math.Inf(-1), 0.0, 0, 0
			for ky := range int(a.KH) {
				iy := oy*int(a.SH) - int(a.PH) + ky*int(a.DH)
				for kx := range int(a.KW) {
					ix := ox*int(a.SW) - int(a.PW) + kx*int(a.DW)
					if iy < int(a.H)+int(a.PEH) && ix < int(a.W)+int(a.PEW) {
						padCnt++ // inside the padded input
					}
					if iy < 0 || iy >= int(a.H) || ix < 0 || ix >= int(a.W) {
						continue
					}
					v := float64(x[(p*int(a.H)+iy)*int(a.W)+ix])
					best, sum, cnt = max(best, v), sum+v, cnt+1
				}
			}
			want := best
			if mode.isMax == 0 {
				if mode.inclusive != 0 {
					cnt = padCnt
				}
				want = sum / float64(cnt)
			}
			if !closeTo(got, want, 1e-6, 1e-6) {
				t.Fatalf("%s: element %d = %g, want %g", mode.name, g, got, want)
			}
		}
	}
}

// TestConvTranspose2D runs convtranspose2d_f32 with groups, strides,
// padding and dilation, with and without a bias, against the scatter
// form of the transposed convolution.
func TestConvTranspose2D(t *testing.T) {
	a := convArgs{C: 4, H: 5, W: 4, M: 6, KH: 3, KW: 2, Group: 2, SH: 2, SW: 3, PH: 1, PW: 0, DH: 1, DW: 2}
	const batch = 2
	a.OH = uint32((int32(a.H)-1)*a.SH - 2*a.PH + a.DH*(int32(a.KH)-1) + 1)
	a.OW = uint32((int32(a.W)-1)*a.SW - 2*a.PW + a.DW*(int32(a.KW)-1) + 1)
	a.N = batch * a.M * a.OH * a.OW
	r := newRand(1800)
	cg, mg := int(a.C/a.Group), int(a.M/a.Group)
	x := randF32(r, batch*int(a.C*a.H*a.W), -1, 1)
	w := randF32(r, int(a.C)*mg*int(a.KH*a.KW), -1, 1)
	bias := randF32(r, int(a.M), -1, 1)
	for _, hasBias := range []uint32{0, 1} {
		a.HasBias = hasBias
		want := make([]float64, a.N)
		mag := make([]float64, a.N)
		oh, ow := int(a.OH), int(a.OW)
		for b := range batch {
			for c := range int(a.C) {
				g := c / cg
				for iy := range int(a.H) {
					for ix := range int(a.W) {
						v := float64(x[((b*int(a.C)+c)*int(a.H)+iy)*int(a.W)+ix])
						for mi := range mg {
							m := g*mg + mi
							for ky := range int(a.KH) {
								oy := iy*int(a.SH) - int(a.PH) + ky*int(a.DH)
								for kx := range int(a.KW) {
									ox := ix*int(a.SW) - int(a.PW) + kx*int(a.DW)
									if oy < 0 || oy >= oh || ox < 0 || ox >= ow {
										continue
									}
									p := v * float64(w[((c*mg+mi)*int(a.KH)+ky)*int(a.KW)+kx])
									o := ((b*int(a.M)+m)*oh+oy)*ow + ox
									want[o] += p
									mag[o] += math.Abs(p)
								}
							}
						}
					}
				}
			}
		}
		xb, wb, bb, yb := f32Buf("x", x), f32Buf("w", w), f32Buf("b", bias), newBuf("y", 4*int(a.N))
		launch1D(t, "convtranspose2d_f32", int(a.N), a, xb, wb, bb, yb)
		for i, got := range yb.f32() {
			wv := want[i]
			if hasBias != 0 {
				m := (i / (oh * ow)) % int(a.M)
				wv += float64(bias[m])
				mag[i] += math.Abs(float64(bias[m]))
			}
			if math.Abs(float64(got)-wv) > 1e-6*mag[i]+1e-7 {
				t.Fatalf("bias=%d: element %d = %g, want %g", hasBias, i, got, wv)
			}
		}
	}
}
