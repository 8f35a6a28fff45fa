package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "BitCast",
		Versions:   []Version{{Since: 26, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			if n.Attr("to") == nil {
				return nil, attrMissing(n, "to")
			}
			to, err := n.Int("to", 0)
			if err != nil {
				return nil, err
			}
			if to < 1 || to > maxONNXDType || to == int64(payload.String) {
				return nil, invalidAttr(n, "the to attribute %d is not a non-string element type", to)
			}
			return &BitCastAttrs{To: payload.DType(to)}, nil
		},
	})
}

// BitCastAttrs are a BitCast node's attributes. The output has the
// input's shape and element type To, whose width in bits (DType.Bits)
// must be the input's: each element's bits are reinterpreted.
type BitCastAttrs struct {
	// To is the element type to reinterpret the elements as.
	To payload.DType
}

// Infer implements Rule.
func (a *BitCastAttrs) Infer(c *InferCtx) error {
	switch dt := c.DType(0); {
	case dt == payload.String:
		return c.Errorf("string tensors cannot be bitcast")
	case dt != payload.Undefined && dt.Bits() != a.To.Bits():
		return c.Errorf("%s has %d bits, %s has %d: BitCast needs the same width", dt, dt.Bits(), a.To, a.To.Bits())
	}
	c.SameShape(0, 0, a.To)
	return nil
}
