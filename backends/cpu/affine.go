package cpu

// affineGo sets d[i] = x[i]*a + b, the product rounded before the sum
// (the conversion keeps the compiler from fusing them), as
// BatchNormalization's loop computes it.
func affineGo(d, x []float32, a, b float32) {
	x = x[:len(d)]
	for i, v := range x {
		d[i] = float32(v*a) + b
	}
}
