//go:build !amd64 || purego

package cpu

// dynRange is dynRangeGo: this build has no assembly.
func dynRange(x []float32) (lo, hi float32, nan bool) { return dynRangeGo(x) }

// dynQuant is dynQuantGo: this build has no assembly.
func dynQuant(y []byte, x []float32, scale float32, zp float64, _ bool) {
	dynQuantGo(y, x, scale, zp)
}

// dynRangeAt is dynRangeGo: this build has no assembly.
func dynRangeAt(_ int, x []float32) (lo, hi float32, nan bool) { return dynRangeGo(x) }

// dynQuantAt is dynQuantGo: this build has no assembly.
func dynQuantAt(_ int, y []byte, x []float32, scale float32, zp float64, _ bool) {
	dynQuantGo(y, x, scale, zp)
}
