//go:build amd64 && !purego

package cpu

import "unsafe"

// dup2x32AVX is dup2Go on n 4-byte words, n a multiple of 8
// (dup2_amd64.s).
//
//go:noescape
func dup2x32AVX(d, s unsafe.Pointer, n int)

// dup2 is dup2Go, in AVX for 4-byte words where the CPU has it.
func dup2[W word](d, s []W) {
	var z W
	if unsafe.Sizeof(z) == 4 && hasAVX {
		if n := len(s) &^ 7; n > 0 {
			d = d[:2*len(s)]
			dup2x32AVX(unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0]), n)
			d, s = d[2*n:], s[n:]
		}
	}
	dup2Go(d, s)
}

// dup2Rows32ManyAVX is dup2x32AVX on rows rows of n 4-byte words, n a
// multiple of 8, each row doubled into the two output rows after the
// previous row's (dup2_amd64.s).
//
//go:noescape
func dup2Rows32ManyAVX(d, s unsafe.Pointer, rows, n int)

// dup2RowsMany doubles each of rows rows of w words of s into two rows of
// 2w words of d, one after another (source row r to rows 2r and 2r+1):
// in one call for 4-byte words and w a multiple of 8 where the CPU has
// AVX, else row by row (dup2RowsManyGo).
func dup2RowsMany[W word](d, s []W, rows, w int) {
	if rows <= 0 {
		return
	}
	var z W
	if unsafe.Sizeof(z) == 4 && hasAVX && w%8 == 0 && w > 0 {
		_, _ = d[4*w*rows-1], s[w*rows-1]
		dup2Rows32ManyAVX(unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0]), rows, w)
		return
	}
	dup2RowsManyGo(d, s, rows, w)
}

// interleave2AddAVX is interleave2AddGo on n elements of a and b, n a
// multiple of 8 (dup2_amd64.s).
//
//go:noescape
func interleave2AddAVX(d, a, b *float32, n int, bias float32)

// interleave2Add is interleave2AddGo, in AVX where the CPU has it.
func interleave2Add(d, a, b []float32, bias float32) {
	b = b[:len(a)]
	if n := len(a) &^ 7; n > 0 && hasAVX {
		d = d[:2*len(a)]
		interleave2AddAVX(&d[0], &a[0], &b[0], n, bias)
		d, a, b = d[2*n:], a[n:], b[n:]
	}
	interleave2AddGo(d, a, b, bias)
}
