//go:build amd64 && !purego

package cpu

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
	mp, step, bp := qScaleArgs(&one, mult, bias, n)
	qScaleRowsAVX2(&y[0], &acc[0], n, 1, mp, bp, n, step)
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

// qScaleArgs returns the scaling kernels' multiplier pointer and step
// and bias pointer for rows of n columns: one multiplier is spread over
// one (the caller's), columns' multipliers are read in place with a step
// of 32 bytes; bias is nil or read in place.
func qScaleArgs(one *[8]float32, mult, bias []float32, n int) (mp *float32, step int, bp *float32) {
	mp = &one[0]
	if len(mult) == 1 {
		for i := range one {
			one[i] = mult[0]
		}
	} else {
		_ = mult[n-1]
		mp, step = &mult[0], 32
	}
	if bias != nil {
		_ = bias[n-1]
		bp = &bias[0]
	}
	return mp, step, bp
}

//go:noescape
func qScaleRowsAVX2(y *float32, acc *int32, ld, rows int, mult, bias *float32, n, multStep int)

// qScaleRowsInPlace turns rows rows of n int32 sums of c, ld apart, into
// float32 values in the same bytes, as qScaleRow computes them (mult one
// value or one a column of the rows, bias nil or one a column): by AVX2
// where the CPU has it, the columns past a multiple of 8 by qScaleRowGo.
func qScaleRowsInPlace(c []int32, ld, rows, n int, mult, bias []float32) {
	n8 := n &^ 7
	if !hasAVX2FMA || n8 == 0 || rows <= 0 {
		qScaleRowsGo(c, ld, rows, n, mult, bias)
		return
	}
	_ = c[(rows-1)*ld+n-1]
	y := f32Alias(c)
	var one [8]float32
	mp, step, bp := qScaleArgs(&one, mult, bias, n)
	qScaleRowsAVX2(&y[0], &c[0], ld, rows, mp, bp, n8, step)
	if n8 == n {
		return
	}
	if len(mult) > 1 {
		mult = mult[n8:]
	}
	if bias != nil {
		bias = bias[n8:]
	}
	qScaleRowsGo(c[n8:], ld, rows, n-n8, mult, bias)
}
