package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:     "Constant",
		Versions: []Version{{Since: 1, MinIn: 0, MaxIn: 0, MaxOut: 1}},
		Bind: func(n *Node, opset int64) (Rule, error) {
			t, err := constantTensor(n)
			if err != nil {
				return nil, err
			}
			return &ConstantAttrs{Value: t}, nil
		},
	})
	RegisterOp(&Op{
		Type:       "ConstantOfShape",
		Versions:   []Version{{Since: 9, MinIn: 1, MaxIn: 1, MaxOut: 1, Values: []int{0}}},
		InputNames: []string{"input"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			t, err := n.TensorAttr("value")
			if err != nil {
				return nil, err
			}
			a := &ConstantOfShapeAttrs{Value: t, DType: payload.Float32}
			if t != nil {
				if k := t.NumElems(); k != 1 {
					return nil, attrInvalid(n, "value has %d elements, want 1", k)
				}
				a.DType = t.DType
			}
			return a, nil
		},
	})
}

// ConstantAttrs are a Constant node's attributes: its value, from
// whichever of value, value_float, value_floats, value_int or value_ints
// it carries.
type ConstantAttrs struct {
	// Value is the tensor the node produces; nil when its value is of a
	// kind lintel does not handle (strings, sparse) or missing.
	Value *Tensor
}

// Infer implements Rule.
func (a *ConstantAttrs) Infer(c *InferCtx) error {
	if a.Value == nil {
		c.SetType(0, payload.Undefined)
		c.SetUnranked(0)
		return nil
	}
	if len(a.Value.Shape) > maxRank {
		return c.Errorf("value rank %d too large", len(a.Value.Shape))
	}
	c.SetType(0, a.Value.DType)
	c.SetDims(0, a.Value.Shape)
	return nil
}

// constantTensor returns the tensor a Constant node produces, or nil when
// its value is of a kind lintel does not handle (strings, sparse).
func constantTensor(n *Node) (*Tensor, error) {
	for _, a := range n.Attrs {
		bad := func() (*Tensor, error) {
			return nil, errs.New(errs.InvalidArtifact, "node %q (Constant): attribute %q has type %d", n.Label(), a.Name, a.Type)
		}
		switch a.Name {
		case "value":
			if a.Type != AttrTensor || a.T == nil {
				return bad()
			}
			return a.T, nil
		case "value_float":
			if a.Type != AttrFloat {
				return bad()
			}
			return NewTensor("", []int{}, []float32{a.F}), nil
		case "value_floats":
			if a.Type != AttrFloats {
				return bad()
			}
			return NewTensor("", []int{len(a.Floats)}, a.Floats), nil
		case "value_int":
			if a.Type != AttrInt {
				return bad()
			}
			return NewTensor("", []int{}, []int64{a.I}), nil
		case "value_ints":
			if a.Type != AttrInts {
				return bad()
			}
			return NewTensor("", []int{len(a.Ints)}, a.Ints), nil
		}
	}
	return nil, nil
}

// ConstantOfShapeAttrs are a ConstantOfShape node's attributes. The
// output has the dims input 0 holds, every element Value's one element
// (a float32 0 by default).
type ConstantOfShapeAttrs struct {
	// Value is the value attribute, a one-element tensor; nil when
	// absent.
	Value *Tensor
	// DType is Value's element type, float32 when absent.
	DType payload.DType
}

// Infer implements Rule.
func (a *ConstantOfShapeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, a.DType)
	if dt := c.DType(0); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("the shape input has element type %s: it must hold int64", dt)
	}
	if r := c.Rank(0); r >= 0 && r != 1 {
		return c.Errorf("the shape input has rank %d, want 1", r)
	}
	vals, ok := c.Ints(0)
	if !ok {
		if l := c.VecLen(0); l >= 0 {
			if err := c.RankOK(l); err != nil {
				return err
			}
			c.SetUnknownDims(0, l)
			return nil
		}
		c.SetUnranked(0)
		return nil
	}
	if err := c.RankOK(len(vals)); err != nil {
		return err
	}
	out := c.OutDims(0, len(vals))
	for i, x := range vals {
		d, err := c.Dim(x, "shape")
		if err != nil {
			return err
		}
		out[i] = d
	}
	return nil
}
