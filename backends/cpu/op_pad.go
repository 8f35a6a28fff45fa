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
// 18) from input 3. Negative pads crop. The descriptor's rule
// (model.PadAttrs) sets the output shape; run plans the copy from the
// same pads.
type padKernel struct {
	n        *model.Node
	mode     int
	attr     []int64
	attrBits uint64
	buf      [2][]int64
	begin    []int
	st       []int
	p        mapCopy
}

// plan fills k.begin with each dim's leading pad. The rule has checked
// the pads and axes against the input's rank.
func (k *padKernel) plan(in []*tensor) {
	r := len(in[0].shape)
	pads := k.attr
	if pads == nil {
		pads = in[1].i64()
	}
	var axes []int64
	if t := optIn(in, 3); t != nil {
		axes, _ = intValues(t, &k.buf[1])
	}
	m := r
	if axes != nil {
		m = len(axes)
	}
	k.begin = growInts(&k.begin, r)
	for i := range k.begin {
		k.begin[i] = 0
	}
	for i := 0; i < m; i++ {
		ax := i
		if axes != nil {
			ax, _ = wrapAxis(axes[i], r)
		}
		k.begin[ax] = int(pads[i])
	}
}

func (k *padKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	k.plan(in)
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
		a := c.rule.(*model.PadAttrs)
		k := &padKernel{n: c.n}
		switch a.Mode {
		case "constant":
			k.mode = padConstant
		case "reflect":
			k.mode = padReflect
		case "edge":
			k.mode = padEdge
		case "wrap":
			k.mode = padWrap
		default:
			return nil, c.unsupported("mode %q", a.Mode)
		}
		if a.Attrs {
			k.attr = a.Pads
			var ok bool
			if k.attrBits, ok = floatBits(c.inType(0), float64(a.Value)); !ok {
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
