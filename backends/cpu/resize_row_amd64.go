//go:build amd64 && !purego

package cpu

//go:noescape
func bilinearRowAVX(row, r1, r2 *float32, x1, x2 *int32, wx2, wx1 *float32, n int, dy2, dy1 float32)

// bilinearRow32 is bilinearRowGo, with AVX2 gathers over the whole
// eights where the CPU has them, the same bits.
func bilinearRow32(row, r1, r2 []float32, x1, x2 []int32, wx2, wx1 []float32, dy2, dy1 float32) {
	if n := avxSplit(row); n > 0 {
		bilinearRowAVX(&row[0], &r1[0], &r2[0], &x1[0], &x2[0], &wx2[0], &wx1[0], n, dy2, dy1)
		row, x1, x2, wx2, wx1 = row[n:], x1[n:], x2[n:], wx2[n:], wx1[n:]
	}
	bilinearRowGo(row, r1, r2, x1, x2, wx2, wx1, dy2, dy1)
}
