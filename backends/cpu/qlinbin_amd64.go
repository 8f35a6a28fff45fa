//go:build amd64 && !purego

package cpu

//go:noescape
func qAdd2AVX2(y, xa, xb *byte, n int, ra, rb, f float32, signed bool)

//go:noescape
func qAdd1AVX2(y, x *byte, n int, r, f float32, signed bool)

//go:noescape
func qMul2AVX2(y, xa, xb *byte, n int, za, zb int32, ratio, zc float32, signed bool)

//go:noescape
func qMul1AVX2(y, x *byte, n int, z, c int32, ratio, zc float32, signed bool)

// hasQLinBin reports whether the QLinearAdd and QLinearMul row kernels
// run here (AVX2 with FMA).
var hasQLinBin = hasAVX2FMA

// qAdd2Rows writes y[i] = qaddBoth's byte for xa[i], xb[i] (ra, rb the
// ratios, f the fixed part) on the longest prefix of y that is a
// multiple of 32 and returns its length; 0 where the kernels do not run.
func qAdd2Rows(y, xa, xb []byte, ra, rb, f float32, signed bool) int {
	n := len(y) &^ 31
	if !hasQLinBin || n == 0 {
		return 0
	}
	_, _ = xa[n-1], xb[n-1]
	qAdd2AVX2(&y[0], &xa[0], &xb[0], n, ra, rb, f, signed)
	return n
}

// qAdd1Rows writes y[i] = the byte of fma(x[i], r, f) as qAdd2Rows.
func qAdd1Rows(y, x []byte, r, f float32, signed bool) int {
	n := len(y) &^ 31
	if !hasQLinBin || n == 0 {
		return 0
	}
	_ = x[n-1]
	qAdd1AVX2(&y[0], &x[0], n, r, f, signed)
	return n
}

// qMul2Rows writes y[i] = qmulOne's byte for (xa[i]-za)·(xb[i]-zb) as
// qAdd2Rows.
func qMul2Rows(y, xa, xb []byte, za, zb int32, ratio, zc float32, signed bool) int {
	n := len(y) &^ 31
	if !hasQLinBin || n == 0 {
		return 0
	}
	_, _ = xa[n-1], xb[n-1]
	qMul2AVX2(&y[0], &xa[0], &xb[0], n, za, zb, ratio, zc, signed)
	return n
}

// qMul1Rows writes y[i] = qmulOne's byte for (x[i]-z)·c as qAdd2Rows.
func qMul1Rows(y, x []byte, z, c int32, ratio, zc float32, signed bool) int {
	n := len(y) &^ 31
	if !hasQLinBin || n == 0 {
		return 0
	}
	_ = x[n-1]
	qMul1AVX2(&y[0], &x[0], n, z, c, ratio, zc, signed)
	return n
}
