package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// fusedMatMulKernel runs FusedMatMul (com.microsoft;
// model.FusedMatMulAttrs) in float32 on the packed SGEMM, which reads
// the transposed operands in place; a constant 2-D B is packed once at
// load. float16 runs through viaF32.
type fusedMatMulKernel struct {
	n *model.Node
	a *model.FusedMatMulAttrs
	// mm holds the sizes and batch strides, planned by its shape.
	mm matmulKernel
	// pb is the constant B packed at build (pk×pn after op), or zero.
	pb     gemmB
	pk, pn int
	gc     *gemmCtx
	// va and vb are the operands' shapes after op, for mm's plan.
	va, vb tensor
}

// shape plans the product: MatMul's plan on the operands' shapes with
// the transposed dims swapped.
func (k *fusedMatMulKernel) shape(in, out []*tensor) error {
	a, b := in[0].shape, in[1].shape
	ea, eb := k.va.resize(len(a)), k.vb.resize(len(b))
	copy(ea, a)
	copy(eb, b)
	if k.a.TransA && len(a) > 1 {
		ea[len(a)-2], ea[len(a)-1] = a[len(a)-1], a[len(a)-2]
	}
	if k.a.TransB && len(b) > 1 {
		eb[len(b)-2], eb[len(b)-1] = b[len(b)-1], b[len(b)-2]
	}
	ops := [2]*tensor{&k.va, &k.vb}
	return k.mm.shape(ops[:], out)
}

func (k *fusedMatMulKernel) run(in, out []*tensor) error {
	mm := &k.mm
	a, b, y := in[0].f32(), in[1].f32(), out[0].f32()
	m, n, kk := mm.m, mm.nn, mm.k
	ta := k.a.TransA && len(in[0].shape) > 1
	tb := k.a.TransB && len(in[1].shape) > 1
	lda, ldb := kk, n
	if ta {
		lda = m
	}
	if tb {
		ldb = kk
	}
	gb := gemmB{data: b, ld: ldb, trans: tb}
	if k.pb.prepacked() && k.pk == kk && k.pn == n {
		gb = k.pb
	}
	if mm.fold && !ta {
		k.gc.run(mm.nb*m, n, kk, k.a.Alpha, gemmA{data: a, ld: lda}, gb, 0, y, n)
		return nil
	}
	for bi := range mm.nb {
		offA, offB := mm.offsets(bi)
		g := gb
		if !g.prepacked() {
			g.data = b[offB:]
		}
		k.gc.run(m, n, kk, k.a.Alpha, gemmA{data: a[offA:], ld: lda, trans: ta}, g, 0, y[bi*m*n:], n)
	}
	return nil
}

func init() {
	registerMS("FusedMatMul", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		if c.inType(1) != payload.Float32 {
			return nil, c.invalid("B is %s, A is %s", c.inType(1), c.inType(0))
		}
		a := c.rule.(*model.FusedMatMulAttrs)
		if a.TransBatchA || a.TransBatchB {
			return nil, c.unsupported("transBatchA and transBatchB")
		}
		k := &fusedMatMulKernel{n: c.n, a: a, gc: c.gemmCtx()}
		k.mm.n = c.n
		if w := c.constInput(1); w != nil && len(w.Shape) == 2 {
			k.pk, k.pn = w.Shape[0], w.Shape[1]
			if a.TransB {
				k.pk, k.pn = k.pn, k.pk
			}
			var err error
			if k.pb, err = sharePackedB(c, w, a.TransB, k.pk, k.pn); err != nil {
				return nil, err
			}
		}
		return k, nil
	}))
}
