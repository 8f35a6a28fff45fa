package model

import (
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// legacyTypes returns the output types of n where n is in a form its op
// had in early opsets that the shape rules of later opsets misread
// (broadcast and axis attributes, Reshape's shape attribute, Pad's
// paddings, Split-1's split input...): the element type where it is
// known, the shape left unknown for the backend to compute or refuse.
// ok is false for every other node.
func (c *inferCtx) legacyTypes(outs []ValueInfo) (ok bool, err error) {
	n, op, v := c.n, c.n.OpType, c.opset
	var dt payload.DType
	switch {
	case v < 7 && (broadcastOps[op] || compareOps[op]) && n.Has("broadcast"):
		dt = c.dt(0)
		if compareOps[op] {
			dt = payload.Bool
		}
	case v < 4 && op == "Concat" && !n.Has("axis"),
		v < 5 && op == "Reshape" && n.NumInputs() < 2,
		v < 2 && op == "Pad",
		v < 7 && op == "Upsample",
		v < 6 && op == "Tile":
		dt = c.dt(0)
	case v < 2 && op == "Split" && n.NumInputs() > 1:
		dt = c.dt(0)
	case v < 6 && op == "Cast":
		to, err := CastTo(n, v)
		if err != nil {
			return false, err
		}
		dt = payload.DType(to)
	default:
		return false, nil
	}
	for i := range outs {
		outs[i] = unranked(dt)
	}
	return true, nil
}

// CastTo returns Cast's target element type from its "to" attribute: an
// int, or before opset 6 the name of a TensorProto.DataType ("FLOAT",
// "INT64"...). A missing or unknown type is an errs.InvalidArtifact error.
func CastTo(n *Node, opset int64) (int64, error) {
	a := n.Attr("to")
	if a == nil {
		return 0, errs.New(errs.InvalidArtifact, "node %q (%s): attribute \"to\" is missing", n.Label(), n.OpType)
	}
	if opset >= 6 || a.Type != AttrString {
		return n.Int("to", 0)
	}
	for dt := payload.Float32; dt <= payload.BF16; dt++ {
		if strings.EqualFold(a.S, dataTypeNames[dt]) {
			return int64(dt), nil
		}
	}
	return 0, errs.New(errs.InvalidArtifact, "node %q (%s): attribute \"to\" names no element type: %q", n.Label(), n.OpType, a.S)
}

// dataTypeNames are TensorProto.DataType's enum names.
var dataTypeNames = [...]string{
	payload.Float32: "FLOAT", payload.Uint8: "UINT8", payload.Int8: "INT8", payload.Uint16: "UINT16",
	payload.Int16: "INT16", payload.Int32: "INT32", payload.Int64: "INT64", payload.String: "STRING",
	payload.Bool: "BOOL", payload.Float16: "FLOAT16", payload.Float64: "DOUBLE", payload.Uint32: "UINT32",
	payload.Uint64: "UINT64", payload.Complex64: "COMPLEX64", payload.Complex128: "COMPLEX128", payload.BF16: "BFLOAT16",
}
