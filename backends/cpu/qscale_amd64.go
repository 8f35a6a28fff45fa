//go:build amd64 && !purego

package cpu

//go:noescape
func qScaleRowAVX2(y *float32, acc *int32, mult, bias *float32, n, multStep int)

// qScaleRow writes one row of qScaleOut, y[j] = float32(acc[j])·mult[j]
// (+ bias[j]), mult one value or one a column, bias nil or one a column:
// by AVX2 eight columns at a time where the CPU has it, the rest by
// qScaleRowGo.
func qScaleRow(y []float32, acc []int32, mult, bias []float32) {
	n := len(acc) &^ 7
	if !hasAVX2FMA || n == 0 {
		qScaleRowGo(y, acc, mult, bias)
		return
	}
	_ = y[n-1]
	var one [8]float32
	mp, step := &one[0], 0
	if len(mult) == 1 {
		for i := range one {
			one[i] = mult[0]
		}
	} else {
		_ = mult[n-1]
		mp, step = &mult[0], 32
	}
	var bp *float32
	if bias != nil {
		_ = bias[n-1]
		bp = &bias[0]
	}
	qScaleRowAVX2(&y[0], &acc[0], mp, bp, n, step)
	if n == len(acc) {
		return
	}
	if len(mult) > 1 {
		mult = mult[n:]
	}
	if bias != nil {
		bias = bias[n:]
	}
	qScaleRowGo(y[n:], acc[n:], mult, bias)
}
