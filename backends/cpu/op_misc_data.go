package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// depthSpaceKernel is DepthToSpace (DCR or CRD) and SpaceToDepth on NCHW
// input: a reshape to 6-D, a transpose and a reshape back.
type depthSpaceKernel struct {
	n       *model.Node
	b       int
	toSpace bool
	crd     bool
	p       stridedCopy
}

func (k *depthSpaceKernel) shape(in, out []*tensor) error {
	x := in[0]
	if len(x.shape) != 4 {
		return shapeErr(k.n, "input shape %v, want 4-D", x.shape)
	}
	n, c, h, w := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	b := k.b
	if k.toSpace {
		if c%(b*b) != 0 || h > maxDim/b || w > maxDim/b {
			return shapeErr(k.n, "input shape %v does not fit blocksize %d", x.shape, b)
		}
		out[0].setShape(n, c/(b*b), h*b, w*b)
		return nil
	}
	if h%b != 0 || w%b != 0 || c > maxDim/(b*b) {
		return shapeErr(k.n, "input shape %v does not fit blocksize %d", x.shape, b)
	}
	out[0].setShape(n, c*b*b, h/b, w/b)
	return nil
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
// (shifted by k, input 1), zero elsewhere.
type triluKernel struct {
	n     *model.Node
	upper bool
}

func (k *triluKernel) shape(in, out []*tensor) error {
	x := in[0]
	if len(x.shape) < 2 {
		return shapeErr(k.n, "input shape %v, want rank 2 or more", x.shape)
	}
	if t := optIn(in, 1); t != nil && (t.dt != payload.Int64 || t.numel() != 1) {
		return shapeErr(k.n, "k must be an int64 scalar")
	}
	out[0].setShape(x.shape...)
	return nil
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
// non-zero elements of input 0 in row-major order.
type nonZeroKernel struct {
	n   *model.Node
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
	out[0].setShape(len(x.shape), n)
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
	ds := func(toSpace bool) builder {
		return func(c *buildCtx) (kernel, error) {
			if err := c.needMovable(); err != nil {
				return nil, err
			}
			b, err := c.n.Int("blocksize", 0)
			if err != nil {
				return nil, err
			}
			if b < 1 || b > 1<<15 {
				return nil, c.invalid("blocksize %d", b)
			}
			k := &depthSpaceKernel{n: c.n, b: int(b), toSpace: toSpace}
			if toSpace {
				mode, err := c.n.String("mode", "DCR")
				if err != nil {
					return nil, err
				}
				switch mode {
				case "DCR":
				case "CRD":
					k.crd = true
				default:
					return nil, c.unsupported("mode %q", mode)
				}
			}
			return k, nil
		}
	}
	register("DepthToSpace", ds(true))
	register("SpaceToDepth", ds(false))
	register("Trilu", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		u, err := c.n.Int("upper", 1)
		if err != nil {
			return nil, err
		}
		if t := c.inType(1); t != payload.Undefined && t != payload.Int64 {
			return nil, c.unsupported("k of type %s", t)
		}
		return &triluKernel{n: c.n, upper: u != 0}, nil
	})
	register("NonZero", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if c.out[0].DType != payload.Int64 {
			return nil, c.invalid("output type %s, want int64", c.out[0].DType)
		}
		return &nonZeroKernel{n: c.n}, nil
	})
}
