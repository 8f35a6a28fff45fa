package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// uop names the unary operations that have a dedicated loop; uFn runs a
// mathFn per element.
type uop uint8

const (
	uFn uop = iota
	uNeg
	uAbs
	uSign
	uRelu
	uFloor
	uCeil
	uReciprocal
	uLeakyRelu
	uThresholdedRelu
	uHardSigmoid
	uHardSwish
	uSoftsign
	uNot
	uSigmoid
	uErf      // float32: erf32
	uGelu     // Gelu's exact form; float32: gelu32s
	uExp      // float32: ewMath32
	uTanh     // float32: ewMath32
	uSoftplus // float32: ewMath32
)

// unaryKernel runs the elementwise unary math and activation functions;
// the output's shape is the input's, from the descriptor's rule
// (model.UnaryAttrs).
type unaryKernel struct {
	n  *model.Node
	op uop
	fn mathFn
	dt payload.DType
	// a and b are the op's float attributes (alpha, beta or gamma).
	a, b float64
	// gc holds the model's pool, which large float32 vector loops split
	// across; d and x are the current call's, for runPart.
	gc   *gemmCtx
	d, x []float32
}

// unaryParts returns how many threads a float32 vector loop over n
// elements takes.
func (k *unaryKernel) unaryParts(n int) int {
	if k.gc == nil || k.gc.pool == nil {
		return 1
	}
	return max(1, min(k.gc.pool.size(), n/ewParallelMin))
}

// runPart runs one thread's share of the vector loop, whole blocks.
func (k *unaryKernel) runPart(part int) {
	n := len(k.d)
	parts := k.unaryParts(n)
	blocks := (n + ewBlock - 1) / ewBlock
	lo := min(part*blocks/parts*ewBlock, n)
	hi := min((part+1)*blocks/parts*ewBlock, n)
	unaryVec32(k, k.d[lo:hi], k.x[lo:hi])
}

func (k *unaryKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		d, x := out[0].f32(), in[0].f32()
		if parts := k.unaryParts(len(d)); parts > 1 && unaryVecOp(k.op) {
			k.d, k.x = d, x[:len(d)]
			k.gc.pool.run(k, parts)
			k.d, k.x = nil, nil
			return nil
		}
		if unaryVec32(k, d, x) {
			return nil
		}
		unaryFloat(k, d, x)
	case payload.Float64:
		unaryFloat(k, out[0].f64(), in[0].f64())
	case payload.Int32:
		unaryInt(k.op, out[0].i32(), in[0].i32())
	case payload.Int64:
		unaryInt(k.op, out[0].i64(), in[0].i64())
	case payload.Int8:
		unaryInt(k.op, elems[int8](out[0]), elems[int8](in[0]))
	case payload.Int16:
		unaryInt(k.op, elems[int16](out[0]), elems[int16](in[0]))
	case payload.Uint8:
		unaryUint(k.op, out[0].u8(), in[0].u8())
	case payload.Uint16:
		unaryUint(k.op, elems[uint16](out[0]), elems[uint16](in[0]))
	case payload.Uint32:
		unaryUint(k.op, elems[uint32](out[0]), elems[uint32](in[0]))
	case payload.Uint64:
		unaryUint(k.op, elems[uint64](out[0]), elems[uint64](in[0]))
	case payload.Bool:
		d, x := out[0].bools(), in[0].bools()
		for i := range d {
			d[i] = !x[i]
		}
	}
	return nil
}

// unaryVec32 runs the float32 ops that have a vector loop (ewmath.go,
// ewstep.go, epilogue.go): from x to d for ewMath32's, else block by
// block, a copy of x then the loop in place, both in L1. It reports false
// for the other ops.
func unaryVec32(k *unaryKernel, d, x []float32) bool {
	if !unaryVecOp(k.op) {
		return false
	}
	x = x[:len(d)]
	if op, ok := ewmOf(k.op); ok {
		ewMath32(op, d, x)
		return true
	}
	switch k.op {
	case uRelu:
		reluTo32(d, x)
		return true
	case uSigmoid:
		sigmoidTo32(d, x)
		return true
	}
	for b0 := 0; b0 < len(d); b0 += ewBlock {
		b1 := min(b0+ewBlock, len(d))
		blk := d[b0:b1]
		copy(blk, x[b0:b1])
		switch k.op {
		case uLeakyRelu:
			leakyRelu32(blk, float32(k.a))
		case uHardSigmoid:
			actHardSigmoid32(blk, float32(k.a), float32(k.b))
		case uHardSwish:
			actHardSwish32(blk)
		case uGelu:
			gelu32s(blk)
		}
	}
	return true
}

// unaryVecOp reports whether op has a float32 vector loop.
func unaryVecOp(op uop) bool {
	switch op {
	case uSigmoid, uRelu, uLeakyRelu, uHardSigmoid, uHardSwish, uErf, uGelu, uExp, uTanh, uAbs, uNeg, uSoftplus:
		return true
	}
	return false
}

// ewmOf returns the ewMath32 function of op, if it has one.
func ewmOf(op uop) (ewmOp, bool) {
	switch op {
	case uExp:
		return ewmExp, true
	case uTanh:
		return ewmTanh, true
	case uErf:
		return ewmErf, true
	case uAbs:
		return ewmAbs, true
	case uNeg:
		return ewmNeg, true
	case uSoftplus:
		return ewmSoftplus, true
	}
	return 0, false
}

// unaryFloat applies k's operation to x.
func unaryFloat[T ewFloat](k *unaryKernel, d, x []T) {
	x = x[:len(d)]
	switch k.op {
	case uNeg:
		for i := range d {
			d[i] = -x[i]
		}
	case uAbs:
		for i := range d {
			d[i] = T(math.Abs(float64(x[i])))
		}
	case uSign:
		for i, v := range x {
			switch {
			case v > 0:
				d[i] = 1
			case v < 0:
				d[i] = -1
			default:
				d[i] = v // 0, -0 and NaN map to themselves
			}
		}
	case uRelu:
		for i, v := range x {
			if v > 0 {
				d[i] = v
			} else {
				d[i] = 0
			}
		}
	case uFloor:
		for i := range d {
			d[i] = T(math.Floor(float64(x[i])))
		}
	case uCeil:
		for i := range d {
			d[i] = T(math.Ceil(float64(x[i])))
		}
	case uReciprocal:
		for i := range d {
			d[i] = 1 / x[i]
		}
	case uLeakyRelu:
		a := T(k.a)
		for i, v := range x {
			if v < 0 {
				d[i] = v * a
			} else {
				d[i] = v
			}
		}
	case uThresholdedRelu:
		a := T(k.a)
		for i, v := range x {
			if v > a {
				d[i] = v
			} else {
				d[i] = 0
			}
		}
	case uHardSigmoid:
		a, b := T(k.a), T(k.b)
		for i, v := range x {
			d[i] = max(0, min(1, T(a*v)+b))
		}
	case uHardSwish:
		for i, v := range x {
			d[i] = v * max(0, min(1, T(v*(1.0/6))+0.5))
		}
	case uSoftsign:
		for i, v := range x {
			d[i] = v / (1 + T(math.Abs(float64(v))))
		}
	case uSigmoid: // float64; float32 runs sigmoid32
		for i := range d {
			d[i] = T(fnSigmoid(float64(x[i]), 0, 0))
		}
	default:
		f, a, b := k.fn, k.a, k.b
		for i := range d {
			d[i] = T(f(float64(x[i]), a, b))
		}
	}
}

// unaryInt applies Neg, Abs, Sign or Relu to signed integers.
func unaryInt[T ewSigned](op uop, d, x []T) {
	x = x[:len(d)]
	switch op {
	case uNeg:
		for i := range d {
			d[i] = -x[i]
		}
	case uAbs:
		for i, v := range x {
			if v < 0 {
				v = -v
			}
			d[i] = v
		}
	case uSign:
		for i, v := range x {
			switch {
			case v > 0:
				d[i] = 1
			case v < 0:
				d[i] = -1
			default:
				d[i] = 0
			}
		}
	case uRelu:
		for i, v := range x {
			d[i] = max(v, 0)
		}
	}
}

// unaryUint applies Abs or Sign to unsigned integers.
func unaryUint[T uint8 | uint16 | uint32 | uint64](op uop, d, x []T) {
	x = x[:len(d)]
	switch op {
	case uAbs:
		copy(d, x)
	case uSign:
		for i, v := range x {
			d[i] = min(v, 1)
		}
	}
}

// unarySpec describes one unary op type.
type unarySpec struct {
	op uop
	fn mathFn
	// ints allows the signed integer element types, uints the unsigned
	// ones.
	ints, uints bool
}

var unarySpecs = map[string]unarySpec{
	"Neg":             {op: uNeg, ints: true},
	"Abs":             {op: uAbs, ints: true, uints: true},
	"Sign":            {op: uSign, ints: true, uints: true},
	"Relu":            {op: uRelu, ints: true},
	"Floor":           {op: uFloor},
	"Ceil":            {op: uCeil},
	"Reciprocal":      {op: uReciprocal},
	"Softsign":        {op: uSoftsign},
	"HardSwish":       {op: uHardSwish},
	"LeakyRelu":       {op: uLeakyRelu},
	"ThresholdedRelu": {op: uThresholdedRelu},
	"HardSigmoid":     {op: uHardSigmoid},
	"Sqrt":            {fn: fnSqrt},
	"Exp":             {op: uExp, fn: fnExp},
	"Log":             {fn: fnLog},
	"Erf":             {op: uErf, fn: fnErf},
	"Round":           {fn: fnRound},
	"Sin":             {fn: fnSin},
	"Cos":             {fn: fnCos},
	"Tan":             {fn: fnTan},
	"Asin":            {fn: fnAsin},
	"Acos":            {fn: fnAcos},
	"Atan":            {fn: fnAtan},
	"Sinh":            {fn: fnSinh},
	"Cosh":            {fn: fnCosh},
	"Asinh":           {fn: fnAsinh},
	"Acosh":           {fn: fnAcosh},
	"Atanh":           {fn: fnAtanh},
	"Tanh":            {op: uTanh, fn: fnTanh},
	"Sigmoid":         {op: uSigmoid, fn: fnSigmoid},
	"Softplus":        {op: uSoftplus, fn: fnSoftplus},
	"Mish":            {fn: fnMish},
	"Elu":             {fn: fnElu},
	"Celu":            {fn: fnCelu},
	"Selu":            {fn: fnSelu},
	"Shrink":          {fn: fnShrink},
	"Swish":           {fn: fnSwish},
}

// buildUnary returns the kernel for a unary op described by spec, with
// the float attributes a of its descriptor (model.UnaryAttrs).
func buildUnary(c *buildCtx, s unarySpec, a *model.UnaryAttrs) (kernel, error) {
	dt := c.inType(0)
	switch dt {
	case payload.Float32, payload.Float64:
	case payload.Int32, payload.Int64, payload.Int8, payload.Int16:
		if !s.ints {
			return nil, c.unsupported("element type %s", dt)
		}
	case payload.Uint8, payload.Uint16, payload.Uint32, payload.Uint64:
		if !s.uints {
			return nil, c.unsupported("element type %s", dt)
		}
	default:
		return nil, c.unsupported("element type %s", dt)
	}
	return &unaryKernel{n: c.n, op: s.op, fn: s.fn, dt: dt, a: float64(a.Alpha), b: float64(a.Beta), gc: c.gemm}, nil
}

func init() {
	for name, s := range unarySpecs {
		register(name, viaF32(func(c *buildCtx) (kernel, error) { return buildUnary(c, s, c.rule.(*model.UnaryAttrs)) }))
	}
	register("Not", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.Bool {
			return nil, c.unsupported("element type %s (want bool)", c.inType(0))
		}
		return &unaryKernel{n: c.n, op: uNot, dt: payload.Bool}, nil
	})
	register("Gelu", viaF32(func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.GeluAttrs)
		s := unarySpec{op: uGelu, fn: fnGelu}
		if a.Tanh {
			s = unarySpec{fn: fnGeluTanh}
		}
		return buildUnary(c, s, &a.UnaryAttrs)
	}))
}
