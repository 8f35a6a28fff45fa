//go:build amd64 && !purego

package cpu

// expSubAVX is expSubGo on a multiple of 8 elements (expf_amd64.s).
//
//go:noescape
func expSubAVX(d, x *float32, n int, m float32) float32

// expSubZ is expSubAVX with AVX-512 on a multiple of 16 elements: the
// same exp bits, summed in 16 lanes.
//
//go:noescape
func expSubZ(d, x *float32, n int, m float32) float32

// expSub32 sets d[i] = exp(x[i]-m) and returns their sum; see expSubGo.
// Where 512-bit vectors run at full width, the multiples of 16 run with
// AVX-512 (the same values, summed in another order).
// A tail of fewer than 8 elements runs as one vector: the last 8
// elements again (recomputing the same values) where the slice has 8
// and d is not x, else through a padded stack block; only the tail's
// own lanes are summed.
func expSub32(d, x []float32, m float32) float32 {
	x = x[:len(d)]
	var s float32
	n := avxSplit(d)
	if z := len(d) &^ 15; wide512 && z > 0 {
		s = expSubZ(&d[0], &x[0], z, m)
		if n > z {
			s += expSubAVX(&d[z], &x[z], n-z, m)
		}
	} else if n > 0 {
		s = expSubAVX(&d[0], &x[0], n, m)
	}
	if n == len(d) {
		return s
	}
	if !hasAVX {
		return s + expSubGo(d[n:], x[n:], m)
	}
	var ts float32
	if n > 0 && &d[0] != &x[0] {
		l := len(d) - 8
		expSubAVX(&d[l], &x[l], 8, m)
		for _, v := range d[n:] {
			ts += v
		}
		return s + ts
	}
	d, x = d[n:], x[n:]
	var t [8]float32
	copy(t[:], x)
	for i := len(x); i < len(t); i++ {
		t[i] = m
	}
	expSubAVX(&t[0], &t[0], len(t), m)
	for i := range d {
		d[i] = t[i]
		ts += t[i]
	}
	return s + ts
}

// softmaxRowZ is the Softmax of a row of at least 16 with AVX-512 in one
// call (expf_amd64.s); false for a NaN or an infinite maximum.
//
//go:noescape
func softmaxRowZ(d, x *float32, n int) bool

// softmaxRowsZ is softmaxRowZ over rows rows of n (at least 16) in one
// call (expf_amd64.s): it returns how many it finished, stopping at a
// row with a NaN or an infinite maximum.
//
//go:noescape
func softmaxRowsZ(d, x *float32, n, rows int) int

// softmaxRowsWide runs the Softmax of the rows rows of n in x into d by
// softmaxRowsZ where 512-bit vectors run at full width and n is at
// least 16, each row it stops at on the float64 path, and reports
// whether it ran.
func softmaxRowsWide(d, x []float32, n, rows int) bool {
	if !wide512 || n < 16 || rows <= 0 {
		return false
	}
	_, _ = d[rows*n-1], x[rows*n-1]
	for r := 0; r < rows; {
		r += softmaxRowsZ(&d[r*n], &x[r*n], n, rows-r)
		if r < rows {
			softmaxRow(d[r*n:(r+1)*n], x[r*n:(r+1)*n], false)
			r++
		}
	}
	return true
}

// softmaxRowWide runs the Softmax of the row x into d in one AVX-512
// call where 512-bit vectors run at full width and the row holds at
// least 16 values (ran), reporting whether the row was finite (ok; if
// not, d is unspecified and the caller takes the float64 path).
func softmaxRowWide(d, x []float32) (ok, ran bool) {
	if !wide512 || len(d) < 16 {
		return false, false
	}
	x = x[:len(d)]
	return softmaxRowZ(&d[0], &x[0], len(d)), true
}
