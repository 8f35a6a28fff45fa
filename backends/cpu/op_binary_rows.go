package cpu

import "math"

// binOp names an elementwise binary operation.
type binOp uint8

const (
	opAdd binOp = iota
	opSub
	opMul
	opDiv
	opMin
	opMax
	opMod  // integer modulo with the divisor's sign (Mod, fmod=0)
	opFMod // C fmod: the dividend's sign (Mod, fmod=1)
	opPow
)

// rowPattern classifies a row's operand strides: 0 both read element by
// element, 1 a is one broadcast value, 2 b is one broadcast value, 3 any
// other combination (read with the strides).
func rowPattern(sa, sb int) int {
	switch {
	case sa == 1 && sb == 1:
		return 0
	case sa == 0 && sb == 1:
		return 1
	case sa == 1 && sb == 0:
		return 2
	}
	return 3
}

// arithRow computes d[i] = a[i*sa] op b[i*sb] for the operations every
// number type has: Add, Sub, Mul, Min, Max, and Div on floats. It reports
// false for an operation it does not do.
func arithRow[T ewNum](op binOp, d, a, b []T, sa, sb int) bool {
	n := len(d)
	p := rowPattern(sa, sb)
	switch p {
	case 0:
		a, b = a[:n], b[:n]
	case 1:
		b = b[:n]
	case 2:
		a = a[:n]
	}
	switch op {
	case opAdd:
		switch p {
		case 0:
			for i := range d {
				d[i] = a[i] + b[i]
			}
		case 1:
			x := a[0]
			for i := range d {
				d[i] = x + b[i]
			}
		case 2:
			y := b[0]
			for i := range d {
				d[i] = a[i] + y
			}
		default:
			for i := range d {
				d[i] = a[i*sa] + b[i*sb]
			}
		}
	case opSub:
		switch p {
		case 0:
			for i := range d {
				d[i] = a[i] - b[i]
			}
		case 1:
			x := a[0]
			for i := range d {
				d[i] = x - b[i]
			}
		case 2:
			y := b[0]
			for i := range d {
				d[i] = a[i] - y
			}
		default:
			for i := range d {
				d[i] = a[i*sa] - b[i*sb]
			}
		}
	case opMul:
		switch p {
		case 0:
			for i := range d {
				d[i] = a[i] * b[i]
			}
		case 1:
			x := a[0]
			for i := range d {
				d[i] = x * b[i]
			}
		case 2:
			y := b[0]
			for i := range d {
				d[i] = a[i] * y
			}
		default:
			for i := range d {
				d[i] = a[i*sa] * b[i*sb]
			}
		}
	case opDiv: // floats only: integer division is intDivRow
		switch p {
		case 0:
			for i := range d {
				d[i] = a[i] / b[i]
			}
		case 1:
			x := a[0]
			for i := range d {
				d[i] = x / b[i]
			}
		case 2:
			y := b[0]
			for i := range d {
				d[i] = a[i] / y
			}
		default:
			for i := range d {
				d[i] = a[i*sa] / b[i*sb]
			}
		}
	case opMin: // the builtin propagates NaN, as ONNX Runtime does
		for i := range d {
			d[i] = min(a[i*sa], b[i*sb])
		}
	case opMax:
		for i := range d {
			d[i] = max(a[i*sa], b[i*sb])
		}
	default:
		return false
	}
	return true
}

// intDivRow computes integer Div and Mod rows. Division truncates toward
// zero as in C; a zero divisor gives 0 instead of trapping. opMod takes the
// divisor's sign (Python's %), opFMod the dividend's (C's %).
func intDivRow[T ewInt](op binOp, d, a, b []T, sa, sb int) {
	switch op {
	case opDiv:
		for i := range d {
			x, y := a[i*sa], b[i*sb]
			if y == 0 {
				d[i] = 0
				continue
			}
			d[i] = x / y
		}
	case opFMod:
		for i := range d {
			x, y := a[i*sa], b[i*sb]
			if y == 0 {
				d[i] = 0
				continue
			}
			d[i] = x % y
		}
	case opMod:
		for i := range d {
			x, y := a[i*sa], b[i*sb]
			if y == 0 {
				d[i] = 0
				continue
			}
			m := x % y
			if m != 0 && (m < 0) != (y < 0) {
				m += y
			}
			d[i] = m
		}
	}
}

// floatModRow computes Mod with fmod=1 on floats: C's fmod.
func floatModRow[T ewFloat](d, a, b []T, sa, sb int) {
	for i := range d {
		d[i] = T(math.Mod(float64(a[i*sa]), float64(b[i*sb])))
	}
}

// ipow returns x**e for integers by repeated squaring; a negative exponent
// gives the truncated real result (0 unless |x| is 1).
func ipow(x, e int64) int64 {
	if e < 0 {
		switch x {
		case 1:
			return 1
		case -1:
			if e&1 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for e > 0 {
		if e&1 != 0 {
			r *= x
		}
		x *= x
		e >>= 1
	}
	return r
}

// powRowF computes a float base to any real exponent.
func powRowF[B ewFloat, E ewNum](d, a []B, b []E, sa, sb int) {
	if sb == 0 && len(d) > 0 {
		switch e := float64(b[0]); e {
		case 1:
			for i := range d {
				d[i] = a[i*sa]
			}
			return
		case 2:
			for i := range d {
				x := a[i*sa]
				d[i] = x * x
			}
			return
		case 3:
			for i := range d {
				x := a[i*sa]
				d[i] = x * x * x
			}
			return
		case 0.5:
			for i := range d {
				d[i] = B(math.Sqrt(float64(a[i*sa])))
			}
			return
		}
	}
	for i := range d {
		d[i] = B(math.Pow(float64(a[i*sa]), float64(b[i*sb])))
	}
}

// powRowI computes an integer base to an integer exponent exactly, and to
// a float exponent through float64, truncating toward zero.
func powRowI[B ewInt, E ewNum](d, a []B, b []E, sa, sb int) {
	var z E
	if isFloatVal(z) {
		for i := range d {
			d[i] = B(math.Pow(float64(a[i*sa]), float64(b[i*sb])))
		}
		return
	}
	for i := range d {
		d[i] = B(ipow(int64(a[i*sa]), int64(b[i*sb])))
	}
}

// isFloatVal reports whether E is a floating-point type: 0.5 survives the
// round trip through E only then.
func isFloatVal[E ewNum](_ E) bool {
	h := 0.5
	return float64(E(h)) == 0.5
}

// mulConstGo sets d[i] *= c.
func mulConstGo(d []float32, c float32) {
	for i := range d {
		d[i] *= c
	}
}
