//go:build amd64 && !purego

package cpu

import "fmt"

//go:noescape
func transposeBlocksAVX(dst, src *float32, ldd, lds, rb, cb int)

// transposeInto sets dst (c×r) to the transpose of src (r×c).
func transposeInto(dst, src []float32, r, c int) { transposeStrided(dst, src, r, c, r, c) }

// transposeStrided sets dst[j*ldd+i] = src[i*lds+j] for i < r, j < c:
// the whole 8×8 blocks in assembly where the CPU has AVX2, the edges as
// transposeStridedGo does.
func transposeStrided(dst, src []float32, r, c, ldd, lds int) {
	if r <= 0 || c <= 0 {
		return
	}
	if len(src) < (r-1)*lds+c || len(dst) < (c-1)*ldd+r || ldd < r || lds < c {
		panic(fmt.Sprintf("transpose: %d×%d from %d floats %d apart into %d floats %d apart", r, c, len(src), lds, len(dst), ldd))
	}
	if !hasAVX2FMA || r < 8 || c < 8 {
		transposeStridedGo(dst, src, r, c, ldd, lds)
		return
	}
	rb, cb := r/8, c/8
	transposeBlocksAVX(&dst[0], &src[0], ldd, lds, rb, cb)
	transposeEdges(dst, src, r, c, ldd, lds, 8*rb, 8*cb)
}

// transposeEdges sets dst[j*ldd+i] = src[i*lds+j] for the cells of src
// (r×c) outside its top-left r0×c0 corner: the rows from r0 and, above
// them, the columns from c0.
func transposeEdges(dst, src []float32, r, c, ldd, lds, r0, c0 int) {
	for i := range r {
		j0 := c0
		if i >= r0 {
			j0 = 0
		}
		row := src[i*lds+j0 : i*lds+c]
		for j, v := range row {
			dst[(j0+j)*ldd+i] = v
		}
	}
}
