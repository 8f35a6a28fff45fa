package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// reshapeKernel is Reshape: a view of input 0 with the shape the
// descriptor's rule (model.ReshapeAttrs) computes.
type reshapeKernel struct{}

func (k *reshapeKernel) aliasInput() int { return 0 }

func (k *reshapeKernel) run(in, out []*tensor) error { return nil }

// maxDim bounds any dimension or element count a kernel computes.
const maxDim = int(^uint(0) >> 2)

// flattenKernel is Flatten: a 2-D view split at axis.
type flattenKernel struct {
	n    *model.Node
	axis int64
}

func (k *flattenKernel) aliasInput() int { return 0 }

func (k *flattenKernel) run(in, out []*tensor) error { return nil }

func (k *flattenKernel) shape(in, out []*tensor) error {
	x := in[0]
	r := len(x.shape)
	a := k.axis
	if a < -int64(r) || a > int64(r) {
		return shapeErr(k.n, "axis %d out of range for rank %d", k.axis, r)
	}
	if a < 0 {
		a += int64(r)
	}
	outer := mulDims(x.shape[:a])
	inner := mulDims(x.shape[a:])
	if outer < 0 || inner < 0 {
		return shapeErr(k.n, "input shape %v is invalid", x.shape)
	}
	out[0].setShape(outer, inner)
	return nil
}

// squeezeKernel is Squeeze and Unsqueeze: a view removing or inserting
// unit dims. axes come from the attribute (before opset 13) or input 1.
type squeezeKernel struct {
	n       *model.Node
	unsq    bool
	attr    []int64
	hasAttr bool
	buf     []int64
	mark    []int
}

func (k *squeezeKernel) aliasInput() int { return 0 }

func (k *squeezeKernel) run(in, out []*tensor) error { return nil }

func (k *squeezeKernel) axes(in []*tensor) ([]int64, bool, error) {
	if k.hasAttr {
		return k.attr, true, nil
	}
	a := optIn(in, 1)
	if a == nil {
		return nil, false, nil
	}
	if len(a.shape) > 1 {
		return nil, false, shapeErr(k.n, "axes input has shape %v, want 1-D", a.shape)
	}
	v, ok := intValues(a, &k.buf)
	if !ok {
		return nil, false, shapeErr(k.n, "axes input has type %s", a.dt)
	}
	return v, true, nil
}

func (k *squeezeKernel) shape(in, out []*tensor) error {
	axes, given, err := k.axes(in)
	if err != nil {
		return err
	}
	x := in[0]
	r := len(x.shape)
	if k.unsq {
		if !given {
			return shapeErr(k.n, "axes are required")
		}
		or := r + len(axes)
		mark := growInts(&k.mark, or)
		for i := range mark {
			mark[i] = 0
		}
		for _, a := range axes {
			ax, ok := wrapAxis(a, or)
			if !ok {
				return shapeErr(k.n, "axis %d out of range for output rank %d", a, or)
			}
			if mark[ax] != 0 {
				return shapeErr(k.n, "axis %d repeated", a)
			}
			mark[ax] = 1
		}
		dims := out[0].resize(or)
		j := 0
		for i := range dims {
			if mark[i] != 0 {
				dims[i] = 1
				continue
			}
			dims[i] = x.shape[j]
			j++
		}
		return nil
	}
	mark := growInts(&k.mark, r)
	for i := range mark {
		mark[i] = 0
	}
	n := 0
	if !given {
		for i, d := range x.shape {
			if d == 1 {
				mark[i] = 1
				n++
			}
		}
	} else {
		for _, a := range axes {
			ax, ok := wrapAxis(a, r)
			if !ok {
				return shapeErr(k.n, "axis %d out of range for rank %d", a, r)
			}
			if mark[ax] != 0 {
				return shapeErr(k.n, "axis %d repeated", a)
			}
			if x.shape[ax] != 1 {
				return shapeErr(k.n, "axis %d of shape %v is not 1", a, x.shape)
			}
			mark[ax] = 1
			n++
		}
	}
	dims := out[0].resize(r - n)
	j := 0
	for i, d := range x.shape {
		if mark[i] == 0 {
			dims[j] = d
			j++
		}
	}
	return nil
}

func init() {
	register("Reshape", func(c *buildCtx) (kernel, error) {
		if c.n.NumInputs() >= 2 && c.inType(1) != payload.Int64 {
			return nil, c.unsupported("shape input of type %s", c.inType(1))
		}
		return &reshapeKernel{}, nil
	})
	register("Flatten", func(c *buildCtx) (kernel, error) {
		a, err := c.n.Int("axis", 1)
		if err != nil {
			return nil, err
		}
		return &flattenKernel{n: c.n, axis: a}, nil
	})
	sq := func(unsq bool) builder {
		return func(c *buildCtx) (kernel, error) {
			k := &squeezeKernel{n: c.n, unsq: unsq}
			if c.opset < 13 {
				a, err := c.n.Ints("axes", nil)
				if err != nil {
					return nil, err
				}
				k.attr, k.hasAttr = a, a != nil
				if unsq && a == nil {
					return nil, c.invalid("the axes attribute is missing")
				}
			} else {
				if !c.intInputOK(1, false) {
					return nil, c.unsupported("axes input of type %s", c.inType(1))
				}
				if unsq && c.n.NumInputs() < 2 {
					return nil, c.invalid("the axes input is missing")
				}
			}
			return k, nil
		}
	}
	register("Squeeze", sq(false))
	register("Unsqueeze", sq(true))
}
