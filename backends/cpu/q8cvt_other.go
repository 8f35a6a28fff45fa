//go:build !amd64 || purego

package cpu

// q8ToF32 is q8ToF32Go: this build has no assembly.
func q8ToF32(dst []float32, src []byte, z int32, s float32, signed bool) {
	q8ToF32Go(dst, src, z, s, signed)
}

// q8ToF32At is q8ToF32Go: this build has no assembly.
func q8ToF32At(_ int, dst []float32, src []byte, z int32, s float32, signed bool) {
	q8ToF32Go(dst, src, z, s, signed)
}

// requantF32Run is requantF32RunGo: this build has no assembly.
func requantF32Run(dst []byte, acc []float32, m float32, zp, lo, hi float64) {
	requantF32RunGo(dst, acc, m, zp, lo, hi)
}

// hasAVX512BW is false: this build has no assembly.
const hasAVX512BW = false

// maxPool2x2B reports false: this build has no assembly.
func maxPool2x2B(y, x []byte, ow, rows, iw int, signed bool) bool { return false }

// maxPool2x2BAt reports false: this build has no assembly.
func maxPool2x2BAt(_ int, y, x []byte, ow, rows, iw int, signed bool) bool { return false }

// requantBiasRun is requantBiasRunGo: this build has no assembly.
func requantBiasRun(dst []byte, acc []int32, bias int32, m float32, zp, lo, hi float64) {
	requantBiasRunGo(dst, acc, bias, m, zp, lo, hi)
}

// evenBytes is evenBytesGo: this build has no assembly.
func evenBytes(dst, src []byte) { evenBytesGo(dst, src) }

// requantCols is requantColsGo: this build has no assembly.
func requantCols(dst []byte, acc, bias []int32, mult []float32, zp, lo, hi float64) {
	requantColsGo(dst, acc, bias, mult, zp, lo, hi)
}
