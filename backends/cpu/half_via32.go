package cpu

import (
	"maps"
	"strconv"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Half-precision element types through the float32 kernels.
//
// A float16 or bfloat16 node of an op registered with viaF32 runs its
// float32 kernel: its half inputs are widened into float32 scratch
// (exactly), the float32 kernel computes, and its half outputs are
// rounded back to nearest even. This is what ONNX Runtime does for most
// ops on these types, and it is faster than computing in 16 bits in Go:
// the float32 kernels are vectorized and widening is one vector
// instruction per 8 values. An elementwise result is rounded once from
// float32, whose 24-bit significand is more than twice the half types'
// plus two, so the basic operations (+ - * / sqrt) are correctly rounded
// as if computed in the half type; reductions and products accumulate in
// float32 or wider, as ONNX Runtime's do. Float32 nodes never reach this
// code: the builder returns the float32 kernel itself.
//
// Constant half inputs (Conv and MatMul weights) are widened once at load
// and shared between instances, so the float32 builder can pack them.

// halfOf returns the half format of dt, halfNone when dt is not float16
// or bfloat16.
func halfOf(dt payload.DType) halfKind {
	switch dt {
	case payload.Float16:
		return halfF16
	case payload.BF16:
		return halfBF16
	}
	return halfNone
}

// viaF32 returns a builder that runs b's float32 kernel for nodes whose
// inputs or outputs are float16 or bfloat16, and b itself for the others.
// mixed lists the inputs that may hold a float type other than the
// node's half type (Pow's exponent); any other mix is refused.
func viaF32(b builder, mixed ...int) builder { return via32Builder(b, mixed, false) }

// viaF32Stats is viaF32 for ops whose outputs after the first may be of
// another float type (LayerNormalization's mean and inverse deviation).
func viaF32Stats(b builder) builder { return via32Builder(b, nil, true) }

// via32Builder is viaF32 and viaF32Stats.
func via32Builder(b builder, mixed []int, statsOut bool) builder {
	return func(c *buildCtx) (kernel, error) {
		half, err := nodeHalf(c, mixed, statsOut)
		if err != nil {
			return nil, err
		}
		if !half {
			return b(c)
		}
		return buildVia32(c, b)
	}
}

// nodeHalf reports whether any input or output of c's node is float16 or
// bfloat16. It refuses nodes that mix a half type with another float
// type, except at the inputs listed in mixed (which may be of any type)
// or, with statsOut, at outputs after the first.
func nodeHalf(c *buildCtx, mixed []int, statsOut bool) (bool, error) {
	var first, other payload.DType
	half := false
	see := func(dt payload.DType, free bool) {
		half = half || halfOf(dt) != halfNone
		switch {
		case free || !dt.IsFloat():
		case first == payload.Undefined:
			first = dt
		case dt != first:
			other = dt
		}
	}
	for i, v := range c.in {
		free := false
		for _, m := range mixed {
			free = free || m == i
		}
		see(v.DType, free)
	}
	for j, v := range c.out {
		see(v.DType, statsOut && j > 0)
	}
	if half && other != payload.Undefined {
		return false, c.invalid("element types %s and %s are mixed", first, other)
	}
	return half, nil
}

// buildVia32 builds b's kernel on the float32 view of c's node and wraps
// it in a via32Kernel.
func buildVia32(c *buildCtx, b builder) (kernel, error) {
	c32 := *c
	c32.in = make([]model.ValueInfo, len(c.in))
	c32.out = make([]model.ValueInfo, len(c.out))
	k := &via32Kernel{inHalf: make([]halfKind, len(c.in)), outHalf: make([]halfKind, len(c.out)),
		consts: make([]*tensor, len(c.in))}
	var inits map[string]*model.Tensor
	for i, v := range c.in {
		c32.in[i] = v
		if k.inHalf[i] = halfOf(v.DType); k.inHalf[i] == halfNone {
			continue
		}
		c32.in[i].DType = payload.Float32
		w := c.constInput(i)
		if w == nil {
			continue
		}
		w32, err := shareValue(c, "via32:"+strconv.Itoa(i), func() (*model.Tensor, error) { return widenConst(w) })
		if err != nil {
			return nil, err
		}
		if inits == nil {
			inits = maps.Clone(c.g.Initializers)
		}
		inits[c.n.Input(i)] = w32
		k.consts[i] = &tensor{dt: payload.Float32, shape: w32.Shape, data: w32.Raw}
	}
	if inits != nil {
		g := *c.g
		g.Initializers = inits
		c32.g = &g
	}
	for i, v := range c.out {
		c32.out[i] = v
		if k.outHalf[i] = halfOf(v.DType); k.outHalf[i] != halfNone {
			c32.out[i].DType = payload.Float32
		}
	}
	inner, err := b(&c32)
	if err != nil {
		return nil, err
	}
	k.k = inner
	k.in32 = make([]*tensor, len(c.in))
	k.out32 = make([]*tensor, len(c.out))
	for i := range k.in32 {
		k.in32[i] = &tensor{dt: payload.Float32}
	}
	for i := range k.out32 {
		k.out32[i] = &tensor{dt: payload.Float32}
	}
	if s, ok := inner.(shaper); ok {
		return &via32Shaper{via32Kernel: k, s: s}, nil
	}
	return k, nil
}

// widenConst returns a float32 copy of the half constant w.
func widenConst(w *model.Tensor) (*model.Tensor, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	hk := halfOf(w.DType)
	src := make([]uint16, w.NumElems())
	for i := range src {
		src[i] = uint16(w.Raw[2*i]) | uint16(w.Raw[2*i+1])<<8
	}
	dst := make([]float32, len(src))
	hk.widenAll(dst, src)
	return model.NewTensor(w.Name, w.Shape, dst), nil
}

// via32Kernel runs a float32 kernel k for a node with half inputs or
// outputs.
type via32Kernel struct {
	k kernel
	// inHalf and outHalf are the inputs' and outputs' half formats,
	// halfNone for those k reads or writes as they are.
	inHalf, outHalf []halfKind
	// consts holds the widened constant inputs, nil for the others.
	consts []*tensor
	// in32 and out32 are the float32 scratch of the half values; ins and
	// outs are what k sees.
	in32, out32 []*tensor
	ins, outs   []*tensor
	// widened is set by shape when it has widened the inputs for run.
	widened bool
}

// via32Shaper is a via32Kernel whose float32 kernel is a shaper.
type via32Shaper struct {
	*via32Kernel
	s shaper
}

// views points ins and outs at what k reads and writes: the node's own
// tensors, or the float32 scratch of the half ones (shapes only; widen
// fills the inputs' data).
func (k *via32Kernel) views(in, out []*tensor) {
	k.ins = append(k.ins[:0], in...)
	k.outs = append(k.outs[:0], out...)
	for i, t := range in {
		switch {
		case t == nil || i >= len(k.inHalf) || k.inHalf[i] == halfNone:
		case k.consts[i] != nil:
			k.ins[i] = k.consts[i]
		default:
			s := k.in32[i]
			s.shape = t.shape
			k.ins[i] = s
		}
	}
	for i, t := range out {
		if t != nil && i < len(k.outHalf) && k.outHalf[i] != halfNone {
			s := k.out32[i]
			copy(s.resize(len(t.shape)), t.shape)
			k.outs[i] = s
		}
	}
}

// widen fills the float32 scratch of the half inputs that are not
// constants.
func (k *via32Kernel) widen(in []*tensor) {
	for i, t := range in {
		if t == nil || i >= len(k.inHalf) || k.inHalf[i] == halfNone || k.consts[i] != nil {
			continue
		}
		s := k.in32[i]
		n := t.numel()
		growData(s, 4*n)
		k.inHalf[i].widenAll(s.f32()[:n], elems[uint16](t)[:n])
	}
}

// growData sets t.data to n bytes, reallocating only when too small.
func growData(t *tensor, n int) {
	if cap(t.data) < n {
		t.data = alignedBytes(n)
	}
	t.data = t.data[:n]
}

func (k *via32Shaper) shape(in, out []*tensor) error {
	k.views(in, out)
	k.widen(in)
	k.widened = true
	if err := k.s.shape(k.ins, k.outs); err != nil {
		return err
	}
	for i, t := range out {
		if t != nil && i < len(k.outHalf) && k.outHalf[i] != halfNone {
			copy(t.resize(len(k.out32[i].shape)), k.out32[i].shape)
		}
	}
	return nil
}

func (k *via32Kernel) run(in, out []*tensor) error {
	if k.widened {
		k.widened = false
	} else {
		k.views(in, out)
		k.widen(in)
	}
	for i, t := range out {
		if t != nil && i < len(k.outHalf) && k.outHalf[i] != halfNone {
			growData(k.out32[i], 4*t.numel())
		}
	}
	if err := k.k.run(k.ins, k.outs); err != nil {
		return err
	}
	for i, t := range out {
		if t != nil && i < len(k.outHalf) && k.outHalf[i] != halfNone {
			n := t.numel()
			k.outHalf[i].narrowSlice(elems[uint16](t)[:n], k.out32[i].f32()[:n])
		}
	}
	return nil
}

// narrowSlice sets dst[i] to src[i] in k's format, rounded to nearest
// even, for i < len(dst).
func (k halfKind) narrowSlice(dst []uint16, src []float32) {
	src = src[:len(dst)]
	if k == halfBF16 {
		for i, v := range src {
			dst[i] = uint16(payload.BFloat16From(v))
		}
		return
	}
	n := 0
	if narrowVecF16 != nil && len(dst) >= 8 {
		n = len(dst) &^ 7
		narrowVecF16(&dst[0], &src[0], n)
	}
	for i, v := range src[n:] {
		dst[n+i] = float16.Fromfloat32(v).Bits()
	}
}

// narrowVecF16, when set, narrows the first n&^7 elements of src into
// float16 dst with vector instructions, rounding to nearest even. It is
// set once at init.
var narrowVecF16 func(dst *uint16, src *float32, n int)
