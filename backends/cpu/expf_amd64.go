//go:build amd64 && !purego

package cpu

// expSubAVX is expSubGo on a multiple of 8 elements (expf_amd64.s).
//
//go:noescape
func expSubAVX(d, x *float32, n int, m float32) float32

// expSub32 sets d[i] = exp(x[i]-m) and returns their sum; see expSubGo.
func expSub32(d, x []float32, m float32) float32 {
	x = x[:len(d)]
	var s float32
	if n := avxSplit(d); n > 0 {
		s = expSubAVX(&d[0], &x[0], n, m)
		d, x = d[n:], x[n:]
	}
	return s + expSubGo(d, x, m)
}
