//go:build !amd64 || purego

package cpu

// qScaleRow is qScaleRowGo: this build has no assembly.
func qScaleRow(y []float32, acc []int32, mult, bias []float32) {
	qScaleRowGo(y, acc, mult, bias)
}
