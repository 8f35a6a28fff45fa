package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// scatterKernel is Scatter, ScatterElements and ScatterND: the data
// copied to the output, then each update combined into the element
// (ScatterND: slice) its index addresses, in the order of the indices, so
// with repeated indices and no reduction the last update wins. Negative
// indices count from the end of their dim. The descriptor's rule
// (model.ScatterAttrs) sets the output shape and checks the inputs'.
type scatterKernel struct {
	n   *model.Node
	a   model.ScatterAttrs
	buf []int64
	// offs holds the element offset in the output of each update (each
	// update slice for ScatterND); st and ctr are the data's strides and
	// a counter over the indices.
	offs, st, ctr []int
}

// scatterReduceTypes are the element types the reductions combine in;
// without a reduction any type of 1, 2, 4 or 8 bytes is moved.
var scatterReduceTypes = ewOrdered

func (k *scatterKernel) run(in, out []*tensor) error {
	x, y, u := in[0], out[0], in[2]
	copy(y.data, x.data)
	ind, _ := intValues(in[1], &k.buf)
	var slice int
	var err error
	if k.a.ND {
		slice, err = k.ndOffsets(x.shape, in[1].shape, ind)
	} else {
		slice, err = 1, k.elemOffsets(x.shape, in[1].shape, ind)
	}
	if err != nil || len(k.offs) == 0 || slice == 0 {
		return err
	}
	if k.a.Reduction == model.ReduceNone {
		switch x.dt.Size() {
		case 1:
			scatterMove(wordsOf[uint8](y.data), wordsOf[uint8](u.data), k.offs, slice)
		case 2:
			scatterMove(wordsOf[uint16](y.data), wordsOf[uint16](u.data), k.offs, slice)
		case 4:
			scatterMove(wordsOf[uint32](y.data), wordsOf[uint32](u.data), k.offs, slice)
		case 8:
			scatterMove(wordsOf[uint64](y.data), wordsOf[uint64](u.data), k.offs, slice)
		}
		return nil
	}
	r := k.a.Reduction
	switch x.dt {
	case payload.Float32:
		scatterReduce(y.f32(), u.f32(), k.offs, slice, r)
	case payload.Float64:
		scatterReduce(y.f64(), u.f64(), k.offs, slice, r)
	case payload.Int32:
		scatterReduce(y.i32(), u.i32(), k.offs, slice, r)
	case payload.Int64:
		scatterReduce(y.i64(), u.i64(), k.offs, slice, r)
	case payload.Int8:
		scatterReduce(elems[int8](y), elems[int8](u), k.offs, slice, r)
	case payload.Uint8:
		scatterReduce(y.u8(), u.u8(), k.offs, slice, r)
	case payload.Int16:
		scatterReduce(elems[int16](y), elems[int16](u), k.offs, slice, r)
	case payload.Uint16:
		scatterReduce(elems[uint16](y), elems[uint16](u), k.offs, slice, r)
	case payload.Uint32:
		scatterReduce(elems[uint32](y), elems[uint32](u), k.offs, slice, r)
	case payload.Uint64:
		scatterReduce(elems[uint64](y), elems[uint64](u), k.offs, slice, r)
	}
	return nil
}

// elemOffsets sets k.offs to the output offset of each ScatterElements
// update: the index's position with its axis coordinate replaced by the
// index.
func (k *scatterKernel) elemOffsets(xs, is []int, ind []int64) error {
	r := len(xs)
	ax, _ := wrapAxis(k.a.Axis, r)
	st := growInts(&k.st, r)
	rowStrides(st, xs)
	ctr := growInts(&k.ctr, r)
	for d := range ctr {
		ctr[d] = 0
	}
	k.offs = growInts(&k.offs, len(ind))
	dim := int64(xs[ax])
	for p, v := range ind {
		if v < -dim || v >= dim {
			return shapeErr(k.n, "index %d out of range for dim %d", v, dim)
		}
		if v < 0 {
			v += dim
		}
		off := int(v) * st[ax]
		for d, c := range ctr {
			if d != ax {
				off += c * st[d]
			}
		}
		k.offs[p] = off
		for d := r - 1; d >= 0; d-- {
			ctr[d]++
			if ctr[d] < is[d] {
				break
			}
			ctr[d] = 0
		}
	}
	return nil
}

// ndOffsets sets k.offs to the output offset of each ScatterND update
// slice and returns the slice's length.
func (k *scatterKernel) ndOffsets(xs, is []int, ind []int64) (int, error) {
	q := len(is)
	kk := is[q-1]
	rows := mulDims(is[:q-1])
	st := growInts(&k.st, len(xs))
	rowStrides(st, xs)
	k.offs = growInts(&k.offs, rows)
	for p := range rows {
		off := 0
		for j, v := range ind[p*kk : (p+1)*kk] {
			dim := int64(xs[j])
			if v < -dim || v >= dim {
				return 0, shapeErr(k.n, "index %d out of range for dim %d", v, dim)
			}
			if v < 0 {
				v += dim
			}
			off += int(v) * st[j]
		}
		k.offs[p] = off
	}
	return mulDims(xs[kk:]), nil
}

func scatterMove[W word](dst, upd []W, offs []int, slice int) {
	if slice == 1 {
		for p, o := range offs {
			dst[o] = upd[p]
		}
		return
	}
	for p, o := range offs {
		copy(dst[o:o+slice], upd[p*slice:(p+1)*slice])
	}
}

// scatterReduce combines the updates into dst. Max and min keep the
// element unless the update compares larger (smaller), as ONNX Runtime's
// std::max and std::min do, so a NaN already there stays and a NaN update
// is dropped.
func scatterReduce[T ewNum](dst, upd []T, offs []int, slice int, r model.Reduction) {
	for p, o := range offs {
		d, u := dst[o:o+slice], upd[p*slice:(p+1)*slice]
		switch r {
		case model.ReduceAdd:
			for i := range d {
				d[i] += u[i]
			}
		case model.ReduceMul:
			for i := range d {
				d[i] *= u[i]
			}
		case model.ReduceMax:
			for i := range d {
				if d[i] < u[i] {
					d[i] = u[i]
				}
			}
		case model.ReduceMin:
			for i := range d {
				if u[i] < d[i] {
					d[i] = u[i]
				}
			}
		}
	}
}

func init() {
	b := func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.ScatterAttrs)
		if a.Reduction == model.ReduceNone {
			if err := c.needMovable(); err != nil {
				return nil, err
			}
		} else if dt := c.inType(0); !hasDType(scatterReduceTypes, dt) {
			return nil, c.unsupported("reduction %s on element type %s (supported: %v)", a.Reduction, dt, scatterReduceTypes)
		}
		if c.inType(2) != c.inType(0) {
			return nil, c.invalid("updates have element type %s, data %s", c.inType(2), c.inType(0))
		}
		if !c.intInputOK(1, !a.ND) || c.inType(1) == payload.Undefined {
			return nil, c.unsupported("indices of type %s", c.inType(1))
		}
		return &scatterKernel{n: c.n, a: *a}, nil
	}
	register("Scatter", b)
	register("ScatterElements", b)
	register("ScatterND", b)
}
