//go:build amd64 && !purego

package cpu

//go:noescape
func maxPool2x2S2AVX(dst *float32, n int, r0, r1 *float32, lowest float32)

// maxPool2x2S2 is maxPool2x2 with stride 2 for float32, in AVX where the
// CPU has it; it returns how many leading outputs it computed.
func maxPool2x2S2(dst, r0, r1 []float32, lowest float32) int {
	n := avxSplit(dst)
	if n == 0 {
		return 0
	}
	_, _ = r0[2*n-1], r1[2*n-1]
	maxPool2x2S2AVX(&dst[0], n, &r0[0], &r1[0], lowest)
	return n
}
