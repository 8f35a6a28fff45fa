package cpu

import "github.com/lintel-ml/lintel/model"

// splitKernel is Split: input 0 cut along axis into the outputs. The
// sizes come from the split attribute (before opset 13), the split input
// (13+), num_outputs (18+, last chunk smaller) or an even split.
type splitKernel struct {
	n          *model.Node
	axis       int64
	attr       []int64
	numOutputs int64
	buf        []int64
}

func (k *splitKernel) shape(in, out []*tensor) error {
	x := in[0]
	r := len(x.shape)
	ax, ok := wrapAxis(k.axis, r)
	if !ok {
		return shapeErr(k.n, "axis %d out of range for rank %d", k.axis, r)
	}
	dim := x.shape[ax]
	n := len(out)
	split := k.attr
	if s := optIn(in, 1); s != nil {
		v, ok := intValues(s, &k.buf)
		if !ok || len(s.shape) != 1 {
			return shapeErr(k.n, "split input must be 1-D int64")
		}
		split = v
	}
	if split != nil {
		if len(split) != n {
			return shapeErr(k.n, "split %v has %d entries for %d outputs", split, len(split), n)
		}
		sum := int64(0)
		for _, s := range split {
			if s < 0 || s > int64(dim) {
				return shapeErr(k.n, "split %v does not fit dim %d", split, dim)
			}
			sum += s
		}
		if sum != int64(dim) {
			return shapeErr(k.n, "split %v does not sum to dim %d", split, dim)
		}
	}
	chunk := 0
	if split == nil {
		if k.numOutputs > 0 {
			if int(k.numOutputs) != n {
				return shapeErr(k.n, "num_outputs %d but %d outputs", k.numOutputs, n)
			}
			chunk = (dim + n - 1) / n
			if n > 1 && chunk*(n-1) > dim {
				return shapeErr(k.n, "dim %d cannot be split into %d outputs", dim, n)
			}
		} else {
			if dim%n != 0 {
				return shapeErr(k.n, "dim %d does not split evenly into %d outputs", dim, n)
			}
			chunk = dim / n
		}
	}
	left := dim
	for j, o := range out {
		dims := o.resize(r)
		copy(dims, x.shape)
		if split != nil {
			dims[ax] = int(split[j])
		} else {
			dims[ax] = min(chunk, left)
			left -= dims[ax]
		}
	}
	return nil
}

func (k *splitKernel) run(in, out []*tensor) error {
	x := in[0]
	ax, _ := wrapAxis(k.axis, len(x.shape))
	esz := x.dt.Size()
	outer := mulDims(x.shape[:ax])
	inner := mulDims(x.shape[ax+1:]) * esz
	row := x.shape[ax] * inner
	off := 0
	for _, y := range out {
		n := y.shape[ax] * inner
		if n == 0 {
			continue
		}
		for o := 0; o < outer; o++ {
			copy(y.data[o*n:o*n+n], x.data[o*row+off:o*row+off+n])
		}
		off += n
	}
	return nil
}

func init() {
	register("Split", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		a, err := c.n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		k := &splitKernel{n: c.n, axis: a}
		if c.opset < 13 {
			if k.attr, err = c.n.Ints("split", nil); err != nil {
				return nil, err
			}
			// Split-1 could take split as an input instead, of the data's
			// element type.
			if c.opset < 2 && c.n.NumInputs() > 1 && !c.intInputOK(1, false) {
				return nil, c.unsupported("split input of type %s at opset %d", c.inType(1), c.opset)
			}
		} else if !c.intInputOK(1, false) {
			return nil, c.unsupported("split input of type %s", c.inType(1))
		}
		if c.opset >= 18 {
			if k.numOutputs, err = c.n.Int("num_outputs", 0); err != nil {
				return nil, err
			}
			if c.n.Has("num_outputs") && c.n.NumInputs() > 1 {
				return nil, c.invalid("both num_outputs and the split input are given")
			}
			if c.n.Has("num_outputs") && k.numOutputs < 1 {
				return nil, c.invalid("num_outputs %d", k.numOutputs)
			}
		}
		if len(c.n.Outputs) == 0 {
			return nil, c.invalid("no outputs")
		}
		for _, o := range c.n.Outputs {
			if o == "" {
				return nil, c.unsupported("omitted outputs")
			}
		}
		return k, nil
	})
}
