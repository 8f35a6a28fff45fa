//go:build !amd64 || purego

package cpu

// bilinearRow32 is bilinearRowGo: this build has no assembly for it.
func bilinearRow32(row, r1, r2 []float32, x1, x2 []int32, wx2, wx1 []float32, dy2, dy1 float32, _ *bilinearWin) {
	bilinearRowGo(row, r1, r2, x1, x2, wx2, wx1, dy2, dy1)
}
