//go:build amd64 && !purego

package cpu

//go:noescape
func lnSums8AVX(x *float32, n, stride int, sum, sq *[8]float32)

// lnSums8 sets sum[r] and sq[r] to the float32 sum and sum of squares of
// row r of the eight rows x[r·stride:][:n], each added in order (see
// lnSums8Go). It reports false, doing nothing, where there is no vector
// loop or the offsets do not fit its 32-bit gather.
func lnSums8(x []float32, n, stride int, sum, sq *[8]float32) bool {
	if !hasAVX || n < 1 || 7*stride+n > len(x) || 7*stride > 1<<28 {
		return false
	}
	lnSums8AVX(&x[0], n, stride, sum, sq)
	return true
}
