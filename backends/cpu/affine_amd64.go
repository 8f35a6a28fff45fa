//go:build amd64 && !purego

package cpu

// affineAVX is affineGo on a multiple of 8 elements (affine_amd64.s).
//
//go:noescape
func affineAVX(d, x *float32, n int, a, b float32)

// affine32 sets d[i] = x[i]*a + b; see affineGo.
func affine32(d, x []float32, a, b float32) {
	x = x[:len(d)]
	if n := avxSplit(d); n > 0 {
		affineAVX(&d[0], &x[0], n, a, b)
		d, x = d[n:], x[n:]
	}
	affineGo(d, x, a, b)
}
