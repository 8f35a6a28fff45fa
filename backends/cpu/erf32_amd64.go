//go:build amd64 && !purego

package cpu

//go:noescape
func erfAVX(d *float32, n int)

//go:noescape
func geluAVX(d *float32, n int)

// erf32s sets d[i] = erf32(d[i]).
func erf32s(d []float32) {
	if n := avxSplit(d); n > 0 {
		erfAVX(&d[0], n)
		d = d[n:]
	}
	erfGo(d)
}

// gelu32s sets d[i] to Gelu's exact form, x·(1 + erf(x/√2))/2, with
// erf32.
func gelu32s(d []float32) {
	if n := avxSplit(d); n > 0 {
		geluAVX(&d[0], n)
		d = d[n:]
	}
	geluGo(d)
}
