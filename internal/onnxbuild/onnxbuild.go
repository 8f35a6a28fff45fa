// Package onnxbuild writes ONNX model files from Go values. Tests, fuzz
// seeds and the parity suite use it to generate small models; it encodes
// with protowire and follows onnx.proto's field numbers.
//
// Rules: it writes what it is told, valid or not, so tests can also build
// malformed files. It never panics.
package onnxbuild

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
	"google.golang.org/protobuf/encoding/protowire"
)

// Model is a model file's contents.
type Model struct {
	IRVersion int64 // 0 means 8
	Opset     int64 // default-domain opset; 0 means 17, negative imports none
	Opsets    map[string]int64
	Producer  string // "" means "lintel-onnxbuild"
	Metadata  map[string]string
	Graph     Graph
}

// Graph is a graph's contents.
type Graph struct {
	Name         string
	Inputs       []Value
	Outputs      []Value
	ValueInfo    []Value
	Nodes        []Node
	Initializers []Tensor
}

// Value declares a value's type. A negative dim is written as a symbolic
// dim_param (DimParams[i], or "N<i>" when none is given).
type Value struct {
	Name      string
	DType     payload.DType
	Shape     []int64
	DimParams []string
	// NoShape leaves the shape out (unknown rank).
	NoShape bool
	// Kind, when set, writes a TypeProto of another kind instead of a
	// tensor type: "sequence", "map", "opaque", "sparse_tensor" or
	// "optional" (each with an empty body), or "untyped" for a TypeProto
	// with no field at all. DType and Shape are then ignored. The kinds
	// "tensor sequence", "optional tensor" and "optional tensor sequence"
	// write those types, of elements of type DType and shape Shape.
	Kind string
}

// typeFields are the TypeProto field numbers of the kinds Value.Kind
// names.
var typeFields = map[string]protowire.Number{
	"sequence": 4, "map": 5, "opaque": 7, "sparse_tensor": 8, "optional": 9,
}

// Node is a node.
type Node struct {
	Name    string
	Op      string
	Domain  string
	Inputs  []string
	Outputs []string
	Attrs   []Attr
}

// Attr is an attribute; build one with the A* helpers.
type Attr struct {
	Name    string
	Type    int // AttributeProto.AttributeType
	F       float32
	I       int64
	S       string
	T       *Tensor
	G       *Graph
	Floats  []float32
	Ints    []int64
	Strings []string
	// TP is a type attribute's type (Type 13); its Name is not written.
	TP *Value
}

// Tensor is a constant tensor. Raw holds little-endian element bytes. When
// External is set the tensor points at external data instead.
type Tensor struct {
	Name     string
	DType    payload.DType
	Shape    []int64
	Raw      []byte
	External []KV // location, offset, length...
	// Typed, when set, writes the data through the typed repeated fields
	// (float_data, int64_data...) instead of raw_data.
	Typed bool
}

// KV is a string key-value pair.
type KV struct{ Key, Value string }

// AInt returns an int attribute.
func AInt(name string, v int64) Attr { return Attr{Name: name, Type: 2, I: v} }

// AFloat returns a float attribute.
func AFloat(name string, v float32) Attr { return Attr{Name: name, Type: 1, F: v} }

// AString returns a string attribute.
func AString(name, v string) Attr { return Attr{Name: name, Type: 3, S: v} }

// AInts returns an ints attribute.
func AInts(name string, v ...int64) Attr { return Attr{Name: name, Type: 7, Ints: v} }

// AFloats returns a floats attribute.
func AFloats(name string, v ...float32) Attr { return Attr{Name: name, Type: 6, Floats: v} }

// ATensor returns a tensor attribute.
func ATensor(name string, t Tensor) Attr { return Attr{Name: name, Type: 4, T: &t} }

// AType returns a type attribute: v's TypeProto (its Name unused).
func AType(name string, v Value) Attr { return Attr{Name: name, Type: 13, TP: &v} }

// AGraph returns a graph attribute.
func AGraph(name string, g Graph) Attr { return Attr{Name: name, Type: 5, G: &g} }

// TensorOf returns a constant tensor holding data.
func TensorOf[E payload.Elem](name string, shape []int64, data []E) Tensor {
	raw := append([]byte(nil), payload.AsBytes(data)...)
	return Tensor{Name: name, DType: payload.DTypeOf[E](), Shape: shape, Raw: raw}
}

// Scalar returns a rank-0 constant tensor.
func Scalar[E payload.Elem](name string, v E) Tensor {
	return TensorOf(name, nil, []E{v})
}

// Input is shorthand for a Value.
func Input(name string, dt payload.DType, shape ...int64) Value {
	return Value{Name: name, DType: dt, Shape: shape}
}

// Encode returns the model's bytes.
func (m *Model) Encode() []byte {
	var b []byte
	ir := m.IRVersion
	if ir == 0 {
		ir = 8
	}
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(ir))
	prod := m.Producer
	if prod == "" {
		prod = "lintel-onnxbuild"
	}
	b = appendString(b, 2, prod)
	b = appendBytes(b, 7, m.Graph.encode())
	op := m.Opset
	if op == 0 {
		op = 17
	}
	if op > 0 {
		b = appendBytes(b, 8, encodeOpset("", op))
	}
	for _, d := range sortedKeys(m.Opsets) {
		if d == "" {
			continue
		}
		b = appendBytes(b, 8, encodeOpset(d, m.Opsets[d]))
	}
	for _, k := range sortedKeys(m.Metadata) {
		b = appendBytes(b, 14, encodeKV(KV{k, m.Metadata[k]}))
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func encodeOpset(domain string, v int64) []byte {
	var b []byte
	if domain != "" {
		b = appendString(b, 1, domain)
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func encodeKV(kv KV) []byte {
	var b []byte
	b = appendString(b, 1, kv.Key)
	return appendString(b, 2, kv.Value)
}

func (g *Graph) encode() []byte {
	var b []byte
	for i := range g.Nodes {
		b = appendBytes(b, 1, g.Nodes[i].encode())
	}
	b = appendString(b, 2, g.Name)
	for i := range g.Initializers {
		b = appendBytes(b, 5, g.Initializers[i].Encode())
	}
	for i := range g.Inputs {
		b = appendBytes(b, 11, g.Inputs[i].encode())
	}
	for i := range g.Outputs {
		b = appendBytes(b, 12, g.Outputs[i].encode())
	}
	for i := range g.ValueInfo {
		b = appendBytes(b, 13, g.ValueInfo[i].encode())
	}
	return b
}

func (n *Node) encode() []byte {
	var b []byte
	for _, s := range n.Inputs {
		b = appendString(b, 1, s)
	}
	for _, s := range n.Outputs {
		b = appendString(b, 2, s)
	}
	if n.Name != "" {
		b = appendString(b, 3, n.Name)
	}
	b = appendString(b, 4, n.Op)
	for i := range n.Attrs {
		b = appendBytes(b, 5, n.Attrs[i].encode())
	}
	if n.Domain != "" {
		b = appendString(b, 7, n.Domain)
	}
	return b
}

func (a *Attr) encode() []byte {
	var b []byte
	b = appendString(b, 1, a.Name)
	switch a.Type {
	case 1:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.F))
	case 2:
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.I))
	case 3:
		b = appendString(b, 4, a.S)
	case 4:
		if a.T != nil {
			b = appendBytes(b, 5, a.T.Encode())
		}
	case 5:
		if a.G != nil {
			b = appendBytes(b, 6, a.G.encode())
		}
	case 6:
		var p []byte
		for _, f := range a.Floats {
			p = protowire.AppendFixed32(p, math.Float32bits(f))
		}
		b = appendBytes(b, 7, p)
	case 7:
		var p []byte
		for _, v := range a.Ints {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = appendBytes(b, 8, p)
	case 8:
		for _, s := range a.Strings {
			b = appendString(b, 9, s)
		}
	case 13:
		if a.TP != nil {
			b = appendBytes(b, 14, a.TP.typeProto())
		}
	}
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(a.Type))
}

// Encode returns the TensorProto bytes.
func (t *Tensor) Encode() []byte {
	var b []byte
	if len(t.Shape) > 0 {
		var p []byte
		for _, d := range t.Shape {
			p = protowire.AppendVarint(p, uint64(d))
		}
		b = appendBytes(b, 1, p)
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.DType))
	if t.Name != "" {
		b = appendString(b, 8, t.Name)
	}
	switch {
	case len(t.External) > 0:
		for _, kv := range t.External {
			b = appendBytes(b, 13, encodeKV(kv))
		}
		b = protowire.AppendTag(b, 14, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	case t.Typed:
		b = t.appendTyped(b)
	default:
		b = appendBytes(b, 9, packed(t.DType, t.Raw))
	}
	return b
}

// packed returns raw, one byte an element, packed as ONNX stores the 4-
// and 2-bit types (ADR 24); other types' raw is returned as it is.
func packed(dt payload.DType, raw []byte) []byte {
	if dt.Bits() >= 8 {
		return raw
	}
	p := make([]byte, payload.PackedLen(dt, len(raw)))
	payload.Pack(dt, p, raw)
	return p
}

func (t *Tensor) appendTyped(b []byte) []byte {
	var p []byte
	field := protowire.Number(0)
	r := t.Raw
	switch t.DType {
	case payload.Float32:
		field = 4
		for i := 0; i+4 <= len(r); i += 4 {
			p = protowire.AppendFixed32(p, le32(r[i:]))
		}
	case payload.Float64:
		field = 10
		for i := 0; i+8 <= len(r); i += 8 {
			p = protowire.AppendFixed64(p, uint64(le32(r[i:]))|uint64(le32(r[i+4:]))<<32)
		}
	case payload.Int64:
		field = 7
		for i := 0; i+8 <= len(r); i += 8 {
			p = protowire.AppendVarint(p, uint64(le32(r[i:]))|uint64(le32(r[i+4:]))<<32)
		}
	case payload.Uint64, payload.Uint32:
		field = 11
		sz := t.DType.Size()
		for i := 0; i+sz <= len(r); i += sz {
			v := uint64(le32(r[i:]))
			if sz == 8 {
				v |= uint64(le32(r[i+4:])) << 32
			}
			p = protowire.AppendVarint(p, v)
		}
	case payload.Int32:
		field = 5
		for i := 0; i+4 <= len(r); i += 4 {
			p = protowire.AppendVarint(p, uint64(int64(int32(le32(r[i:])))))
		}
	case payload.Int8, payload.Uint8, payload.Bool, payload.F8E4M3FN, payload.F8E4M3FNUZ,
		payload.F8E5M2, payload.F8E5M2FNUZ, payload.F8E8M0,
		payload.U4, payload.I4, payload.F4E2M1, payload.U2, payload.I2:
		// The 4- and 2-bit types: one packed byte a value.
		field = 5
		for _, v := range packed(t.DType, r) {
			x := int64(v)
			if t.DType == payload.Int8 {
				x = int64(int8(v))
			}
			p = protowire.AppendVarint(p, uint64(x))
		}
	case payload.Int16, payload.Uint16, payload.Float16, payload.BF16:
		field = 5
		for i := 0; i+2 <= len(r); i += 2 {
			v := uint16(r[i]) | uint16(r[i+1])<<8
			x := int64(v)
			if t.DType == payload.Int16 {
				x = int64(int16(v))
			}
			p = protowire.AppendVarint(p, uint64(x))
		}
	default:
		return appendBytes(b, 9, r)
	}
	return appendBytes(b, field, p)
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func (v *Value) encode() []byte {
	var b []byte
	b = appendString(b, 1, v.Name)
	return appendBytes(b, 2, v.typeProto())
}

// typeProto encodes v's TypeProto.
func (v *Value) typeProto() []byte {
	if v.Kind != "" && !wrapped[v.Kind] {
		var typ []byte
		if f, ok := typeFields[v.Kind]; ok {
			typ = appendBytes(typ, f, nil)
		}
		return typ
	}
	var shape []byte
	for i, d := range v.Shape {
		var dim []byte
		if d < 0 {
			name := ""
			if i < len(v.DimParams) {
				name = v.DimParams[i]
			}
			if name == "" {
				name = "N" + itoa(i)
			}
			dim = appendString(dim, 2, name)
		} else {
			dim = protowire.AppendTag(dim, 1, protowire.VarintType)
			dim = protowire.AppendVarint(dim, uint64(d))
		}
		shape = appendBytes(shape, 1, dim)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(v.DType))
	if !v.NoShape {
		tt = protowire.AppendTag(tt, 2, protowire.BytesType)
		tt = protowire.AppendBytes(tt, shape)
	}
	var typ []byte
	typ = appendBytes(typ, 1, tt)
	if v.Kind == "tensor sequence" || v.Kind == "optional tensor sequence" {
		typ = appendBytes(nil, 4, appendBytes(nil, 1, typ))
	}
	if v.Kind == "optional tensor" || v.Kind == "optional tensor sequence" {
		typ = appendBytes(nil, 9, appendBytes(nil, 1, typ))
	}
	return typ
}

// wrapped are the kinds of Value that wrap a tensor type.
var wrapped = map[string]bool{"tensor sequence": true, "optional tensor": true, "optional tensor sequence": true}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func appendString(b []byte, n protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, n protowire.Number, p []byte) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendBytes(b, p)
}
