//go:build amd64 && !purego

package cpu

// dwRowAVX is dwRowGo in AVX2+FMA assembly (dwconv_amd64.s).
//
//go:noescape
func dwRowAVX(dst *float32, n int, base *float32, offs *int, w *float32, taps int, bias float32)

// dwRow computes one output row of a depthwise convolution: see dwRowGo.
func dwRow(dst, base []float32, offs []int, w []float32, bias float32) {
	if !hasAVX2FMA || len(dst) == 0 {
		dwRowGo(dst, base, offs, w, bias)
		return
	}
	dwCheck(dst, base, offs, w)
	dwRowAVX(&dst[0], len(dst), &base[0], &offs[0], &w[0], len(offs), bias)
}
