package artifacts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"google.golang.org/protobuf/encoding/protowire"
)

// decoder decodes one ONNX model file. It keeps the path of what it is
// decoding so that every error says where the bad bytes are.
type decoder struct {
	label string
	lim   Limits
	ext   *extResolver
	// backing, when set, holds the mapped file bytes that tensors view;
	// every graph and tensor decoded gets it.
	backing *model.Backing

	stack      []frame
	depth      int   // subgraph nesting of the graph being decoded
	nodes      int   // nodes decoded so far, subgraphs included
	constBytes int64 // bytes of constant tensors decoded so far

	opset  int64
	opsets map[string]int64
}

// frame is one step of the path: a field, its index among repeated
// occurrences (-1 for a singular field) and the name of the message once
// known.
type frame struct {
	field string
	idx   int
	name  string
	// byName shows only the name, not the index, once the name is known.
	byName bool
}

func (d *decoder) push(field string, idx int) {
	d.stack = append(d.stack, frame{field: field, idx: idx})
}

func (d *decoder) pushNamed(field string, idx int) {
	d.stack = append(d.stack, frame{field: field, idx: idx, byName: true})
}

func (d *decoder) pop() { d.stack = d.stack[:len(d.stack)-1] }

// setName records the name of the message being decoded for messages.
func (d *decoder) setName(name string) {
	if len(d.stack) > 0 {
		d.stack[len(d.stack)-1].name = name
	}
}

// where formats the path, such as graph.node[12] "conv1".attribute "pads".
func (d *decoder) where() string {
	var sb strings.Builder
	for i, f := range d.stack {
		if i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(f.field)
		if f.idx >= 0 && !(f.byName && f.name != "") {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(f.idx))
			sb.WriteByte(']')
		}
		if f.name != "" {
			sb.WriteByte(' ')
			sb.WriteString(strconv.Quote(f.name))
		}
	}
	return sb.String()
}

// nearby formats the end of the path for one line of output: from the
// innermost node on (its attributes and values, without the subgraph
// steps between them), or the last step when no node encloses it, such
// as node "choose".attribute "then_branch".output "t".
func (d *decoder) nearby() string {
	start := len(d.stack) - 1
	for i := len(d.stack) - 1; i >= 0; i-- {
		if d.stack[i].field == "node" {
			start = i
			break
		}
	}
	var sb strings.Builder
	for i := max(start, 0); i < len(d.stack); i++ {
		f := d.stack[i]
		if i != len(d.stack)-1 && (f.field == "g" || f.field == "graphs" || f.field == "graph") {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(f.field)
		if f.name != "" {
			sb.WriteByte(' ')
			sb.WriteString(strconv.Quote(f.name))
		} else if f.idx >= 0 {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(f.idx))
			sb.WriteByte(']')
		}
	}
	return sb.String()
}

// errf returns an error of the given kind that names the artifact and the
// path being decoded. Its Brief names only the nearest node and what in
// it is wrong.
func (d *decoder) errf(kind error, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if w := d.where(); w != "" {
		e := errs.New(kind, "%s: %s: %s", d.label, w, msg).(*errs.Error)
		e.Brief = d.nearby() + ": " + msg
		return e
	}
	e := errs.New(kind, "%s: %s", d.label, msg).(*errs.Error)
	e.Brief = msg
	return e
}

func (d *decoder) invalid(format string, args ...any) error {
	return d.errf(errs.InvalidArtifact, format, args...)
}

func (d *decoder) unsupported(format string, args ...any) error {
	return d.errf(errs.Unsupported, format, args...)
}

// wireErr describes a negative protowire length n while reading what.
func (d *decoder) wireErr(what string, n int) error {
	switch n {
	case -1:
		return d.invalid("truncated %s", what)
	case -3:
		return d.invalid("overflowing %s", what)
	}
	return d.invalid("malformed %s: %v", what, protowire.ParseError(n))
}

var wireNames = [...]string{
	protowire.VarintType:     "varint",
	protowire.Fixed64Type:    "fixed64",
	protowire.BytesType:      "bytes",
	protowire.StartGroupType: "start-group",
	protowire.EndGroupType:   "end-group",
	protowire.Fixed32Type:    "fixed32",
}

func wireName(t protowire.Type) string {
	if int(t) < len(wireNames) && wireNames[t] != "" {
		return wireNames[t]
	}
	return "wire type " + strconv.Itoa(int(t))
}

func (d *decoder) wrongType(field string, got, want protowire.Type) error {
	return d.invalid("field %s has wire type %s, want %s", field, wireName(got), wireName(want))
}

// tag reads the next field's tag from *b.
func (d *decoder) tag(b *[]byte) (protowire.Number, protowire.Type, error) {
	num, typ, n := protowire.ConsumeTag(*b)
	if n < 0 {
		return 0, 0, d.wireErr("field tag", n)
	}
	*b = (*b)[n:]
	return num, typ, nil
}

// skip consumes the value of a field the decoder does not read.
func (d *decoder) skip(b *[]byte, num protowire.Number, typ protowire.Type) error {
	n := protowire.ConsumeFieldValue(num, typ, *b)
	if n < 0 {
		return d.wireErr("field "+strconv.Itoa(int(num)), n)
	}
	*b = (*b)[n:]
	return nil
}

func (d *decoder) varint(b *[]byte, typ protowire.Type, field string) (uint64, error) {
	if typ != protowire.VarintType {
		return 0, d.wrongType(field, typ, protowire.VarintType)
	}
	v, n := protowire.ConsumeVarint(*b)
	if n < 0 {
		return 0, d.wireErr("varint in field "+field, n)
	}
	*b = (*b)[n:]
	return v, nil
}

func (d *decoder) fixed32(b *[]byte, typ protowire.Type, field string) (uint32, error) {
	if typ != protowire.Fixed32Type {
		return 0, d.wrongType(field, typ, protowire.Fixed32Type)
	}
	v, n := protowire.ConsumeFixed32(*b)
	if n < 0 {
		return 0, d.wireErr("fixed32 in field "+field, n)
	}
	*b = (*b)[n:]
	return v, nil
}

// bytes reads a length-delimited field; the result aliases *b.
func (d *decoder) bytes(b *[]byte, typ protowire.Type, field string) ([]byte, error) {
	if typ != protowire.BytesType {
		return nil, d.wrongType(field, typ, protowire.BytesType)
	}
	v, n := protowire.ConsumeBytes(*b)
	if n < 0 {
		return nil, d.wireErr("length-delimited field "+field, n)
	}
	*b = (*b)[n:]
	return v, nil
}

func (d *decoder) str(b *[]byte, typ protowire.Type, field string) (string, error) {
	v, err := d.bytes(b, typ, field)
	return string(v), err
}

// int64v reads an int64 varint field.
func (d *decoder) int64v(b *[]byte, typ protowire.Type, field string) (int64, error) {
	v, err := d.varint(b, typ, field)
	return int64(v), err
}

// repeated reads one occurrence of a repeated scalar field whose elements
// have wire type elem, packed or not, and returns it in packed form: the
// payload of a packed field, or the encoding of the single element.
func (d *decoder) repeated(b *[]byte, typ, elem protowire.Type, field string) ([]byte, error) {
	if typ == protowire.BytesType {
		return d.bytes(b, typ, field)
	}
	if typ != elem {
		return nil, d.wrongType(field, typ, elem)
	}
	start := *b
	var n int
	switch elem {
	case protowire.VarintType:
		_, n = protowire.ConsumeVarint(start)
	case protowire.Fixed32Type:
		_, n = protowire.ConsumeFixed32(start)
	case protowire.Fixed64Type:
		_, n = protowire.ConsumeFixed64(start)
	}
	if n < 0 {
		return nil, d.wireErr(wireName(elem)+" in field "+field, n)
	}
	*b = start[n:]
	return start[:n:n], nil
}

// countPacked returns the number of elements in packed data p of wire
// type elem, checking that it is well formed.
func (d *decoder) countPacked(p []byte, elem protowire.Type, field string) (int, error) {
	switch elem {
	case protowire.Fixed32Type:
		if len(p)%4 != 0 {
			return 0, d.invalid("packed field %s: %d bytes is not a whole number of fixed32", field, len(p))
		}
		return len(p) / 4, nil
	case protowire.Fixed64Type:
		if len(p)%8 != 0 {
			return 0, d.invalid("packed field %s: %d bytes is not a whole number of fixed64", field, len(p))
		}
		return len(p) / 8, nil
	}
	c := 0
	for len(p) > 0 {
		_, n := protowire.ConsumeVarint(p)
		if n < 0 {
			return 0, d.wireErr("varint in packed field "+field, n)
		}
		p = p[n:]
		c++
	}
	return c, nil
}

// appendVarints appends the varints of packed data p to dst.
func (d *decoder) appendVarints(dst []int64, p []byte, field string) ([]int64, error) {
	for len(p) > 0 {
		v, n := protowire.ConsumeVarint(p)
		if n < 0 {
			return dst, d.wireErr("varint in packed field "+field, n)
		}
		dst = append(dst, int64(v))
		p = p[n:]
	}
	return dst, nil
}

// newGraph returns an empty graph carrying the model's opsets.
func (d *decoder) newGraph() *model.Graph {
	g := model.NewGraph()
	g.Backing = d.backing
	g.Opset = d.opset
	for k, v := range d.opsets {
		g.Opsets[k] = v
	}
	return g
}

// Wire types, shorter.
const (
	wireVarint  = protowire.VarintType
	wireFixed32 = protowire.Fixed32Type
	wireFixed64 = protowire.Fixed64Type
)

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

const maxInt = int64(^uint(0) >> 1)
