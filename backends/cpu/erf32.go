package cpu

// erf32 is erf(x) in float32 as a rational function of x (odd degree 13
// over even degree 8) on x clamped to [-4, 4], where erf is ±1 within
// float32: the approximation XLA and Eigen use for float32, no exp and
// no branch, each polynomial step one fused multiply-add (as the vector
// loop computes it). Its error is within eight float32 units (erfTol32,
// tested against math.Erf); NaN gives NaN.
func erf32(x float32) float32 {
	const (
		p13 = float32(-2.72614225801306e-10)
		p11 = float32(2.77068142495902e-08)
		p9  = float32(-2.10102402082508e-06)
		p7  = float32(-5.69250639462346e-05)
		p5  = float32(-7.34990630326855e-04)
		p3  = float32(-2.95459980854025e-03)
		p1  = float32(-1.60960333262415e-02)
		q8  = float32(-1.45660718464996e-05)
		q6  = float32(-2.13374055278905e-04)
		q4  = float32(-1.68282697438203e-03)
		q2  = float32(-7.37332916720468e-03)
		q0  = float32(-1.42647390514189e-02)
	)
	x = max(-4, min(4, x))
	x2 := x * x
	p := fma32(x2, p13, p11)
	p = fma32(p, x2, p9)
	p = fma32(p, x2, p7)
	p = fma32(p, x2, p5)
	p = fma32(p, x2, p3)
	p = fma32(p, x2, p1)
	p *= x
	q := fma32(x2, q8, q6)
	q = fma32(q, x2, q4)
	q = fma32(q, x2, q2)
	q = fma32(q, x2, q0)
	return p / q
}

// erfGo sets d[i] = erf32(d[i]).
func erfGo(d []float32) {
	for i, v := range d {
		d[i] = erf32(v)
	}
}

// geluGo sets d[i] to Gelu's exact form, x·(1 + erf(x/√2))/2, with
// erf32.
func geluGo(d []float32) {
	const invSqrt2 = 0.70710678118654752440
	for i, v := range d {
		d[i] = 0.5 * v * (1 + erf32(v*invSqrt2))
	}
}
