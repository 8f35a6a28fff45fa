//go:build amd64 && !purego

package cpu

// expSubAVX is expSubGo on a multiple of 8 elements (expf_amd64.s).
//
//go:noescape
func expSubAVX(d, x *float32, n int, m float32) float32

// expSub32 sets d[i] = exp(x[i]-m) and returns their sum; see expSubGo.
// A tail of fewer than 8 elements runs as one vector through a padded
// stack block (its padding is not summed), rather than element by
// element.
func expSub32(d, x []float32, m float32) float32 {
	x = x[:len(d)]
	var s float32
	if n := avxSplit(d); n > 0 {
		s = expSubAVX(&d[0], &x[0], n, m)
		d, x = d[n:], x[n:]
	}
	if len(d) == 0 || !hasAVX {
		return s + expSubGo(d, x, m)
	}
	var t [8]float32
	copy(t[:], x)
	for i := len(x); i < len(t); i++ {
		t[i] = m
	}
	expSubAVX(&t[0], &t[0], len(t), m)
	var ts float32
	for i := range d {
		d[i] = t[i]
		ts += t[i]
	}
	return s + ts
}
