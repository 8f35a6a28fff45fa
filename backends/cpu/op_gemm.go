package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// gemmFunc is a matrix-multiply core: C = alpha*op(A)*op(B) + beta*C.
type gemmFunc[E any] func(transA, transB bool, m, n, k int, alpha E, a []E, lda int, b []E, ldb int, beta E, c []E, ldc int)

// gemmKernel runs Gemm: Y = alpha*op(A)*op(B) + beta*C, with C broadcast
// unidirectionally to (M, N).
type gemmKernel struct {
	dt             payload.DType
	transA, transB bool
	alpha, beta    float32
	// gc runs the float32 products; pb is a constant float32 B packed at
	// build (op(B) is pk×pn), in the options' weight format, or zero.
	gc     *gemmCtx
	pb     gemmB
	pk, pn int
	// m, n, k and C's broadcast steps, set by shape.
	m, nn, k           int
	cRowStep, cColStep int
	// ep is the fused activation, if any (float32 only).
	ep *gemmEpilogue
}

func init() {
	register("Gemm", viaF32(buildGemm))
}

func buildGemm(c *buildCtx) (kernel, error) {
	if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
		return nil, err
	}
	a := c.rule.(*model.GemmAttrs)
	k := &gemmKernel{dt: c.inType(0), transA: a.TransA, transB: a.TransB, alpha: a.Alpha, beta: a.Beta}
	if c.inType(1) != k.dt || (c.n.Input(2) != "" && c.inType(2) != k.dt) {
		return nil, c.invalid("inputs of mixed element types %s, %s, %s", c.inType(0), c.inType(1), c.inType(2))
	}
	var err error
	if k.ep, err = fusedEpilogue(c, k.dt, false); err != nil {
		return nil, err
	}
	if k.dt == payload.Float32 {
		k.gc = c.gemmCtx()
		if w := c.constInput(1); w != nil && len(w.Shape) == 2 {
			k.pk, k.pn = matDims(w.Shape[0], w.Shape[1], k.transB)
			// The packed weights are read-only: instances of the artifact
			// on this backend share them.
			k.pb, err = sharePackedB(c, w, k.transB, k.pk, k.pn)
			if err != nil {
				return nil, err
			}
		}
	}
	return k, nil
}

// shape plans the product from the shapes the descriptor's rule
// (model.GemmAttrs) checked: M, N, K and C's broadcast steps.
func (k *gemmKernel) shape(in, out []*tensor) error {
	a, b := in[0].shape, in[1].shape
	m, ka := a[0], a[1]
	if k.transA {
		m, ka = ka, m
	}
	n := b[1]
	if k.transB {
		n = b[0]
	}
	k.m, k.nn, k.k = m, n, ka
	k.cRowStep, k.cColStep = 0, 0
	if len(in) > 2 && in[2] != nil {
		cs := in[2].shape
		cm, cn := 1, 1
		switch len(cs) {
		case 1:
			cn = cs[0]
		case 2:
			cm, cn = cs[0], cs[1]
		}
		if cn != 1 {
			k.cColStep = 1
		}
		if cm != 1 {
			k.cRowStep = cn
		}
	}
	return nil
}

func (k *gemmKernel) run(in, out []*tensor) error {
	var c *tensor
	if len(in) > 2 && in[2] != nil && k.beta != 0 {
		c = in[2]
	}
	switch k.dt {
	case payload.Float32:
		var cv []float32
		if c != nil {
			cv = c.f32()
		}
		a, y := in[0].f32(), out[0].f32()
		ep := k.ep
		if cv != nil && k.beta == 1 && k.cRowStep == 0 && k.cColStep == 1 {
			// A bias row: added in the epilogue, after the product.
			if k.ep == nil {
				k.ep = &gemmEpilogue{}
			}
			k.ep.bias, ep, cv = cv, k.ep, nil
		} else if k.ep != nil {
			k.ep.bias = nil
		}
		gemmFillC(k, cv, y)
		lda := k.k
		if k.transA {
			lda = k.m
		}
		gb := gemmB{data: in[1].f32(), ld: k.nn, trans: k.transB}
		if k.transB {
			gb.ld = k.k
		}
		if k.pb.prepacked() && k.pk == k.k && k.pn == k.nn {
			gb = k.pb
		}
		beta := float32(0)
		if cv != nil {
			beta = 1
		}
		k.gc.runFused(k.m, k.nn, k.k, k.alpha, gemmA{data: a, ld: lda, trans: k.transA}, gb, beta, y, k.nn, ep)
	case payload.Float64:
		var cv []float64
		if c != nil {
			cv = c.f64()
		}
		gemmRun(k, gemmNaive[float64], in[0].f64(), in[1].f64(), k.transB, cv, out[0].f64())
	}
	return nil
}

// gemmFillC fills y with beta*C (broadcast) when C is given.
func gemmFillC[E float32 | float64](k *gemmKernel, c, y []E) {
	m, n := k.m, k.nn
	if c != nil {
		bv := E(k.beta)
		for i := range m {
			src := c[i*k.cRowStep:]
			row := y[i*n : i*n+n]
			if k.cColStep == 0 {
				v := bv * src[0]
				for j := range row {
					row[j] = v
				}
			} else {
				for j := range row {
					row[j] = bv * src[j]
				}
			}
		}
	}
}

// gemmRun fills y with beta*C (broadcast) when C is given, then adds
// alpha*op(A)*op(B).
func gemmRun[E float32 | float64](k *gemmKernel, gemm gemmFunc[E], a, b []E, transB bool, c, y []E) {
	m, n, kk := k.m, k.nn, k.k
	beta := E(0)
	gemmFillC(k, c, y)
	if c != nil {
		beta = 1
	}
	lda := kk
	if k.transA {
		lda = m
	}
	ldb := n
	if transB {
		ldb = kk
	}
	gemm(k.transA, transB, m, n, kk, E(k.alpha), a, lda, b, ldb, beta, y, n)
}
