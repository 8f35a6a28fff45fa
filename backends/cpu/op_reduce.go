package cpu

import (
	"math"
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// redOp names a reduction.
type redOp uint8

const (
	redSum redOp = iota
	redMean
	redMax
	redMin
	redProd
	redL1
	redL2
	redSumSquare
	redLogSum
	redLogSumExp
)

// reduceKernel runs the Reduce* ops, with the axes and output shape of
// the descriptor's rule (model.ReduceAttrs). The axes come from the
// attribute before opset 13 (ReduceSum) or 18 (the others) and from the
// optional int64 input 1 after; no axes means every axis unless
// noop_with_empty_axes is set, in which case the input is copied.
//
// It walks the input row by row with a bcastIter whose single operand is
// the accumulator seen with the input's shape (stride 0 on reduced axes),
// accumulating floats in float64 and integers in int64 (uint64 for the
// unsigned types; L2, LogSum and LogSumExp of integers in float64,
// truncated). ReduceMax and ReduceMin of bools are any and all: they run
// on the bools' bytes as uint8.
type reduceKernel struct {
	op        redOp
	dt        payload.DType
	attrAxes  []int64
	axesInput bool
	noop      bool

	// set by shape for run:
	copyOnly bool
	red      []bool // per input axis: reduced
	kshape   []int  // input shape with 1 on reduced axes

	// pool splits the input's leading kept dims (those before the first
	// reduced axis): each part walks its own slab of the input into its
	// own outputs. parts holds each part's walk and accumulators; par
	// and the call fields hold the current call's split.
	pool      *workerPool
	par       parFor
	parts     []reducePart
	cin, cout []*tensor
	first     int
	count     int
}

// reducePart is one part's walk over its slab of the input and its
// accumulators.
type reducePart struct {
	op     redOp
	it     bcastIter
	accF   []float64
	accF2  []float64
	accI   []int64
	accU   []uint64
	xs, ks []int // the slab's shape and its shape with reduced axes 1
	_      [cacheLine]byte
}

// shape plans the walk from the axes the descriptor's rule
// (model.ReduceAttrs) checked and the output shape it set.
func (k *reduceKernel) shape(in, out []*tensor) error {
	x := in[0].shape
	r := len(x)
	axes := k.attrAxes
	if k.axesInput && len(in) > 1 && in[1] != nil {
		axes = in[1].i64()[:in[1].numel()]
	}
	if cap(k.red) < r {
		k.red = make([]bool, r)
		k.kshape = make([]int, r)
	}
	red, ks := k.red[:r], k.kshape[:r]
	k.copyOnly = false
	if len(axes) == 0 {
		if k.noop {
			k.copyOnly = true
			return nil
		}
		for i := range red {
			red[i] = true
		}
	} else {
		clear(red)
		for _, a := range axes {
			j, _ := normAxis(a, r)
			red[j] = true
		}
	}
	for i, d := range x {
		if red[i] {
			ks[i] = 1
		} else {
			ks[i] = d
		}
	}
	return nil
}

func (k *reduceKernel) run(in, out []*tensor) error {
	if k.copyOnly {
		copy(out[0].data, in[0].data)
		return nil
	}
	x := in[0]
	r := len(x.shape)
	first := r
	for i := range r {
		if k.red[i] {
			first = i
			break
		}
	}
	outer := mulDims(x.shape[:first])
	nout := out[0].numel()
	k.count = 1
	if nout > 0 {
		k.count = x.numel() / nout
	}
	if n := k.pool.size(); len(k.parts) < n {
		k.parts = make([]reducePart, n)
	}
	k.cin, k.cout, k.first = in, out, first
	k.par.run(k.pool, k, outer, mulDims(x.shape[first:]))
	k.cin, k.cout = nil, nil
	return nil
}

// runRange reduces the slabs [lo, hi) of the input along its leading
// kept dims into their outputs. Outputs of different slabs share no
// input, and each output folds its inputs in the order the whole walk
// does, so the split keeps every bit.
func (k *reduceKernel) runRange(part, lo, hi int) {
	w := &k.parts[part]
	w.op = k.op
	x, y := k.cin[0], k.cout[0]
	r := len(x.shape)
	w.xs = growInts(&w.xs, r-k.first+1)
	w.ks = growInts(&w.ks, r-k.first+1)
	w.xs[0], w.ks[0] = hi-lo, hi-lo
	copy(w.xs[1:], x.shape[k.first:])
	copy(w.ks[1:], k.kshape[k.first:r])
	w.it.init(w.xs, w.ks)
	inSz, outSz := mulDims(x.shape[k.first:]), mulDims(k.kshape[k.first:r])
	x0, x1, y0, y1 := lo*inSz, hi*inSz, lo*outSz, hi*outSz
	count := k.count
	switch k.dt {
	case payload.Float32:
		reduceFloat(w, y.f32()[y0:y1], x.f32()[x0:x1], count)
	case payload.Float64:
		reduceFloat(w, y.f64()[y0:y1], x.f64()[x0:x1], count)
	case payload.Int32:
		reduceSigned(w, y.i32()[y0:y1], x.i32()[x0:x1], count)
	case payload.Int64:
		reduceSigned(w, y.i64()[y0:y1], x.i64()[x0:x1], count)
	case payload.Int8:
		reduceSigned(w, elems[int8](y)[y0:y1], elems[int8](x)[x0:x1], count)
	case payload.Int16:
		reduceSigned(w, elems[int16](y)[y0:y1], elems[int16](x)[x0:x1], count)
	case payload.Uint8, payload.Bool:
		reduceUnsigned(w, y.u8()[y0:y1], x.u8()[x0:x1], count)
	case payload.Uint16:
		reduceUnsigned(w, elems[uint16](y)[y0:y1], elems[uint16](x)[x0:x1], count)
	case payload.Uint32:
		reduceUnsigned(w, elems[uint32](y)[y0:y1], elems[uint32](x)[x0:x1], count)
	case payload.Uint64:
		reduceUnsigned(w, elems[uint64](y)[y0:y1], elems[uint64](x)[x0:x1], count)
	}
}

// reduceSigned and reduceUnsigned reduce integers: in int64 or uint64,
// or for L2, LogSum and LogSumExp in float64.
func reduceSigned[T ewSigned](k *reducePart, d, x []T, count int) {
	switch k.op {
	case redL2, redLogSum, redLogSumExp:
		reduceFloat(k, d, x, count)
		return
	}
	if cap(k.accI) < len(d) {
		k.accI = make([]int64, len(d))
	}
	reduceInt(k, d, x, count, k.accI[:len(d)])
}

func reduceUnsigned[T uint8 | uint16 | uint32 | uint64](k *reducePart, d, x []T, count int) {
	switch k.op {
	case redL2, redLogSum, redLogSumExp:
		reduceFloat(k, d, x, count)
		return
	}
	if cap(k.accU) < len(d) {
		k.accU = make([]uint64, len(d))
	}
	reduceInt(k, d, x, count, k.accU[:len(d)])
}

// intLimits returns the smallest and largest values of T.
func intLimits[T ewInt]() (lo, hi T) {
	hi = ^T(0)
	if hi < 0 { // signed: all ones is -1
		hi = T(uint64(hi) >> (65 - 8*unsafe.Sizeof(hi)))
		return -hi - 1, hi
	}
	return 0, hi
}

// reduceGrow returns s resized to n, reallocating only when too small.
func reduceGrow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// reduceInit returns the identity value of op in float64.
func reduceInit(op redOp) float64 {
	switch op {
	case redProd:
		return 1
	case redMax, redLogSumExp:
		return math.Inf(-1)
	case redMin:
		return math.Inf(1)
	}
	return 0
}

func reduceFloat[T ewNum](k *reducePart, d, x []T, count int) {
	k.accF = reduceGrow(k.accF, len(d))
	acc := k.accF
	op := k.op
	first := op
	if op == redLogSumExp {
		first = redMax
	}
	v0 := reduceInit(first)
	for i := range acc {
		acc[i] = v0
	}
	reduceFloatPass(&k.it, first, acc, x, nil)
	if op == redLogSumExp {
		k.accF2 = reduceGrow(k.accF2, len(d))
		s := k.accF2
		clear(s)
		k.it.rewind()
		reduceFloatPass(&k.it, redLogSumExp, s, x, acc)
		for i := range d {
			m := acc[i]
			if math.IsInf(m, -1) {
				d[i] = T(m)
				continue
			}
			d[i] = T(m + math.Log(s[i]))
		}
		return
	}
	c := float64(count)
	for i, v := range acc {
		switch op {
		case redMean:
			v /= c
		case redL2:
			v = math.Sqrt(v)
		case redLogSum:
			v = math.Log(v)
		}
		d[i] = T(v)
	}
}

// reduceFloatPass folds x into acc row by row. For the second pass of
// LogSumExp, mx holds each output's maximum.
func reduceFloatPass[T ewNum](it *bcastIter, op redOp, acc []float64, x []T, mx []float64) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row := x[r*n : (r+1)*n]
		o := it.off[0]
		if it.istr[0] == 0 {
			a := acc[o]
			switch op {
			case redSum, redMean, redLogSum:
				for _, v := range row {
					a += float64(v)
				}
			case redMax:
				for _, v := range row {
					a = max(a, float64(v))
				}
			case redMin:
				for _, v := range row {
					a = min(a, float64(v))
				}
			case redProd:
				for _, v := range row {
					a *= float64(v)
				}
			case redL1:
				for _, v := range row {
					a += math.Abs(float64(v))
				}
			case redL2, redSumSquare:
				for _, v := range row {
					a += float64(v) * float64(v)
				}
			case redLogSumExp:
				m := mx[o]
				for _, v := range row {
					a += math.Exp(float64(v) - m)
				}
			}
			acc[o] = a
		} else {
			ar := acc[o : o+n]
			switch op {
			case redSum, redMean, redLogSum:
				for i, v := range row {
					ar[i] += float64(v)
				}
			case redMax:
				for i, v := range row {
					ar[i] = max(ar[i], float64(v))
				}
			case redMin:
				for i, v := range row {
					ar[i] = min(ar[i], float64(v))
				}
			case redProd:
				for i, v := range row {
					ar[i] *= float64(v)
				}
			case redL1:
				for i, v := range row {
					ar[i] += math.Abs(float64(v))
				}
			case redL2, redSumSquare:
				for i, v := range row {
					ar[i] += float64(v) * float64(v)
				}
			case redLogSumExp:
				mr := mx[o : o+n]
				for i, v := range row {
					ar[i] += math.Exp(float64(v) - mr[i])
				}
			}
		}
		it.next()
	}
}

// reduceInt reduces integers in the accumulators acc, of d's length.
func reduceInt[T ewInt, A int64 | uint64](k *reducePart, d, x []T, count int, acc []A) {
	var v0 A
	lo, hi := intLimits[T]()
	switch k.op {
	case redProd:
		v0 = 1
	case redMax:
		v0 = A(lo)
	case redMin:
		v0 = A(hi)
	}
	for i := range acc {
		acc[i] = v0
	}
	it := &k.it
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row := x[r*n : (r+1)*n]
		o, s := it.off[0], it.istr[0]
		for i, v := range row {
			a := &acc[o+i*s]
			w := A(v)
			switch k.op {
			case redSum, redMean:
				*a += w
			case redMax:
				*a = max(*a, w)
			case redMin:
				*a = min(*a, w)
			case redProd:
				*a *= w
			case redL1:
				if w < 0 {
					w = -w
				}
				*a += w
			case redSumSquare:
				*a += w * w
			}
		}
		it.next()
	}
	for i, v := range acc {
		if k.op == redMean && count > 0 {
			v /= A(count)
		}
		d[i] = T(v)
	}
}

func init() {
	ops := []struct {
		name string
		op   redOp
	}{
		{"ReduceSum", redSum},
		{"ReduceMean", redMean},
		{"ReduceMax", redMax},
		{"ReduceMin", redMin},
		{"ReduceProd", redProd},
		{"ReduceL1", redL1},
		{"ReduceL2", redL2},
		{"ReduceSumSquare", redSumSquare},
		{"ReduceLogSum", redLogSum},
		{"ReduceLogSumExp", redLogSumExp},
	}
	for _, o := range ops {
		register(o.name, viaF32(func(c *buildCtx) (kernel, error) {
			dt := c.inType(0)
			switch {
			case dt == payload.Bool:
				if o.op != redMax && o.op != redMin {
					return nil, c.unsupported("element type %s", dt)
				}
			case !hasDType(ewOrdered, dt):
				return nil, c.unsupported("element type %s", dt)
			}
			a := c.rule.(*model.ReduceAttrs)
			k := &reduceKernel{op: o.op, dt: dt, attrAxes: a.Axes, noop: a.NoopWithEmptyAxes, pool: c.pool()}
			if a.AxesInput && c.n.Input(1) != "" {
				if c.inType(1) != payload.Int64 {
					return nil, c.invalid("axes input is %s, want int64", c.inType(1))
				}
				k.axesInput = true
			}
			if s := c.in[0].Shape; c.in[0].RankKnown {
				seen := make([]bool, len(s))
				for _, a := range k.attrAxes {
					j, ok := normAxis(a, len(s))
					if !ok || seen[j] {
						return nil, c.invalid("axes %v invalid for rank %d", k.attrAxes, len(s))
					}
					seen[j] = true
				}
			}
			return k, nil
		}))
	}
}
