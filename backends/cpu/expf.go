package cpu

import "math"

// expf32 is exp(x) for x <= 0 in float32, the Cephes expf scheme the
// assembly uses: x = k*ln2 + r with |r| <= ln2/2, exp(r) = 1 + r +
// r²·P(r) with P of degree 5, scaled by 2^k. x is clamped at -86, where
// exp is below 1e-37. Its error is within 2 ulps of the float64 exp.
func expf32(x float32) float32 {
	const (
		log2e  = 1.44269504088896341
		ln2hi  = 0.693359375
		ln2lo  = -2.12194440e-4
		p0     = 1.9875691500e-4
		p1     = 1.3981999507e-3
		p2     = 8.3334519073e-3
		p3     = 4.1665795894e-2
		p4     = 1.6666665459e-1
		p5     = 5.0000001201e-1
		lowest = -86
	)
	x = max(x, lowest)
	k := float32(math.RoundToEven(float64(float32(x * log2e))))
	r := x - float32(k*ln2hi)
	r -= float32(k * ln2lo)
	p := float32(p0*r) + p1
	p = float32(p*r) + p2
	p = float32(p*r) + p3
	p = float32(p*r) + p4
	p = float32(p*r) + p5
	p = float32(p*float32(r*r)) + r
	p += 1
	return math.Float32frombits(math.Float32bits(p) + uint32(int32(k))<<23)
}

// expSubGo sets d[i] = expf32(x[i]-m), for x[i] <= m and no NaN, and
// returns their sum.
func expSubGo(d, x []float32, m float32) float32 {
	x = x[:len(d)]
	var s float32
	for i, v := range x {
		e := expf32(v - m)
		d[i] = e
		s += e
	}
	return s
}
