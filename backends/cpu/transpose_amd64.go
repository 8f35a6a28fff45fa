//go:build amd64 && !purego

package cpu

//go:noescape
func transposeBlocksAVX(dst, src *float32, r, c, rb, cb int)

// transposeInto sets dst (c×r) to the transpose of src (r×c): the whole
// 8×8 blocks in assembly where the CPU has AVX2, the edges as
// transposeGo does.
func transposeInto(dst, src []float32, r, c int) {
	if !hasAVX2FMA || r < 8 || c < 8 {
		transposeGo(dst, src, r, c)
		return
	}
	dst, src = dst[:r*c], src[:r*c]
	rb, cb := r/8, c/8
	transposeBlocksAVX(&dst[0], &src[0], r, c, rb, cb)
	transposeEdges(dst, src, r, c, 8*rb, 8*cb)
}
