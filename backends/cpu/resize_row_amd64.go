//go:build amd64 && !purego

package cpu

//go:noescape
func bilinearRowAVX(row, r1, r2 *float32, x1, x2 *int32, wx2, wx1 *float32, n int, dy2, dy1 float32)

//go:noescape
func bilinearRowPermAVX(row, r1, r2 *float32, b1, b2, p1, p2 *int32, wx2, wx1 *float32, groups int, dy2, dy1 float32)

//go:noescape
func bilinearRowPerm16AVX(row, r1, r2 *float32, b1, b2, p1, p2 *int32, wx2, wx1 *float32, groups int, dy2, dy1 float32)

// bilinearRow32 is bilinearRowGo, the same bits, where the CPU has AVX2:
// the first w.groups groups of eight columns as permutations of windows
// (w from bilinearWindows), the rest of the whole eights with gathers.
func bilinearRow32(row, r1, r2 []float32, x1, x2 []int32, wx2, wx1 []float32, dy2, dy1 float32, w *bilinearWin) {
	if hasAVX && w.groups > 0 {
		n := 8 * w.groups
		perm := bilinearRowPermAVX
		if w.span > 8 {
			perm = bilinearRowPerm16AVX
		}
		perm(&row[0], &r1[0], &r2[0], &w.b1[0], &w.b2[0], &w.p1[0], &w.p2[0], &wx2[0], &wx1[0], w.groups, dy2, dy1)
		row, x1, x2, wx2, wx1 = row[n:], x1[n:], x2[n:], wx2[n:], wx1[n:]
	}
	if n := avxSplit(row); n > 0 {
		bilinearRowAVX(&row[0], &r1[0], &r2[0], &x1[0], &x2[0], &wx2[0], &wx1[0], n, dy2, dy1)
		row, x1, x2, wx2, wx1 = row[n:], x1[n:], x2[n:], wx2[n:], wx1[n:]
	}
	bilinearRowGo(row, r1, r2, x1, x2, wx2, wx1, dy2, dy1)
}
