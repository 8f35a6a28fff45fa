//go:build amd64 && !purego

package cpu

//go:noescape
func ewMathAVX(op ewmOp, d, x *float32, n int)

// ewExpZ is ewMathAVX's exp with AVX-512 on a multiple of 32 elements,
// the same bits.
//
//go:noescape
func ewExpZ(d, x *float32, n int)

// tanhZ is ewMathAVX's tanh with AVX-512 on a multiple of 16 elements,
// the same bits.
//
//go:noescape
func tanhZ(d, x *float32, n int)

//go:noescape
func maxNaNAVX(x *float32, n int) (m float32, nan bool)

//go:noescape
func lerpAVX(d, a, b *float32, n int, wa, wb float32)

//go:noescape
func subDivVecAVX(div bool, d, a, b *float32, n int)

// ewMath32 sets d[i] = f(x[i]) for op's f (ewMathGo); d may be x.
// Where the CPU has AVX2 every element runs in the assembly, a tail of
// fewer than 8 through a padded stack block, so that results do not
// depend on where a slice is split; exp runs 32 at a time and tanh 16
// with AVX-512 where 512-bit vectors run at full width, the same bits.
func ewMath32(op ewmOp, d, x []float32) {
	x = x[:len(d)]
	if op == ewmErf {
		// erf32s is the one vector erf (erf32_amd64.s), its tail in
		// erfGo, bit for bit.
		copy(d, x)
		erf32s(d)
		return
	}
	if !hasAVX {
		ewMathGo(op, d, x)
		return
	}
	if n := len(d) &^ 31; op == ewmExp && wide512 && n > 0 {
		ewExpZ(&d[0], &x[0], n)
		d, x = d[n:], x[n:]
	}
	if n := len(d) &^ 15; op == ewmTanh && wide512 && n > 0 {
		tanhZ(&d[0], &x[0], n)
		d, x = d[n:], x[n:]
	}
	if n := avxSplit(d); n > 0 {
		ewMathAVX(op, &d[0], &x[0], n)
		d, x = d[n:], x[n:]
	}
	if len(d) == 0 {
		return
	}
	var t [8]float32
	copy(t[:], x)
	ewMathAVX(op, &t[0], &t[0], len(t))
	copy(d, t[:len(d)])
}

// maxNaN32 returns the largest of x and whether x holds a NaN (the
// maximum is then unspecified).
func maxNaN32(x []float32) (float32, bool) {
	if n := avxSplit(x); n > 0 {
		m, nan := maxNaNAVX(&x[0], n)
		if n == len(x) {
			return m, nan
		}
		// The tail as the last 8 elements, overlapping the vectors
		// already seen.
		m2, nan2 := maxNaNAVX(&x[len(x)-8], 8)
		return max(m, m2), nan || nan2
	}
	return maxNaNGo(x)
}

// subDiv32 sets d[i] = a[i] - b[i], or a[i] / b[i] when div.
func subDiv32(div bool, d, a, b []float32) {
	a, b = a[:len(d)], b[:len(d)]
	if n := avxSplit(d); n > 0 {
		subDivVecAVX(div, &d[0], &a[0], &b[0], n)
		d, a, b = d[n:], a[n:], b[n:]
	}
	subDivGo(div, d, a, b)
}

// lerp32 sets d[i] = wa*a[i] + wb*b[i] as lerpGo does; d may be a or b.
func lerp32(d, a, b []float32, wa, wb float32) {
	a, b = a[:len(d)], b[:len(d)]
	if n := avxSplit(d); n > 0 {
		lerpAVX(&d[0], &a[0], &b[0], n, wa, wb)
		d, a, b = d[n:], a[n:], b[n:]
	}
	lerpGo(d, a, b, wa, wb)
}
