package quantize

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"google.golang.org/protobuf/encoding/protowire"
)

// ModelProto, GraphProto, NodeProto, AttributeProto and TensorProto field
// numbers this package reads or writes (onnx.proto).
const (
	modelGraph  = 7
	modelOpset  = 8
	graphNode   = 1
	graphInit   = 5
	graphInput  = 11
	graphOutput = 12
	nodeInput   = 1
	nodeOutput  = 2
	nodeName    = 3
	nodeOpType  = 4
	nodeAttr    = 5
	nodeDomain  = 7
	attrName    = 1
	attrF       = 2
	attrI       = 3
	attrT       = 5
	attrG       = 6
	attrFloats  = 7
	attrInts    = 8
	attrGraphs  = 11
	attrType    = 20
	tensorName  = 8
	tensorLoc   = 14
	opsetDomain = 1
	opsetVer    = 2
)

// field is one field of a message as it stands in the file: its number
// and its whole encoding (tag and value).
type field struct {
	num protowire.Number
	typ protowire.Type
	raw []byte
	// val is the payload of a length-delimited field.
	val []byte
	// v is the value of a varint field.
	v uint64
}

// fields splits a message into its fields; what must be a message is
// checked by the caller's later reads.
func fields(b []byte, what string) ([]field, error) {
	var out []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, errs.New(errs.InvalidArtifact, "%s: malformed field tag", what)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, errs.New(errs.InvalidArtifact, "%s: malformed field %d", what, num)
		}
		f := field{num: num, typ: typ, raw: b[:n+m]}
		switch typ {
		case protowire.BytesType:
			f.val, _ = protowire.ConsumeBytes(b[n:])
		case protowire.VarintType:
			f.v, _ = protowire.ConsumeVarint(b[n:])
		}
		out = append(out, f)
		b = b[n+m:]
	}
	return out, nil
}

// node is a NodeProto: the fields this package reads, the rest kept as
// they stand.
type node struct {
	inputs, outputs []string
	name, op, dom   string
	attrs           []attr
	rest            []byte
	// hasGraph is set when an attribute holds a subgraph.
	hasGraph bool
}

// attr is an AttributeProto: its name and the values this package reads,
// with its whole encoding.
type attr struct {
	name  string
	typ   uint64
	f     float32
	i     int64
	ints  []int64
	t     []byte
	raw   []byte
	hasI  bool
	hasF  bool
	hasIs bool
}

func parseNode(b []byte) (*node, error) {
	fs, err := fields(b, "node")
	if err != nil {
		return nil, err
	}
	n := &node{}
	for _, f := range fs {
		switch f.num {
		case nodeInput:
			n.inputs = append(n.inputs, string(f.val))
		case nodeOutput:
			n.outputs = append(n.outputs, string(f.val))
		case nodeName:
			n.name = string(f.val)
		case nodeOpType:
			n.op = string(f.val)
		case nodeDomain:
			n.dom = string(f.val)
		case nodeAttr:
			a, err := parseAttr(f.val)
			if err != nil {
				return nil, err
			}
			a.raw = f.raw
			if a.typ == 5 || a.typ == 10 {
				n.hasGraph = true
			}
			n.attrs = append(n.attrs, a)
		default:
			n.rest = append(n.rest, f.raw...)
		}
	}
	if n.dom == "ai.onnx" {
		n.dom = ""
	}
	return n, nil
}

func parseAttr(b []byte) (attr, error) {
	var a attr
	fs, err := fields(b, "attribute")
	if err != nil {
		return a, err
	}
	for _, f := range fs {
		switch f.num {
		case attrName:
			a.name = string(f.val)
		case attrType:
			a.typ = f.v
		case attrI:
			a.i, a.hasI = int64(f.v), true
		case attrF:
			if len(f.raw) >= 5 {
				r := f.raw[len(f.raw)-4:]
				a.f, a.hasF = math.Float32frombits(uint32(r[0])|uint32(r[1])<<8|uint32(r[2])<<16|uint32(r[3])<<24), true
			}
		case attrT:
			a.t = f.val
		case attrG, attrGraphs:
			a.typ = 5
		case attrInts:
			a.hasIs = true
			if f.typ == protowire.VarintType {
				a.ints = append(a.ints, int64(f.v))
				continue
			}
			p := f.val
			for len(p) > 0 {
				v, n := protowire.ConsumeVarint(p)
				if n < 0 {
					return a, errs.New(errs.InvalidArtifact, "attribute %q: malformed ints", a.name)
				}
				a.ints = append(a.ints, int64(v))
				p = p[n:]
			}
		}
	}
	return a, nil
}

// attr returns the node's attribute called name, or nil.
func (n *node) attr(name string) *attr {
	for i := range n.attrs {
		if n.attrs[i].name == name {
			return &n.attrs[i]
		}
	}
	return nil
}

// input returns input i's name, "" when absent.
func (n *node) input(i int) string {
	if i < len(n.inputs) {
		return n.inputs[i]
	}
	return ""
}

// attrInt returns an int attribute's value, or def when absent.
func (n *node) attrInt(name string, def int64) int64 {
	if a := n.attr(name); a != nil && a.hasI {
		return a.i
	}
	return def
}

// attrFloat returns a float attribute's value, or def when absent.
func (n *node) attrFloat(name string, def float32) float32 {
	if a := n.attr(name); a != nil && a.hasF {
		return a.f
	}
	return def
}

// dropAttr removes the attribute called name.
func (n *node) dropAttr(name string) {
	out := n.attrs[:0]
	for _, a := range n.attrs {
		if a.name != name {
			out = append(out, a)
		}
	}
	n.attrs = out
}

func (n *node) encode() []byte {
	var b []byte
	for _, s := range n.inputs {
		b = appendString(b, nodeInput, s)
	}
	for _, s := range n.outputs {
		b = appendString(b, nodeOutput, s)
	}
	if n.name != "" {
		b = appendString(b, nodeName, n.name)
	}
	b = appendString(b, nodeOpType, n.op)
	for _, a := range n.attrs {
		b = append(b, a.raw...)
	}
	b = append(b, n.rest...)
	if n.dom != "" {
		b = appendString(b, nodeDomain, n.dom)
	}
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// newAttr returns an encoded attribute: its name, its type and the body
// fields add appends.
func newAttr(name string, typ uint64, add func([]byte) []byte) attr {
	var b []byte
	b = appendString(b, attrName, name)
	b = add(b)
	b = protowire.AppendTag(b, attrType, protowire.VarintType)
	b = protowire.AppendVarint(b, typ)
	a, _ := parseAttr(b)
	a.raw = appendBytes(nil, nodeAttr, b)
	return a
}

// intAttr returns an int attribute.
func intAttr(name string, v int64) attr {
	return newAttr(name, 2, func(b []byte) []byte {
		b = protowire.AppendTag(b, attrI, protowire.VarintType)
		return protowire.AppendVarint(b, uint64(v))
	})
}

// valueInfo encodes a ValueInfoProto of a tensor of element type dt and
// unknown shape.
func valueInfo(name string, dt int64) []byte {
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(dt))
	tp := appendBytes(nil, 1, tt)
	b := appendString(nil, 1, name)
	return appendBytes(b, 2, tp)
}

// tensorInfo reads an initializer's name and whether its data is
// external.
func tensorInfo(b []byte) (name string, external bool, err error) {
	fs, err := fields(b, "initializer")
	if err != nil {
		return "", false, err
	}
	for _, f := range fs {
		switch f.num {
		case tensorName:
			name = string(f.val)
		case tensorLoc:
			external = f.v == 1
		}
	}
	return name, external, nil
}
