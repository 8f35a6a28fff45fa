//go:build !amd64 || purego

package cpu

// pwGroup is pwGroupGo: this build has no assembly for it.
func pwGroup(x []float32, xs int, w, b, y []float32, ys, n, cg, mg int, relu bool) {
	pwGroupCheck(x, xs, w, b, y, ys, n, cg, mg)
	pwGroupGo(x, xs, w, b, y, ys, n, cg, mg, relu)
}

// pwGroupKernelC is zero: this build has no assembly for pwGroup, and
// the grouped 1×1 path is left to the SGEMM.
func pwGroupKernelC() int { return 0 }
