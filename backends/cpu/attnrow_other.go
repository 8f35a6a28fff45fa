//go:build !amd64 || purego

package cpu

// attnRowMax returns the largest score of row that is not NaN (-inf when
// none) and whether any score is NaN or below -MaxFloat32.
func attnRowMax(row []float32) (m float32, nan, ninf bool) { return attnRowMaxGo(row) }
