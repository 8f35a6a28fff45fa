//go:build amd64 && !purego

package cpu

//go:noescape
func addMulVecAVX(mul bool, d, a, b *float32, n int)

//go:noescape
func addMulScalarAVX(mul bool, d, a *float32, n int, c float32)

// arithRow32 runs float32 Add and Mul rows with a contiguous a and a
// contiguous or scalar b, and Sub and Div rows of a row and a scalar
// (either side), in AVX, the same IEEE operations as arithRow;
// it reports false, doing nothing, for any other row.
func arithRow32(op binOp, d, a, b []float32, sa, sb int) bool {
	if hasAVX && (op == opSub || op == opDiv) && len(d) >= 8 {
		// x op c and c op x: binConstAVX's IEEE operations.
		switch {
		case sa == 1 && sb == 0:
			binConst32(binConstCode(op, false), d, a, b[0])
			return true
		case sa == 0 && sb == 1:
			binConst32(binConstCode(op, true), d, b, a[0])
			return true
		case sa == 1 && sb == 1:
			subDiv32(op == opDiv, d, a, b)
			return true
		}
	}
	if !hasAVX || (op != opAdd && op != opMul) || sa != 1 || (sb != 0 && sb != 1) || len(d) < 8 {
		return false
	}
	mul := op == opMul
	n := len(d)
	a = a[:n]
	if sb == 1 {
		b = b[:n]
		m := n &^ 7
		addMulVecAVX(mul, &d[0], &a[0], &b[0], m)
		arithRow(op, d[m:], a[m:], b[m:], 1, 1)
		return true
	}
	m := n &^ 7
	addMulScalarAVX(mul, &d[0], &a[0], m, b[0])
	arithRow(op, d[m:], a[m:], b, 1, 0)
	return true
}

// mulConst32 sets d[i] *= c, in AVX where the CPU has it.
func mulConst32(d []float32, c float32) {
	if n := avxSplit(d); n > 0 {
		addMulScalarAVX(true, &d[0], &d[0], n, c)
		d = d[n:]
	}
	mulConstGo(d, c)
}
