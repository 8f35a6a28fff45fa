package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// topKKernel is TopK: the K largest (smallest) elements along the axis,
// in order, and their int64 indices. Equal elements keep the order of
// their indices, as ONNX Runtime's do; NaN ranks above every number.
// The descriptor's rule (model.TopKAttrs) sets the output shapes, K
// included. Each row is searched with a heap of K indices whose root is
// the worst kept, O(n log K).
type topKKernel struct {
	axis    int64
	largest bool
	// indices is false when the indices output is not used.
	indices bool
	heap    []int
}

func (k *topKKernel) run(in, out []*tensor) error {
	x := in[0]
	ax, _ := wrapAxis(k.axis, len(x.shape))
	kk := out[0].shape[ax]
	outer, n, inner := mulDims(x.shape[:ax]), x.shape[ax], mulDims(x.shape[ax+1:])
	if outer*kk*inner == 0 {
		return nil
	}
	var idx []int64
	if k.indices {
		idx = out[1].i64()
	}
	y := out[0]
	switch x.dt {
	case payload.Float32:
		topKRun(k, y.f32(), idx, x.f32(), outer, n, inner, kk)
	case payload.Float64:
		topKRun(k, y.f64(), idx, x.f64(), outer, n, inner, kk)
	case payload.Int32:
		topKRun(k, y.i32(), idx, x.i32(), outer, n, inner, kk)
	case payload.Int64:
		topKRun(k, y.i64(), idx, x.i64(), outer, n, inner, kk)
	case payload.Int8:
		topKRun(k, elems[int8](y), idx, elems[int8](x), outer, n, inner, kk)
	case payload.Uint8:
		topKRun(k, y.u8(), idx, x.u8(), outer, n, inner, kk)
	case payload.Int16:
		topKRun(k, elems[int16](y), idx, elems[int16](x), outer, n, inner, kk)
	case payload.Uint16:
		topKRun(k, elems[uint16](y), idx, elems[uint16](x), outer, n, inner, kk)
	case payload.Uint32:
		topKRun(k, elems[uint32](y), idx, elems[uint32](x), outer, n, inner, kk)
	case payload.Uint64:
		topKRun(k, elems[uint64](y), idx, elems[uint64](x), outer, n, inner, kk)
	}
	return nil
}

// topKRow ranks the elements of one row: element i is src[base+i*inner].
type topKRow[T ewNum] struct {
	src         []T
	base, inner int
	largest     bool
}

// before reports whether element a ranks before element b: larger
// (smaller) first, NaN above every number, ties by lower index.
func (r *topKRow[T]) before(a, b int) bool {
	va, vb := r.src[r.base+a*r.inner], r.src[r.base+b*r.inner]
	if va == vb {
		return a < b
	}
	an, bn := va != va, vb != vb
	switch {
	case an && bn:
		return a < b
	case an || bn:
		return an == r.largest
	}
	return (va > vb) == r.largest
}

// down restores the heap property below h[i] in h[:n]: every parent
// ranks after (is worse than) its children.
func (r *topKRow[T]) down(h []int, i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && r.before(h[c], h[c+1]) {
			c++
		}
		if !r.before(h[i], h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

func topKRun[T ewNum](k *topKKernel, dst []T, idx []int64, src []T, outer, n, inner, kk int) {
	h := growInts(&k.heap, kk)
	r := topKRow[T]{src: src, inner: inner, largest: k.largest}
	for o := range outer {
		for j := range inner {
			r.base = o*n*inner + j
			for i := range kk {
				h[i] = i
			}
			for i := kk/2 - 1; i >= 0; i-- {
				r.down(h, i, kk)
			}
			for i := kk; i < n; i++ {
				if r.before(i, h[0]) {
					h[0] = i
					r.down(h, 0, kk)
				}
			}
			ob := o*kk*inner + j
			for m := kk - 1; m >= 0; m-- {
				top := h[0]
				h[0] = h[m]
				r.down(h, 0, m)
				dst[ob+m*inner] = src[r.base+top*inner]
				if idx != nil {
					idx[ob+m*inner] = int64(top)
				}
			}
		}
	}
}

func init() {
	register("TopK", func(c *buildCtx) (kernel, error) {
		if dt := c.inType(0); !hasDType(ewOrdered, dt) {
			return nil, c.unsupported("element type %s (supported: %v)", dt, ewOrdered)
		}
		if c.opset >= 10 && c.inType(1) != payload.Int64 {
			return nil, c.unsupported("K of type %s", c.inType(1))
		}
		a := c.rule.(*model.TopKAttrs)
		k := &topKKernel{axis: a.Axis, largest: a.Largest}
		if len(c.out) > 1 && c.out[1].Name != "" {
			if c.out[1].DType != payload.Int64 {
				return nil, c.invalid("indices output is %s, want int64", c.out[1].DType)
			}
			k.indices = true
		}
		return k, nil
	})
}
