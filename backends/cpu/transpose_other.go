//go:build !amd64 || purego

package cpu

// transposeInto sets dst (c×r) to the transpose of src (r×c).
func transposeInto(dst, src []float32, r, c int) { transposeGo(dst, src, r, c) }
