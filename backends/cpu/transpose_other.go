//go:build !amd64 || purego

package cpu

// transposeInto sets dst (c×r) to the transpose of src (r×c).
func transposeInto(dst, src []float32, r, c int) { transposeStridedGo(dst, src, r, c, r, c) }

// transposeStrided is transposeStridedGo.
func transposeStrided(dst, src []float32, r, c, ldd, lds int) {
	transposeStridedGo(dst, src, r, c, ldd, lds)
}
