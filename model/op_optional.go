package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "Optional",
		Versions:   []Version{{Since: 15, MinIn: 0, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &OptionalAttrs{}, nil },
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

// OptionalAttrs are an Optional node's (none): with an input the output
// is an optional holding it; without one (an empty optional, typed by
// the type attribute, which lintel does not decode) the rule refuses
// (see docs/adr/0026-sequences-and-optionals.md).
type OptionalAttrs struct{}

// Infer implements Rule.
func (a *OptionalAttrs) Infer(c *InferCtx) error {
	if !c.Has(0) {
		return c.Errorf("an empty optional (no input) is not supported")
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
