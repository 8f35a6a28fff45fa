package cpu

// The Go twins of ewstep_amd64.s, and the loops every build runs for the
// tails the assembly leaves. Products are rounded (float32(x*y)) so that
// no build fuses them into an FMA.

// leakyReluGo is LeakyRelu, as unaryFloat computes it.
func leakyReluGo(d []float32, a float32) {
	for i, v := range d {
		if v < 0 {
			d[i] = float32(v * a)
		}
	}
}

// sigmoidGo is sigmoid32 on every element.
func sigmoidGo(d []float32) {
	for i, v := range d {
		d[i] = sigmoid32(v)
	}
}

// binConst ops: which side the constant is on, and the operation.
const (
	bcSub = iota
	bcRSub
	bcDiv
	bcRDiv
	bcAdd
	bcMul
)

// binConstCode returns op's binConstAVX code with the constant first or
// second, or -1 for an op it lacks.
func binConstCode(op binOp, first bool) int {
	switch op {
	case opAdd:
		return bcAdd
	case opMul:
		return bcMul
	case opSub:
		if first {
			return bcRSub
		}
		return bcSub
	case opDiv:
		if first {
			return bcRDiv
		}
		return bcDiv
	}
	return -1
}

// binConstGo is binConstAVX's twin: d[i] = x[i] op c, or c op x[i].
func binConstGo(code int, d, x []float32, c float32) {
	x = x[:len(d)]
	switch code {
	case bcSub:
		for i, v := range x {
			d[i] = v - c
		}
	case bcRSub:
		for i, v := range x {
			d[i] = c - v
		}
	case bcDiv:
		for i, v := range x {
			d[i] = v / c
		}
	case bcRDiv:
		for i, v := range x {
			d[i] = c / v
		}
	case bcAdd:
		for i, v := range x {
			d[i] = v + c
		}
	case bcMul:
		for i, v := range x {
			d[i] = float32(v * c)
		}
	}
}

// constRow32 sets d[i] = x[i] op c (c op x[i] when first) for Add, Sub,
// Mul and Div, and reports false, doing nothing, for another op.
func constRow32(op binOp, first bool, d, x []float32, c float32) bool {
	code := binConstCode(op, first)
	if code < 0 {
		return false
	}
	binConst32(code, d, x, c)
	return true
}
