//go:build amd64 && !purego

package cpu

//go:noescape
func skipSumAVX(y, x, skip, bias *float32, n int, sums *[2]float64)

// skipSum sets y = x + skip (+ bias, when not nil) in float32 and
// returns the float64 sum of y and the float64 sum of the float32
// squares y[i]·y[i], as ONNX Runtime's SkipLayerNormalization sums them:
// in AVX where the CPU has it (skipSumAVX's order), else skipSumGo's.
func skipSum(y, x, skip, bias []float32) (s, sq float64) {
	n := len(y) &^ 7
	if !hasAVX || n == 0 {
		return skipSumGo(y, x, skip, bias)
	}
	x, skip = x[:len(y)], skip[:len(y)]
	var bp *float32
	if bias != nil {
		bias = bias[:len(y)]
		bp = &bias[0]
	}
	var sums [2]float64
	skipSumAVX(&y[0], &x[0], &skip[0], bp, n, &sums)
	var tb []float32
	if bias != nil {
		tb = bias[n:]
	}
	ts, tq := skipSumGo(y[n:], x[n:], skip[n:], tb)
	return sums[0] + ts, sums[1] + tq
}
