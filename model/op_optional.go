package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:       "Optional",
		Versions:   []Version{{Since: 15, MinIn: 0, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind:       bindOptional,
	})
	RegisterOp(&Op{
		Type: "OptionalHasElement",
		Versions: []Version{
			{Since: 15, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 18, MinIn: 0, MaxIn: 1, MaxOut: 1},
		},
		InputNames: []string{"input"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &OptionalHasElementAttrs{}, nil },
	})
	RegisterOp(&Op{
		Type:       "OptionalGetElement",
		Versions:   []Version{{Since: 15, MinIn: 1, MaxIn: 1, MaxOut: 1}, {Since: 18, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &OptionalGetElementAttrs{}, nil },
	})
}

// OptionalAttrs are an Optional node's attributes: with an input the
// output is an optional holding it; without one it is an empty optional
// of the type attribute's type (see
// docs/adr/0026-sequences-and-optionals.md).
type OptionalAttrs struct {
	// Type is the type attribute, the element's type (a tensor or a
	// sequence of tensors), or nil when absent. With an input it must
	// agree with the input's kind and element type.
	Type *ValueInfo
}

func bindOptional(n *Node, opset int64) (Rule, error) {
	tp, err := n.TypeAttr("type")
	if err != nil || tp == nil {
		return &OptionalAttrs{}, err
	}
	if tp.Kind != KindTensor && tp.Kind != KindSequence {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): type is a %s: the element of an optional is a tensor or a sequence of tensors", n.Label(), n.OpType, tp.Kind)
	}
	if !tp.DType.Valid() && tp.DType != payload.String {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): type has element type %s", n.Label(), n.OpType, tp.DType)
	}
	return &OptionalAttrs{Type: tp}, nil
}

// Infer implements Rule.
func (a *OptionalAttrs) Infer(c *InferCtx) error {
	if !c.Has(0) {
		tp := a.Type
		if tp == nil {
			return c.Errorf("an empty optional (no input) needs the type attribute")
		}
		c.SetType(0, tp.DType)
		// A sequence's elements may differ in shape: like other
		// sequences, its element shape is left unknown.
		if tp.RankKnown && tp.Kind == KindTensor {
			c.SetDims(0, tp.Shape)
		} else {
			c.SetUnranked(0)
		}
		c.SetKind(0, KindOptional)
		if tp.Kind == KindSequence {
			c.SetKind(0, KindOptionalSequence)
		}
		return nil
	}
	if tp := a.Type; tp != nil {
		if tp.Kind.IsSequence() != c.Kind(0).IsSequence() {
			return c.Errorf("type is a %s, the input a %s", tp.Kind, c.Kind(0))
		}
		if dt := c.DType(0); dt != payload.Undefined && dt != tp.DType {
			return c.Errorf("type has element type %s, the input %s", tp.DType, dt)
		}
	}
	c.Same(0, 0)
	c.SetKind(0, KindOptional)
	if c.Kind(0).IsSequence() {
		c.SetKind(0, KindOptionalSequence)
	}
	return nil
}

// OptionalHasElementAttrs are an OptionalHasElement node's (none). The
// output is a bool scalar: false when the input is absent (from opset
// 18) or an optional with no element, true otherwise.
type OptionalHasElementAttrs struct{}

// Infer implements Rule.
func (a *OptionalHasElementAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Bool)
	c.OutDims(0, 0)
	c.SetKind(0, KindTensor)
	return nil
}

// OptionalGetElementAttrs are an OptionalGetElement node's (none): the
// output is the element of an optional (a tensor or a sequence); a
// tensor or sequence input (opset 18) passes through.
type OptionalGetElementAttrs struct{}

// Infer implements Rule.
func (a *OptionalGetElementAttrs) Infer(c *InferCtx) error {
	if !c.Has(0) {
		return c.Errorf("input 0 is required")
	}
	c.Same(0, 0)
	c.SetKind(0, KindTensor)
	if c.Kind(0).IsSequence() {
		c.SetKind(0, KindSequence)
	}
	return nil
}
