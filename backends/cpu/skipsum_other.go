//go:build !amd64 || purego

package cpu

// skipSum is skipSumGo: this build has no vector version.
func skipSum(y, x, skip, bias []float32) (s, sq float64) { return skipSumGo(y, x, skip, bias) }
