package model

import "github.com/lintel-ml/lintel/payload"

// ValueInfo is the type of a value: its element type and what is known of
// its shape.
type ValueInfo struct {
	Name  string
	DType payload.DType
	// Shape has -1 for a dimension not known statically. It is nil when
	// the rank is unknown; check RankKnown to tell a scalar from that.
	Shape     []int
	RankKnown bool
	// DimParams names the symbolic dimensions the file gave, "" elsewhere.
	// It is nil or as long as Shape.
	DimParams []string
	// Kind says whether the value is a tensor (the zero value), a
	// sequence of tensors or an optional; DType, Shape and DimParams then
	// describe the element tensor (the shape is often unknown).
	Kind ValueKind
}

// ValueKind is the kind of an ONNX value: see
// docs/adr/0026-sequences-and-optionals.md.
type ValueKind uint8

// The kinds of value.
const (
	// KindTensor is a tensor.
	KindTensor ValueKind = iota
	// KindSequence is a sequence of tensors of one element type.
	KindSequence
	// KindOptional is an optional tensor: a tensor or none.
	KindOptional
	// KindOptionalSequence is an optional sequence of tensors.
	KindOptionalSequence
)

// IsSequence reports whether a value of kind k holds a sequence when it
// holds anything.
func (k ValueKind) IsSequence() bool { return k == KindSequence || k == KindOptionalSequence }

// IsOptional reports whether a value of kind k may hold none.
func (k ValueKind) IsOptional() bool { return k == KindOptional || k == KindOptionalSequence }

// String returns "tensor", "sequence", "optional" or "optional sequence".
func (k ValueKind) String() string {
	switch k {
	case KindTensor:
		return "tensor"
	case KindSequence:
		return "sequence"
	case KindOptional:
		return "optional"
	case KindOptionalSequence:
		return "optional sequence"
	}
	return "unknown kind"
}

// Node is one operator application.
type Node struct {
	Name   string
	OpType string
	// Domain is "" for the default ONNX domain ("ai.onnx").
	Domain string
	// Inputs names the input values; "" marks an omitted optional input.
	Inputs  []string
	Outputs []string
	Attrs   []Attr
	Doc     string
	// Fused is what FuseActivations folded into the node, nil for none.
	// Decoded files never set it.
	Fused *Fusion
}

// Graph is a model's computation graph with its metadata.
type Graph struct {
	Name string
	// Inputs are the values a caller feeds: the file's graph inputs less
	// those backed by an initializer.
	Inputs  []ValueInfo
	Outputs []ValueInfo
	// Nodes are in topological order once Sort has run.
	Nodes []*Node
	// Initializers are the constant tensors, by value name. Inputs that a
	// file declares with an initializer (overridable defaults) are kept
	// here, not in Inputs.
	Initializers map[string]*Tensor
	// Values holds the type of every value known: from the file's
	// value_info, inputs and outputs, and from shape inference.
	Values map[string]*ValueInfo

	// Opset is the default-domain opset version, 0 for a model that
	// imports only other domains (and so has no default-domain node);
	// Opsets holds every domain's, "" for the default.
	Opset  int64
	Opsets map[string]int64

	IRVersion       int64
	ProducerName    string
	ProducerVersion string
	Domain          string
	ModelVersion    int64
	Doc             string
	// Metadata is the file's metadata_props.
	Metadata map[string]string

	// Backing, when set, holds the memory outside Go's heap that the
	// constants' Raw bytes (initializers and tensor attributes, subgraphs
	// included) may view: a mapping of the model file. Clone shares it.
	// A backend that keeps the graph it compiled keeps that memory alive;
	// see Backing.
	Backing *Backing
}

// NewGraph returns an empty graph with its maps made.
func NewGraph() *Graph {
	return &Graph{
		Initializers: map[string]*Tensor{},
		Values:       map[string]*ValueInfo{},
		Opsets:       map[string]int64{},
		Metadata:     map[string]string{},
	}
}

// Value returns the type recorded for name, or nil.
func (g *Graph) Value(name string) *ValueInfo { return g.Values[name] }

// Const returns the constant tensor named name, or nil.
func (g *Graph) Const(name string) *Tensor {
	if name == "" {
		return nil
	}
	return g.Initializers[name]
}

// NodeLabel returns a short label for n in messages: its name, or its op
// type and first output when it has no name.
func (n *Node) Label() string {
	if n.Name != "" {
		return n.Name
	}
	if len(n.Outputs) > 0 {
		return n.OpType + "->" + n.Outputs[0]
	}
	return n.OpType
}

// Input returns the name of input i, or "" when it is absent.
func (n *Node) Input(i int) string {
	if i < len(n.Inputs) {
		return n.Inputs[i]
	}
	return ""
}

// NumInputs returns the number of inputs present, ignoring trailing
// omitted ones.
func (n *Node) NumInputs() int {
	k := len(n.Inputs)
	for k > 0 && n.Inputs[k-1] == "" {
		k--
	}
	return k
}
