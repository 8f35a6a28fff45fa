package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// constantKernel is Constant: it copies a value fixed at load time, whose
// shape the descriptor's rule (model.ConstantAttrs) sets.
type constantKernel struct {
	val *model.Tensor
}

func (k *constantKernel) run(in, out []*tensor) error {
	copy(out[0].data, k.val.Raw)
	return nil
}

// constantValue returns a Constant node's value, which its descriptor
// took from whichever value attribute it carries.
func constantValue(c *buildCtx) (*model.Tensor, error) {
	if v := c.rule.(*model.ConstantAttrs).Value; v != nil {
		if err := v.Check(); err != nil {
			return nil, err
		}
		return v, nil
	}
	for _, a := range c.n.Attrs {
		switch a.Name {
		case "value_string", "value_strings", "sparse_value":
			return nil, c.unsupported("the %s attribute", a.Name)
		}
	}
	return nil, c.invalid("no value attribute")
}

// constantOfShapeKernel is ConstantOfShape: a tensor of the shape input 0
// gives (the descriptor's rule, model.ConstantOfShapeAttrs, sets it),
// filled with one value.
type constantOfShapeKernel struct {
	bits uint64
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
		return &constantKernel{val: v}, nil
	})
	register("ConstantOfShape", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.Int64 {
			return nil, c.unsupported("shape input of type %s", c.inType(0))
		}
		a := c.rule.(*model.ConstantOfShapeAttrs)
		k := &constantOfShapeKernel{}
		dt := a.DType
		if v := a.Value; v != nil {
			if err := v.Check(); err != nil {
				return nil, err
			}
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
