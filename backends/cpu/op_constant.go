package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// constantKernel is Constant: it copies a value fixed at load time.
type constantKernel struct {
	n   *model.Node
	val *model.Tensor
}

func (k *constantKernel) shape(in, out []*tensor) error {
	out[0].setShape(k.val.Shape...)
	return nil
}

func (k *constantKernel) run(in, out []*tensor) error {
	copy(out[0].data, k.val.Raw)
	return nil
}

// constantValue returns a Constant node's value from whichever value
// attribute it carries.
func constantValue(c *buildCtx) (*model.Tensor, error) {
	n := c.n
	name := n.Outputs[0]
	for _, a := range n.Attrs {
		switch a.Name {
		case "value":
			if a.Type != model.AttrTensor || a.T == nil {
				return nil, c.invalid("value attribute is not a tensor")
			}
			if err := a.T.Check(); err != nil {
				return nil, err
			}
			return a.T, nil
		case "value_float":
			return model.NewTensor(name, nil, []float32{a.F}), nil
		case "value_floats":
			return model.NewTensor(name, []int{len(a.Floats)}, a.Floats), nil
		case "value_int":
			return model.NewTensor(name, nil, []int64{a.I}), nil
		case "value_ints":
			return model.NewTensor(name, []int{len(a.Ints)}, a.Ints), nil
		case "value_string", "value_strings", "sparse_value":
			return nil, c.unsupported("the %s attribute", a.Name)
		}
	}
	return nil, c.invalid("no value attribute")
}

// constantOfShapeKernel is ConstantOfShape: a tensor of the shape input 0
// gives, filled with one value.
type constantOfShapeKernel struct {
	n    *model.Node
	bits uint64
}

func (k *constantOfShapeKernel) shape(in, out []*tensor) error {
	s := in[0]
	if s.dt != payload.Int64 || len(s.shape) != 1 {
		return shapeErr(k.n, "the shape input must be a 1-D int64 tensor")
	}
	v := s.i64()[:s.numel()]
	dims := out[0].resize(len(v))
	for i, d := range v {
		if d < 0 || d > int64(maxDim) {
			return shapeErr(k.n, "shape %v has a bad dim", v)
		}
		dims[i] = int(d)
	}
	if mulDims(dims) < 0 {
		return shapeErr(k.n, "shape %v overflows", v)
	}
	return nil
}

func (k *constantOfShapeKernel) run(in, out []*tensor) error {
	fillBytes(out[0].data, out[0].dt.Size(), k.bits)
	return nil
}

func init() {
	register("Constant", func(c *buildCtx) (kernel, error) {
		v, err := constantValue(c)
		if err != nil {
			return nil, err
		}
		if !v.DType.Valid() {
			return nil, c.unsupported("element type %s", v.DType)
		}
		if dt := c.out[0].DType; dt != payload.Undefined && dt != v.DType {
			return nil, c.invalid("value of type %s for an output of type %s", v.DType, dt)
		}
		return &constantKernel{n: c.n, val: v}, nil
	})
	register("ConstantOfShape", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.Int64 {
			return nil, c.unsupported("shape input of type %s", c.inType(0))
		}
		v, err := c.n.TensorAttr("value")
		if err != nil {
			return nil, err
		}
		k := &constantOfShapeKernel{n: c.n}
		dt := payload.Float32
		if v != nil {
			if err := v.Check(); err != nil {
				return nil, err
			}
			if v.NumElems() != 1 {
				return nil, c.invalid("value has %d elements, want 1", v.NumElems())
			}
			dt = v.DType
			k.bits = constBits(v)
		}
		if !movable(dt) {
			return nil, c.unsupported("value of type %s", dt)
		}
		if o := c.out[0].DType; o != payload.Undefined && o != dt {
			return nil, c.invalid("value of type %s for an output of type %s", dt, o)
		}
		return k, nil
	})
}
