package cpu

// lnSums8Go is lnSums8's loop: the sums layerNormRun computes for each
// of eight rows.
func lnSums8Go(x []float32, n, stride int, sum, sq *[8]float32) {
	for r := range 8 {
		var s, q float32
		for _, v := range x[r*stride:][:n] {
			s += v
			q += float32(v * v)
		}
		sum[r], sq[r] = s, q
	}
}
