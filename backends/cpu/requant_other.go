//go:build !amd64 || purego

package cpu

// requantRun is requantRunGo: this build has no assembly.
func requantRun(dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	requantRunGo(dst, acc, m, zp, lo, hi)
}

// rqLevels is empty: this build has no vector requantization.
func rqLevels() []int { return nil }

// requantRunAt is requantRunGo: this build has no assembly.
func requantRunAt(_ int, dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	requantRunGo(dst, acc, m, zp, lo, hi)
}

// requantF32RunAt is requantF32RunGo: this build has no assembly.
func requantF32RunAt(_ int, dst []byte, acc []float32, m float32, zp, lo, hi float64) {
	requantF32RunGo(dst, acc, m, zp, lo, hi)
}

// requantBiasRunAt is requantBiasRunGo: this build has no assembly.
func requantBiasRunAt(_ int, dst []byte, acc []int32, bias int32, m float32, zp, lo, hi float64) {
	requantBiasRunGo(dst, acc, bias, m, zp, lo, hi)
}

// requantColsAt is requantColsGo: this build has no assembly.
func requantColsAt(_ int, dst []byte, acc, bias []int32, mult []float32, zp, lo, hi float64) {
	requantColsGo(dst, acc, bias, mult, zp, lo, hi)
}
