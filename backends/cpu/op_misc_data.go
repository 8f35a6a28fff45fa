package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// depthSpaceKernel is DepthToSpace (DCR or CRD) and SpaceToDepth on NCHW
// input: a reshape to 6-D, a transpose and a reshape back. The
// descriptor's rule (model.DepthSpaceAttrs) sets the output shape.
type depthSpaceKernel struct {
	b       int
	toSpace bool
	crd     bool
	p       stridedCopy
}

func (k *depthSpaceKernel) run(in, out []*tensor) error {
	x := in[0]
	n, c, h, w := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	b := k.b
	dims, st := k.p.reset(6)
	if k.toSpace {
		c2 := c / (b * b)
		hw := h * w
		// Output [N, C2, H, b, W, b]; set each dim's input stride.
		dims[0], dims[1], dims[2], dims[3], dims[4], dims[5] = n, c2, h, b, w, b
		st[0], st[2], st[4] = c*hw, w, 1
		if k.crd {
			// input channel = c2*b*b + i*b + j
			st[1], st[3], st[5] = b*b*hw, b*hw, hw
		} else {
			// input channel = i*b*C2 + j*C2 + c2
			st[1], st[3], st[5] = hw, b*c2*hw, c2*hw
		}
	} else {
		h2, w2 := h/b, w/b
		// Output [N, b(i), b(j), C, H2, W2], input [N, C, H2, b, W2, b].
		dims[0], dims[1], dims[2], dims[3], dims[4], dims[5] = n, b, b, c, h2, w2
		st[0], st[1], st[2], st[3], st[4], st[5] = c*h*w, w, 1, h*w, b*w, b
	}
	k.p.copy(out[0].data, x.data, x.dt.Size(), 0)
	return nil
}

// triluKernel is Trilu: the upper or lower triangle of the last two dims
// (shifted by k, input 1), zero elsewhere. The descriptor's rule
// (model.TriluAttrs) sets the output shape and checks k's.
type triluKernel struct {
	upper bool
}

func (k *triluKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	diag := int64(0)
	if t := optIn(in, 1); t != nil {
		diag = t.i64()[0]
	}
	r := len(x.shape)
	rows, cols := x.shape[r-2], x.shape[r-1]
	esz := x.dt.Size()
	copy(y.data, x.data)
	if rows == 0 || cols == 0 {
		return nil
	}
	mats := len(y.data) / (rows * cols * esz)
	for m := 0; m < mats; m++ {
		for i := 0; i < rows; i++ {
			// Keep j - i >= diag (upper) or j - i <= diag (lower).
			lo, hi := 0, cols // zero [lo, hi)
			if k.upper {
				hi = int(max(0, min(int64(cols), int64(i)+diag)))
			} else {
				lo = int(max(0, min(int64(cols), int64(i)+diag+1)))
			}
			if lo >= hi {
				continue
			}
			row := y.data[(m*rows+i)*cols*esz:]
			clear(row[lo*esz : hi*esz])
		}
	}
	return nil
}

// nonZeroKernel is NonZero: the int64 indices, one row per dim, of the
// non-zero elements of input 0 in row-major order. The descriptor's rule
// (model.NonZeroAttrs) sets the output to [rank, -1]; shape counts the
// elements.
type nonZeroKernel struct {
	ctr []int
}

// nonZeroMask returns the bits that must be clear for an element of dt to
// be zero (the sign bit is ignored for floats, so -0 is zero).
func nonZeroMask(dt payload.DType) uint64 {
	switch dt {
	case payload.Float32:
		return 0x7fffffff
	case payload.Float64:
		return 0x7fffffffffffffff
	case payload.Float16, payload.BF16:
		return 0x7fff
	}
	return ^uint64(0)
}

func countNonZero[W word](v []W, mask W) int {
	n := 0
	for _, x := range v {
		if x&mask != 0 {
			n++
		}
	}
	return n
}

func (k *nonZeroKernel) shape(in, out []*tensor) error {
	x := in[0]
	mask := nonZeroMask(x.dt)
	var n int
	switch x.dt.Size() {
	case 1:
		n = countNonZero(wordsOf[uint8](x.data), uint8(mask))
	case 2:
		n = countNonZero(wordsOf[uint16](x.data), uint16(mask))
	case 4:
		n = countNonZero(wordsOf[uint32](x.data), uint32(mask))
	case 8:
		n = countNonZero(wordsOf[uint64](x.data), mask)
	}
	out[0].shape[1] = n
	return nil
}

func (k *nonZeroKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	mask := nonZeroMask(x.dt)
	switch x.dt.Size() {
	case 1:
		nonZeroIdx(k, wordsOf[uint8](x.data), uint8(mask), x.shape, y)
	case 2:
		nonZeroIdx(k, wordsOf[uint16](x.data), uint16(mask), x.shape, y)
	case 4:
		nonZeroIdx(k, wordsOf[uint32](x.data), uint32(mask), x.shape, y)
	case 8:
		nonZeroIdx(k, wordsOf[uint64](x.data), mask, x.shape, y)
	}
	return nil
}

func nonZeroIdx[W word](k *nonZeroKernel, v []W, mask W, shape []int, y *tensor) {
	r := len(shape)
	nnz := y.shape[1]
	out := y.i64()
	ctr := growInts(&k.ctr, r)
	for i := range ctr {
		ctr[i] = 0
	}
	j := 0
	for _, x := range v {
		if x&mask != 0 {
			for d, c := range ctr {
				out[d*nnz+j] = int64(c)
			}
			j++
		}
		for d := r - 1; d >= 0; d-- {
			ctr[d]++
			if ctr[d] < shape[d] {
				break
			}
			ctr[d] = 0
		}
	}
}

func init() {
	ds := func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		a := c.rule.(*model.DepthSpaceAttrs)
		return &depthSpaceKernel{b: a.Blocksize, toSpace: a.ToSpace, crd: a.CRD}, nil
	}
	register("DepthToSpace", ds)
	register("SpaceToDepth", ds)
	register("Trilu", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if t := c.inType(1); t != payload.Undefined && t != payload.Int64 {
			return nil, c.unsupported("k of type %s", t)
		}
		return &triluKernel{upper: c.rule.(*model.TriluAttrs).Upper}, nil
	})
	register("NonZero", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if c.out[0].DType != payload.Int64 {
			return nil, c.invalid("output type %s, want int64", c.out[0].DType)
		}
		return &nonZeroKernel{}, nil
	})
}
