package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Pad modes.
const (
	padConstant = iota
	padReflect
	padEdge
	padWrap
)

// padKernel is Pad: pads come from the attribute (before opset 11) or
// input 1; the constant from the value attribute or input 2; axes (opset
// 18) from input 3. Negative pads crop.
type padKernel struct {
	n        *model.Node
	mode     int
	attr     []int64
	attrBits uint64
	buf      [2][]int64
	begin    []int
	st       []int
	mark     []int
	p        mapCopy
}

// plan fills k.begin with each dim's leading pad and dims with the output
// shape.
func (k *padKernel) plan(in []*tensor, dims []int) error {
	x := in[0]
	r := len(x.shape)
	pads := k.attr
	if pads == nil {
		t := optIn(in, 1)
		if t == nil || t.dt != payload.Int64 || len(t.shape) > 1 {
			return shapeErr(k.n, "pads must be a 1-D int64 tensor")
		}
		pads = t.i64()[:t.numel()]
	}
	var axes []int64
	if t := optIn(in, 3); t != nil {
		var ok bool
		if axes, ok = intValues(t, &k.buf[1]); !ok || len(t.shape) > 1 {
			return shapeErr(k.n, "axes must be a 1-D int32 or int64 tensor")
		}
	}
	m := r
	if axes != nil {
		m = len(axes)
	}
	if len(pads) != 2*m {
		return shapeErr(k.n, "%d pads for %d axes", len(pads), m)
	}
	k.begin = growInts(&k.begin, r)
	mark := growInts(&k.mark, r)
	for i := 0; i < r; i++ {
		k.begin[i] = 0
		dims[i] = x.shape[i]
		mark[i] = 0
	}
	for i := 0; i < m; i++ {
		ax := i
		if axes != nil {
			var ok bool
			if ax, ok = wrapAxis(axes[i], r); !ok {
				return shapeErr(k.n, "axis %d out of range for rank %d", axes[i], r)
			}
		}
		if mark[ax] != 0 {
			return shapeErr(k.n, "axis %d repeated", ax)
		}
		mark[ax] = 1
		b, e := pads[i], pads[i+m]
		lim := int64(maxDim / 4)
		if b > lim || b < -lim || e > lim || e < -lim {
			return shapeErr(k.n, "pads %v too large", pads)
		}
		d := int64(x.shape[ax]) + b + e
		if d < 0 {
			return shapeErr(k.n, "pads %v crop dim %d of shape %v below zero", pads, ax, x.shape)
		}
		if k.mode != padConstant && x.shape[ax] == 0 && d > 0 {
			return shapeErr(k.n, "cannot pad an empty dim %d in this mode", ax)
		}
		dims[ax] = int(d)
		k.begin[ax] = int(b)
	}
	if mulDims(dims) < 0 {
		return shapeErr(k.n, "output shape %v overflows", dims)
	}
	return nil
}

func (k *padKernel) shape(in, out []*tensor) error {
	return k.plan(in, out[0].resize(len(in[0].shape)))
}

func (k *padKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	if err := k.plan(in, y.shape); err != nil {
		return err
	}
	k.st = growInts(&k.st, r)
	rowStrides(k.st, x.shape)
	k.p.reset(y.shape, k.st)
	for ax := 0; ax < r; ax++ {
		padMap(k.p.mapOf(ax), x.shape[ax], k.begin[ax], k.mode)
	}
	bits := k.attrBits
	if k.attr == nil {
		bits = scalarBits(optIn(in, 2))
	}
	k.p.copy(y.data, x.data, x.dt.Size(), bits)
	return nil
}

// padMap fills m with the input index each output index along one dim
// reads (-1: the constant), for an input dim of size d padded by b ahead.
func padMap(m []int, d, b, mode int) {
	for o := range m {
		i := o - b
		if i >= 0 && i < d {
			m[o] = i
			continue
		}
		switch mode {
		case padConstant:
			m[o] = -1
		case padEdge:
			m[o] = max(0, min(i, d-1))
		case padWrap:
			i %= d
			if i < 0 {
				i += d
			}
			m[o] = i
		case padReflect:
			if d == 1 {
				m[o] = 0
				continue
			}
			p := 2 * (d - 1)
			i %= p
			if i < 0 {
				i += p
			}
			if i >= d {
				i = p - i
			}
			m[o] = i
		}
	}
}

func init() {
	register("Pad", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		mode, err := c.n.String("mode", "constant")
		if err != nil {
			return nil, err
		}
		k := &padKernel{n: c.n}
		switch mode {
		case "constant":
			k.mode = padConstant
		case "reflect":
			k.mode = padReflect
		case "edge":
			k.mode = padEdge
		case "wrap":
			k.mode = padWrap
		default:
			return nil, c.unsupported("mode %q", mode)
		}
		if c.opset < 11 {
			name := "pads"
			if c.opset < 2 {
				name = "paddings" // Pad-1's name, same layout
			}
			if k.attr, err = c.n.Ints(name, nil); err != nil {
				return nil, err
			}
			if k.attr == nil {
				return nil, c.invalid("the pads attribute is missing")
			}
			v, err := c.n.Float("value", 0)
			if err != nil {
				return nil, err
			}
			var ok bool
			if k.attrBits, ok = floatBits(c.inType(0), float64(v)); !ok {
				return nil, c.unsupported("element type %s", c.inType(0))
			}
			return k, nil
		}
		if c.n.NumInputs() < 2 || c.inType(1) != payload.Int64 {
			return nil, c.invalid("the pads input is missing or not int64")
		}
		if t := c.inType(2); t != payload.Undefined && t != c.inType(0) {
			return nil, c.invalid("constant_value of type %s for data of type %s", t, c.inType(0))
		}
		if !c.intInputOK(3, true) {
			return nil, c.unsupported("axes of type %s", c.inType(3))
		}
		return k, nil
	})
}
