//go:build !amd64 || purego

package cpu

// requantRun is requantRunGo: this build has no assembly.
func requantRun(dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	requantRunGo(dst, acc, m, zp, lo, hi)
}
