//go:build (!amd64 && !arm64) || purego

package cpu

// maxPool2x2S2 computes nothing here: this build has no assembly.
func maxPool2x2S2(dst, r0, r1 []float32, lowest float32) int { return 0 }

// maxPool2x2S2Rows computes nothing here: this build has no assembly.
func maxPool2x2S2Rows(dst, x []float32, n, rows, iw int, lowest float32) bool { return false }

// maxPool2x2S2RowsFits reports false: this build has no assembly.
func maxPool2x2S2RowsFits(n int) bool { return false }
