//go:build !amd64 || purego

package cpu

// affine32 is affineGo: this build has no assembly.
func affine32(d, x []float32, a, b float32) { affineGo(d, x, a, b) }
