package cpu

import "github.com/lintel-ml/lintel/model"

// concatKernel is Concat: the inputs joined along axis.
type concatKernel struct {
	n    *model.Node
	axis int64
}

func (k *concatKernel) shape(in, out []*tensor) error {
	x := in[0]
	r := len(x.shape)
	ax, ok := wrapAxis(k.axis, r)
	if !ok {
		return shapeErr(k.n, "axis %d out of range for rank %d", k.axis, r)
	}
	sum := 0
	for _, t := range in {
		if t == nil {
			return shapeErr(k.n, "an input is missing")
		}
		if len(t.shape) != r {
			return shapeErr(k.n, "input shapes %v and %v differ in rank", x.shape, t.shape)
		}
		for d := range t.shape {
			if d != ax && t.shape[d] != x.shape[d] {
				return shapeErr(k.n, "input shapes %v and %v differ off axis %d", x.shape, t.shape, ax)
			}
		}
		if t.shape[ax] > maxDim-sum {
			return shapeErr(k.n, "output too large")
		}
		sum += t.shape[ax]
	}
	dims := out[0].resize(r)
	copy(dims, x.shape)
	dims[ax] = sum
	if mulDims(dims) < 0 {
		return shapeErr(k.n, "output shape %v overflows", dims)
	}
	return nil
}

func (k *concatKernel) run(in, out []*tensor) error {
	y := out[0]
	ax, _ := wrapAxis(k.axis, len(y.shape))
	esz := y.dt.Size()
	outer := mulDims(y.shape[:ax])
	inner := mulDims(y.shape[ax+1:]) * esz
	row := y.shape[ax] * inner
	off := 0
	for _, t := range in {
		n := t.shape[ax] * inner
		if n == 0 {
			continue
		}
		for o := 0; o < outer; o++ {
			copy(y.data[o*row+off:o*row+off+n], t.data[o*n:o*n+n])
		}
		off += n
	}
	return nil
}

func init() {
	register("Concat", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		// Before opset 4 axis was optional, defaulting to 1.
		def := int64(1)
		if !c.n.Has("axis") && c.opset >= 4 {
			return nil, c.invalid("the axis attribute is missing")
		}
		a, err := c.n.Int("axis", def)
		if err != nil {
			return nil, err
		}
		if c.n.NumInputs() == 0 {
			return nil, c.invalid("no inputs")
		}
		for i := range c.n.Inputs {
			if c.inType(i) != c.inType(0) {
				return nil, c.invalid("inputs have types %s and %s", c.inType(0), c.inType(i))
			}
		}
		return &concatKernel{n: c.n, axis: a}, nil
	})
}
