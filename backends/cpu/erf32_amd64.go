//go:build amd64 && !purego

package cpu

//go:noescape
func erfAVX(d *float32, n int)

//go:noescape
func geluAVX(d *float32, n int)

// erfZ and geluZ are erfAVX and geluAVX on a multiple of 16 with
// AVX-512, the same bits.
//
//go:noescape
func erfZ(d *float32, n int)

//go:noescape
func geluZ(d *float32, n int)

// geluErfAVX and geluErfZ are geluErfGo on a multiple of 8 and of 16.
//
//go:noescape
func geluErfAVX(d *float32, n int, c, k, h float32, f int)

//go:noescape
func geluErfZ(d *float32, n int, c, k, h float32, f int)

// erf32s sets d[i] = erf32(d[i]): multiples of 16 with AVX-512 where
// 512-bit vectors run at full width, then AVX2, then Go, the same bits.
func erf32s(d []float32) {
	if n := len(d) &^ 15; wide512 && n > 0 {
		erfZ(&d[0], n)
		d = d[n:]
	}
	if n := avxSplit(d); n > 0 {
		erfAVX(&d[0], n)
		d = d[n:]
	}
	erfGo(d)
}

// gelu32s sets d[i] to Gelu's exact form, x·(1 + erf(x/√2))/2, with
// erf32, as erf32s splits d.
func gelu32s(d []float32) {
	if n := len(d) &^ 15; wide512 && n > 0 {
		geluZ(&d[0], n)
		d = d[n:]
	}
	if n := avxSplit(d); n > 0 {
		geluAVX(&d[0], n)
		d = d[n:]
	}
	geluGo(d)
}

// geluErf32s sets d[i] to the GeluErf step of d[i] (geluErfGo), as
// erf32s splits d: the same bits on every path.
func geluErf32s(d []float32, c, k, h float32, f int) {
	if n := len(d) &^ 15; wide512 && n > 0 {
		geluErfZ(&d[0], n, c, k, h, f)
		d = d[n:]
	}
	if n := avxSplit(d); n > 0 {
		geluErfAVX(&d[0], n, c, k, h, f)
		d = d[n:]
	}
	geluErfGo(d, c, k, h, f)
}
