package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
)

// AttrType is an attribute's type; the values are ONNX's
// AttributeProto.AttributeType.
type AttrType uint8

// The attribute types.
const (
	AttrUndefined AttrType = 0
	AttrFloat     AttrType = 1
	AttrInt       AttrType = 2
	AttrString    AttrType = 3
	AttrTensor    AttrType = 4
	AttrGraph     AttrType = 5
	AttrFloats    AttrType = 6
	AttrInts      AttrType = 7
	AttrStrings   AttrType = 8
	AttrTensors   AttrType = 9
	AttrGraphs    AttrType = 10
	// AttrTypeProto is a value type (TYPE_PROTO), held in TP.
	AttrTypeProto AttrType = 13
)

// Attr is a node attribute. Type says which field holds the value.
type Attr struct {
	Name    string
	Type    AttrType
	F       float32
	I       int64
	S       string
	T       *Tensor
	G       *Graph
	Floats  []float32
	Ints    []int64
	Strings []string
	Tensors []*Tensor
	Graphs  []*Graph
	// TP is a type attribute's value type: Kind says whether it is a
	// tensor, a sequence of tensors or an optional, and DType, Shape and
	// DimParams describe the (element) tensor, as for a value_info entry.
	TP *ValueInfo
	// RefAttrName is set for an attribute that refers to an attribute of
	// an enclosing function; lintel does not support those.
	RefAttrName string
}

// Attr returns the attribute named name, or nil.
func (n *Node) Attr(name string) *Attr {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			return &n.Attrs[i]
		}
	}
	return nil
}

// Has reports whether n has an attribute named name.
func (n *Node) Has(name string) bool { return n.Attr(name) != nil }

func (n *Node) attrOf(name string, t AttrType) (*Attr, error) {
	a := n.Attr(name)
	if a == nil {
		return nil, nil
	}
	if a.Type != t {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): attribute %q has type %d, want %d", n.Label(), n.OpType, name, a.Type, t)
	}
	return a, nil
}

// Int returns the int attribute name, or def when absent.
func (n *Node) Int(name string, def int64) (int64, error) {
	a, err := n.attrOf(name, AttrInt)
	if a == nil || err != nil {
		return def, err
	}
	return a.I, nil
}

// Float returns the float attribute name, or def when absent.
func (n *Node) Float(name string, def float32) (float32, error) {
	a, err := n.attrOf(name, AttrFloat)
	if a == nil || err != nil {
		return def, err
	}
	return a.F, nil
}

// String returns the string attribute name, or def when absent.
func (n *Node) String(name string, def string) (string, error) {
	a, err := n.attrOf(name, AttrString)
	if a == nil || err != nil {
		return def, err
	}
	return a.S, nil
}

// Ints returns the ints attribute name, or def when absent.
func (n *Node) Ints(name string, def []int64) ([]int64, error) {
	a, err := n.attrOf(name, AttrInts)
	if a == nil || err != nil {
		return def, err
	}
	return a.Ints, nil
}

// Floats returns the floats attribute name, or def when absent.
func (n *Node) Floats(name string, def []float32) ([]float32, error) {
	a, err := n.attrOf(name, AttrFloats)
	if a == nil || err != nil {
		return def, err
	}
	return a.Floats, nil
}

// TypeAttr returns the type attribute name, or nil when absent.
func (n *Node) TypeAttr(name string) (*ValueInfo, error) {
	a, err := n.attrOf(name, AttrTypeProto)
	if a == nil || err != nil {
		return nil, err
	}
	if a.TP == nil {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): attribute %q has no type", n.Label(), n.OpType, name)
	}
	return a.TP, nil
}

// TensorAttr returns the tensor attribute name, or nil when absent.
func (n *Node) TensorAttr(name string) (*Tensor, error) {
	a, err := n.attrOf(name, AttrTensor)
	if a == nil || err != nil {
		return nil, err
	}
	return a.T, nil
}
