//go:build !amd64 || purego

package cpu

// qScaleRow is qScaleRowGo: this build has no assembly.
func qScaleRow(y []float32, acc []int32, mult, bias []float32) {
	qScaleRowGo(y, acc, mult, bias)
}

// qScaleRowsInPlace is qScaleRowsGo: this build has no assembly.
func qScaleRowsInPlace(c []int32, ld, rows, n int, mult, bias []float32) {
	qScaleRowsGo(c, ld, rows, n, mult, bias)
}
