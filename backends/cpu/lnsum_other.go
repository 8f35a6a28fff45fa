//go:build !amd64 || purego

package cpu

// lnSums8 reports false: this build has no vector loop, and the rows
// are summed one at a time.
func lnSums8(x []float32, n, stride int, sum, sq *[8]float32) bool { return false }
