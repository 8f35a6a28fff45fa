package model

import (
	"strings"

	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:       "Cast",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			to, err := castTo(n, opset)
			if err != nil {
				return nil, err
			}
			sat, err := castSaturate(n, opset)
			if err != nil {
				return nil, err
			}
			mode, err := castRoundMode(n, opset)
			if err != nil {
				return nil, err
			}
			return &CastAttrs{To: to, Saturate: sat, RoundMode: mode}, nil
		},
	})
	RegisterOp(&Op{
		Type:       "CastLike",
		Versions:   []Version{{Since: 15, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"input", "target_type"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			sat, err := castSaturate(n, opset)
			if err != nil {
				return nil, err
			}
			mode, err := castRoundMode(n, opset)
			if err != nil {
				return nil, err
			}
			return &CastLikeAttrs{Saturate: sat, RoundMode: mode}, nil
		},
	})
}

// maxONNXDType is the largest element type ONNX defines (INT2).
const maxONNXDType = 26

// castTypeNames are TensorProto.DataType's names, which Cast's to
// attribute holds before opset 6.
var castTypeNames = []string{
	payload.Float32: "FLOAT", payload.Uint8: "UINT8", payload.Int8: "INT8",
	payload.Uint16: "UINT16", payload.Int16: "INT16", payload.Int32: "INT32",
	payload.Int64: "INT64", payload.String: "STRING", payload.Bool: "BOOL",
	payload.Float16: "FLOAT16", payload.Float64: "DOUBLE", payload.Uint32: "UINT32",
	payload.Uint64: "UINT64", payload.Complex64: "COMPLEX64",
	payload.Complex128: "COMPLEX128", payload.BF16: "BFLOAT16",
}

// castTo reads Cast's required to attribute: a type name before opset
// 6, a TensorProto.DataType value after.
func castTo(n *Node, opset int64) (payload.DType, error) {
	at := n.Attr("to")
	if at == nil {
		return 0, attrMissing(n, "to")
	}
	if opset < 6 && at.Type == AttrString {
		for dt, name := range castTypeNames {
			if name != "" && strings.EqualFold(name, at.S) {
				return payload.DType(dt), nil
			}
		}
		return 0, invalidAttr(n, "the to attribute %q is not an element type", at.S)
	}
	to, err := n.Int("to", 0)
	if err != nil {
		return 0, err
	}
	if to >= 1 && to <= maxONNXDType {
		return payload.DType(to), nil
	}
	return 0, invalidAttr(n, "the to attribute %d is not an element type", to)
}

// castRoundMode reads the round_mode attribute of opset 24 on (default
// "up"), which says how a cast to float8e8m0 rounds.
func castRoundMode(n *Node, opset int64) (payload.E8M0Rounding, error) {
	if opset < 24 {
		return payload.E8M0Up, nil
	}
	s, err := n.String("round_mode", "up")
	if err != nil {
		return 0, err
	}
	switch s {
	case "up":
		return payload.E8M0Up, nil
	case "down":
		return payload.E8M0Down, nil
	case "nearest":
		return payload.E8M0Nearest, nil
	}
	return 0, invalidAttr(n, "round_mode must be up, down or nearest, got %q", s)
}

// castSaturate reads the saturate attribute of opset 19 on (default 1).
func castSaturate(n *Node, opset int64) (bool, error) {
	if opset < 19 {
		return true, nil
	}
	s, err := n.Int("saturate", 1)
	if err != nil {
		return false, err
	}
	if s != 0 && s != 1 {
		return false, invalidAttr(n, "saturate must be 0 or 1, got %d", s)
	}
	return s == 1, nil
}

// CastAttrs are a Cast node's attributes. The output has the input's
// shape and element type To.
type CastAttrs struct {
	// To is the element type to cast to.
	To payload.DType
	// Saturate is the saturate attribute (opset 19 on; true before): a
	// value out of a float 8 type's range becomes its largest value
	// rather than infinity or NaN. It matters only to float 8 targets.
	Saturate bool
	// RoundMode is the round_mode attribute (opset 24 on; up before): how
	// a value that is not a power of two rounds to float8e8m0.
	RoundMode payload.E8M0Rounding
}

// Infer implements Rule.
func (a *CastAttrs) Infer(c *InferCtx) error {
	c.SameShape(0, 0, a.To)
	return nil
}

// CastLikeAttrs are a CastLike node's attributes. The output has the
// input's shape and the element type of input 1 (target_type).
type CastLikeAttrs struct {
	// Saturate is as CastAttrs.Saturate.
	Saturate bool
	// RoundMode is as CastAttrs.RoundMode.
	RoundMode payload.E8M0Rounding
}

// Infer implements Rule.
func (a *CastLikeAttrs) Infer(c *InferCtx) error {
	c.SameShape(0, 0, c.DType(1))
	return nil
}
