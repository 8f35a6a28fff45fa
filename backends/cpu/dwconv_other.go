//go:build !amd64 || purego

package cpu

// dwRow computes one output row of a depthwise convolution: see dwRowGo.
func dwRow(dst, base []float32, offs []int, w []float32, bias float32) {
	dwRowGo(dst, base, offs, w, bias)
}
