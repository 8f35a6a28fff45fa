package cpu

// erf32 is erf(x) in float32 as a rational function of x (odd degree 13
// over even degree 8) on x clamped to [-4, 4], where erf is ±1 within
// float32: the approximation XLA and Eigen use for float32, no exp and
// no branch. Its error is within eight float32 units (erfTol32, tested
// against math.Erf); NaN gives NaN.
func erf32(x float32) float32 {
	x = max(-4, min(4, x))
	x2 := x * x
	p := x2*-2.72614225801306e-10 + 2.77068142495902e-08
	p = x2*p + -2.10102402082508e-06
	p = x2*p + -5.69250639462346e-05
	p = x2*p + -7.34990630326855e-04
	p = x2*p + -2.95459980854025e-03
	p = x2*p + -1.60960333262415e-02
	p *= x
	q := x2*-1.45660718464996e-05 + -2.13374055278905e-04
	q = x2*q + -1.68282697438203e-03
	q = x2*q + -7.37332916720468e-03
	q = x2*q + -1.42647390514189e-02
	return p / q
}

// erf32s sets d[i] = erf32(d[i]), in AVX where the CPU has it.
func erf32s(d []float32) { ewMath32(ewmErf, d, d) }

// gelu32s sets d[i] to Gelu's exact form, x·(1 + erf(x/√2))/2, with
// erf32s (the vector erf, as a standalone Erf computes it), block by
// block through stack scratch.
func gelu32s(d []float32) {
	const invSqrt2 = 0.70710678118654752440
	var e [ewBlock]float32
	for b0 := 0; b0 < len(d); b0 += ewBlock {
		blk := d[b0:min(b0+ewBlock, len(d))]
		t := e[:len(blk)]
		for i, v := range blk {
			t[i] = v * invSqrt2
		}
		erf32s(t)
		for i, v := range blk {
			blk[i] = 0.5 * v * (1 + t[i])
		}
	}
}
