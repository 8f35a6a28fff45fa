//go:build !amd64 || purego

package cpu

// This build has no assembly: the steps are the Go loops.

func leakyRelu32(d []float32, a float32)             { leakyReluGo(d, a) }
func leakyMax32(d []float32, a, c float32)           { leakyMaxGo(d, a, c) }
func sigmoid32s(d []float32)                         { sigmoidGo(d) }
func binConst32(code int, d, x []float32, c float32) { binConstGo(code, d, x, c) }

// sigmoidTo32 sets d[i] = sigmoid32(x[i]); d may be x.
func sigmoidTo32(d, x []float32) {
	copy(d, x[:len(d)])
	sigmoidGo(d)
}
