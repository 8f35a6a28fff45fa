package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// matmulKernel runs MatMul with numpy semantics: 1-D operands are promoted
// to matrices and the batch dims broadcast.
type matmulKernel struct {
	n  *model.Node
	dt payload.DType
	// Set by shape: the matrix sizes, the output batch dims and each
	// operand's element stride per batch dim (0 where it broadcasts).
	m, nn, k   int
	batch      []int
	aStr, bStr []int
	nb         int
	// fold is set when B has a single batch: all of A's rows then go
	// through one gemm call.
	fold bool
	// gc runs the float32 products; pb is a constant 2-D float32 B packed
	// at build, pk×pn, in the options' weight format, or zero.
	gc     *gemmCtx
	pb     gemmB
	pk, pn int
	// ep is the fused bias (input 2) and activation, if any.
	ep *gemmEpilogue
}

func init() {
	register("MatMul", viaF32(buildMatMul))
}

func buildMatMul(c *buildCtx) (kernel, error) {
	if err := c.needTypes(payload.Float32, payload.Float64, payload.Int32, payload.Int64, payload.Uint32, payload.Uint64); err != nil {
		return nil, err
	}
	if c.inType(1) != c.inType(0) {
		return nil, c.invalid("inputs of mixed element types %s and %s", c.inType(0), c.inType(1))
	}
	k := &matmulKernel{n: c.n, dt: c.inType(0)}
	var err error
	if k.ep, err = fusedEpilogue(c, k.dt, true); err != nil {
		return nil, err
	}
	// The descriptor allows a third input only as a fused bias.
	if c.rule.(*model.MatMulAttrs).Bias && c.inType(2) != payload.Float32 {
		return nil, c.invalid("fused bias of element type %s", c.inType(2))
	}
	if k.dt == payload.Float32 {
		k.gc = c.gemmCtx()
		if w := c.constInput(1); w != nil && len(w.Shape) == 2 {
			k.pk, k.pn = w.Shape[0], w.Shape[1]
			// Read-only: shared by the artifact's instances.
			var err error
			k.pb, err = sharePackedB(c, w, false, k.pk, k.pn)
			if err != nil {
				return nil, err
			}
		}
	}
	return k, nil
}

// shape plans the product from the shapes the descriptor's rule
// (model.MatMulAttrs) checked: the matrix sizes, the batch dims and each
// operand's stride per batch dim.
func (k *matmulKernel) shape(in, out []*tensor) error {
	a, b := in[0].shape, in[1].shape
	ra, rb := len(a), len(b)
	m, ka := 1, a[ra-1]
	if ra > 1 {
		m = a[ra-2]
	}
	kb, n := b[0], 1
	if rb > 1 {
		kb, n = b[rb-2], b[rb-1]
	}
	k.m, k.nn, k.k = m, n, ka
	// Batch dims: a[:ra-2], b[:rb-2], right-aligned.
	na, nbd := max(ra-2, 0), max(rb-2, 0)
	r := max(na, nbd)
	if cap(k.batch) < r {
		k.batch = make([]int, r)
		k.aStr = make([]int, r)
		k.bStr = make([]int, r)
	}
	k.batch, k.aStr, k.bStr = k.batch[:r], k.aStr[:r], k.bStr[:r]
	sa, sb := m*ka, kb*n
	bBatch := 1
	for i := r - 1; i >= 0; i-- {
		da, db := 1, 1
		if j := i - (r - na); j >= 0 {
			da = a[j]
		}
		if j := i - (r - nbd); j >= 0 {
			db = b[j]
		}
		d := da
		switch {
		case da == db, db == 1:
		case da == 1:
			d = db
		default:
			return shapeErr(k.n, "batch dims of %v and %v do not broadcast", a, b)
		}
		k.batch[i] = d
		k.aStr[i], k.bStr[i] = 0, 0
		if da != 1 {
			k.aStr[i] = sa
		}
		if db != 1 {
			k.bStr[i] = sb
		}
		sa *= da
		sb *= db
		bBatch *= db
	}
	k.nb = 1
	for _, d := range k.batch {
		k.nb *= d
	}
	k.fold = bBatch == 1
	return nil
}

func (k *matmulKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		if k.ep != nil {
			k.ep.bias = nil
			if len(in) > 2 && in[2] != nil {
				k.ep.bias = in[2].f32()
			}
		}
		matmulF32(k, in[0].f32(), in[1].f32(), out[0].f32())
	case payload.Float64:
		matmulRun(k, gemmNaive[float64], in[0].f64(), in[1].f64(), out[0].f64())
	case payload.Int32:
		matmulRun(k, gemmNaive[int32], in[0].i32(), in[1].i32(), out[0].i32())
	case payload.Int64:
		matmulRun(k, gemmNaive[int64], in[0].i64(), in[1].i64(), out[0].i64())
	case payload.Uint32:
		matmulRun(k, gemmNaive[uint32], elems[uint32](in[0]), elems[uint32](in[1]), elems[uint32](out[0]))
	case payload.Uint64:
		matmulRun(k, gemmNaive[uint64], elems[uint64](in[0]), elems[uint64](in[1]), elems[uint64](out[0]))
	}
	return nil
}

// matmulF32 is matmulRun for float32 on the packed SGEMM, with the
// prepacked B when there is one.
func matmulF32(k *matmulKernel, a, b, y []float32) {
	m, n, kk := k.m, k.nn, k.k
	if k.fold {
		gb := gemmB{data: b, ld: n}
		if k.pb.prepacked() && k.pk == kk && k.pn == n {
			gb = k.pb
		}
		k.gc.runFused(k.nb*m, n, kk, 1, gemmA{data: a, ld: kk}, gb, 0, y, n, k.ep)
		return
	}
	for bi := range k.nb {
		offA, offB := k.offsets(bi)
		k.gc.runFused(m, n, kk, 1, gemmA{data: a[offA:], ld: kk}, gemmB{data: b[offB:], ld: n}, 0, y[bi*m*n:], n, k.ep)
	}
}

// offsets returns A's and B's element offsets for output batch bi.
func (k *matmulKernel) offsets(bi int) (offA, offB int) {
	rem := bi
	for d := len(k.batch) - 1; d >= 0; d-- {
		q := rem % k.batch[d]
		rem /= k.batch[d]
		offA += q * k.aStr[d]
		offB += q * k.bStr[d]
	}
	return offA, offB
}

// matmulRun multiplies every batch; when B has a single batch, A's rows
// of all batches go through one call.
func matmulRun[E float64 | int32 | int64 | uint32 | uint64](k *matmulKernel, gemm gemmFunc[E], a, b, y []E) {
	m, n, kk := k.m, k.nn, k.k
	if k.fold {
		gemm(false, false, k.nb*m, n, kk, 1, a, kk, b, n, 0, y, n)
		return
	}
	for bi := range k.nb {
		offA, offB := k.offsets(bi)
		gemm(false, false, m, n, kk, 1, a[offA:], kk, b[offB:], n, 0, y[bi*m*n:], n)
	}
}
