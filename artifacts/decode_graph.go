package artifacts

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// decodeGraph decodes a GraphProto. main is true for the model's graph,
// whose inputs and outputs must be typed tensors.
func (d *decoder) decodeGraph(b []byte, main bool) (*model.Graph, error) {
	g := d.newGraph()
	var (
		inputs, valueInfo []model.ValueInfo
		nInit, nVI        int
	)
	for len(b) > 0 {
		num, typ, err := d.tag(&b)
		if err != nil {
			return nil, err
		}
		var p []byte
		switch num {
		case 1:
			if p, err = d.bytes(&b, typ, "node"); err != nil {
				return nil, err
			}
			d.nodes++
			if d.nodes > d.lim.MaxNodes {
				return nil, d.invalid("more than Limits.MaxNodes (%d) nodes", d.lim.MaxNodes)
			}
			d.push("node", len(g.Nodes))
			n, err := d.decodeNode(p)
			if err != nil {
				return nil, err
			}
			d.pop()
			g.Nodes = append(g.Nodes, n)
		case 2:
			g.Name, err = d.str(&b, typ, "name")
		case 5:
			if p, err = d.bytes(&b, typ, "initializer"); err != nil {
				return nil, err
			}
			d.push("initializer", nInit)
			nInit++
			t, err := d.decodeTensor(p)
			if err != nil {
				return nil, err
			}
			if t.Name == "" {
				return nil, d.invalid("initializer has no name")
			}
			if _, dup := g.Initializers[t.Name]; dup {
				return nil, d.invalid("initializer name used twice")
			}
			d.pop()
			g.Initializers[t.Name] = t
		case 15:
			return nil, d.unsupported("sparse_initializer: sparse tensors")
		case 10:
			g.Doc, err = d.str(&b, typ, "doc_string")
		case 11:
			if p, err = d.bytes(&b, typ, "input"); err != nil {
				return nil, err
			}
			d.push("input", len(inputs))
			vi, _, err := d.decodeValueInfo(p, true, main)
			if err != nil {
				return nil, err
			}
			d.pop()
			inputs = append(inputs, vi)
		case 12:
			if p, err = d.bytes(&b, typ, "output"); err != nil {
				return nil, err
			}
			d.push("output", len(g.Outputs))
			vi, _, err := d.decodeValueInfo(p, true, main)
			if err != nil {
				return nil, err
			}
			d.pop()
			g.Outputs = append(g.Outputs, vi)
		case 13:
			if p, err = d.bytes(&b, typ, "value_info"); err != nil {
				return nil, err
			}
			d.push("value_info", nVI)
			nVI++
			vi, ok, err := d.decodeValueInfo(p, false, false)
			if err != nil {
				return nil, err
			}
			d.pop()
			if ok {
				valueInfo = append(valueInfo, vi)
			}
		default:
			// quantization_annotation, metadata_props and newer fields.
			err = d.skip(&b, num, typ)
		}
		if err != nil {
			return nil, err
		}
	}
	for i := range valueInfo {
		g.Values[valueInfo[i].Name] = &valueInfo[i]
	}
	for _, vi := range inputs {
		if _, isConst := g.Initializers[vi.Name]; isConst {
			continue
		}
		g.Inputs = append(g.Inputs, vi)
	}
	for i := range inputs {
		g.Values[inputs[i].Name] = &inputs[i]
	}
	for i := range g.Outputs {
		vi := g.Outputs[i]
		if vi.DType == payload.Undefined && !vi.RankKnown {
			// A subgraph output the file leaves untyped, possibly a
			// value of an enclosing graph: inference types it.
			continue
		}
		g.Values[vi.Name] = &vi
	}
	return g, nil
}

// decodeNode decodes a NodeProto.
func (d *decoder) decodeNode(b []byte) (*model.Node, error) {
	n := &model.Node{}
	for len(b) > 0 {
		num, typ, err := d.tag(&b)
		if err != nil {
			return nil, err
		}
		switch num {
		case 1:
			var s string
			s, err = d.str(&b, typ, "input")
			n.Inputs = append(n.Inputs, s)
		case 2:
			var s string
			s, err = d.str(&b, typ, "output")
			n.Outputs = append(n.Outputs, s)
		case 3:
			n.Name, err = d.str(&b, typ, "name")
			d.setName(n.Name)
		case 4:
			n.OpType, err = d.str(&b, typ, "op_type")
		case 7:
			n.Domain, err = d.str(&b, typ, "domain")
		case 6:
			n.Doc, err = d.str(&b, typ, "doc_string")
		case 5:
			var p []byte
			if p, err = d.bytes(&b, typ, "attribute"); err != nil {
				return nil, err
			}
			d.pushNamed("attribute", len(n.Attrs))
			a, err := d.decodeAttr(p)
			if err != nil {
				return nil, err
			}
			if n.Has(a.Name) {
				return nil, d.invalid("attribute given twice")
			}
			d.pop()
			n.Attrs = append(n.Attrs, a)
		default:
			// overload, metadata_props, device_configurations.
			err = d.skip(&b, num, typ)
		}
		if err != nil {
			return nil, err
		}
	}
	if n.OpType == "" {
		return nil, d.invalid("node has no op_type")
	}
	if defaultDomain(n.Domain) {
		n.Domain = ""
		if d.opset == 0 {
			return nil, d.invalid("node %s of the default ONNX domain, which opset_import does not import", n.OpType)
		}
	}
	return n, nil
}

// attribute kinds that a file may set, for inferring a missing type.
const (
	hasF = 1 << iota
	hasI
	hasS
	hasT
	hasG
	hasFloats
	hasInts
	hasStrings
	hasTensors
	hasGraphs
	hasTP
)

var kindTypes = [...]struct {
	bit int
	typ model.AttrType
}{
	{hasF, model.AttrFloat}, {hasI, model.AttrInt}, {hasS, model.AttrString},
	{hasT, model.AttrTensor}, {hasG, model.AttrGraph}, {hasFloats, model.AttrFloats},
	{hasInts, model.AttrInts}, {hasStrings, model.AttrStrings},
	{hasTensors, model.AttrTensors}, {hasGraphs, model.AttrGraphs},
	{hasTP, model.AttrTypeProto},
}

// decodeAttr decodes an AttributeProto. Old files may leave out the type;
// it is then inferred from the one value field that is set.
func (d *decoder) decodeAttr(b []byte) (model.Attr, error) {
	var (
		a       model.Attr
		typ     int64
		has     int
		typeSet bool
	)
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return a, err
		}
		var p []byte
		switch num {
		case 1:
			a.Name, err = d.str(&b, wt, "name")
			d.setName(a.Name)
		case 21:
			a.RefAttrName, err = d.str(&b, wt, "ref_attr_name")
		case 13:
			_, err = d.bytes(&b, wt, "doc_string")
		case 20:
			typ, err = d.int64v(&b, wt, "type")
			typeSet = true
		case 2:
			var v uint32
			v, err = d.fixed32(&b, wt, "f")
			a.F = math.Float32frombits(v)
			has |= hasF
		case 3:
			a.I, err = d.int64v(&b, wt, "i")
			has |= hasI
		case 4:
			p, err = d.bytes(&b, wt, "s")
			a.S = string(p)
			has |= hasS
		case 5:
			if p, err = d.bytes(&b, wt, "t"); err != nil {
				return a, err
			}
			d.push("t", -1)
			if a.T, err = d.decodeTensor(p); err != nil {
				return a, err
			}
			d.pop()
			has |= hasT
		case 6:
			if p, err = d.bytes(&b, wt, "g"); err != nil {
				return a, err
			}
			if a.G, err = d.subgraph(p, "g", -1); err != nil {
				return a, err
			}
			has |= hasG
		case 7:
			if p, err = d.repeated(&b, wt, wireFixed32, "floats"); err != nil {
				return a, err
			}
			if len(p)%4 != 0 {
				return a, d.invalid("packed field floats: %d bytes is not a whole number of floats", len(p))
			}
			for i := 0; i < len(p); i += 4 {
				a.Floats = append(a.Floats, math.Float32frombits(le32(p[i:])))
			}
			has |= hasFloats
		case 8:
			if p, err = d.repeated(&b, wt, wireVarint, "ints"); err != nil {
				return a, err
			}
			a.Ints, err = d.appendVarints(a.Ints, p, "ints")
			has |= hasInts
		case 9:
			p, err = d.bytes(&b, wt, "strings")
			a.Strings = append(a.Strings, string(p))
			has |= hasStrings
		case 10:
			if p, err = d.bytes(&b, wt, "tensors"); err != nil {
				return a, err
			}
			d.push("tensors", len(a.Tensors))
			t, err := d.decodeTensor(p)
			if err != nil {
				return a, err
			}
			d.pop()
			a.Tensors = append(a.Tensors, t)
			has |= hasTensors
		case 11:
			if p, err = d.bytes(&b, wt, "graphs"); err != nil {
				return a, err
			}
			sub, err := d.subgraph(p, "graphs", len(a.Graphs))
			if err != nil {
				return a, err
			}
			a.Graphs = append(a.Graphs, sub)
			has |= hasGraphs
		case 22, 23:
			return a, d.unsupported("sparse tensor attributes")
		case 14:
			if p, err = d.bytes(&b, wt, "tp"); err != nil {
				return a, err
			}
			d.push("tp", -1)
			if a.TP, err = d.typeAttr(p); err != nil {
				return a, err
			}
			d.pop()
			has |= hasTP
		case 15:
			return a, d.unsupported("type_protos attributes")
		default:
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return a, err
		}
	}
	if a.Name == "" {
		return a, d.invalid("attribute has no name")
	}
	switch {
	case typeSet && typ != 0:
		switch {
		case typ == 11 || typ == 12:
			return a, d.unsupported("sparse tensor attributes")
		case typ == 14:
			return a, d.unsupported("type_protos attributes")
		case typ < 0 || (typ > 10 && typ != 13):
			return a, d.invalid("unknown attribute type %d", typ)
		}
		a.Type = model.AttrType(typ)
	case has == 0 && a.RefAttrName != "":
		a.Type = model.AttrUndefined
	default:
		for _, k := range kindTypes {
			if has == k.bit {
				a.Type = k.typ
			}
		}
		if a.Type == model.AttrUndefined {
			if has == 0 {
				return a, d.invalid("attribute has neither a type nor a value")
			}
			return a, d.invalid("attribute has no type and several values")
		}
	}
	return a, nil
}

// typeAttr decodes a type attribute's TypeProto: a tensor, a sequence
// of tensors, an optional tensor or an optional sequence of tensors, as
// for a value_info entry; other types are refused.
func (d *decoder) typeAttr(b []byte) (*model.ValueInfo, error) {
	var vi model.ValueInfo
	kind, err := d.decodeType(b, &vi)
	switch {
	case err != nil:
		return nil, err
	case kind == "none":
		return nil, d.invalid("type attribute sets no type")
	case kind == "unknown":
		return nil, d.unsupported("type attribute of a kind of type lintel does not know")
	case kind != "":
		return nil, d.unsupported("%s type attribute: lintel knows tensors, sequences of tensors and optionals of those", kind)
	}
	return &vi, nil
}

// subgraph decodes a graph-valued attribute one level deeper.
func (d *decoder) subgraph(b []byte, field string, idx int) (*model.Graph, error) {
	d.push(field, idx)
	if d.depth+1 > d.lim.MaxDepth {
		return nil, d.invalid("subgraphs nested deeper than Limits.MaxDepth (%d)", d.lim.MaxDepth)
	}
	d.depth++
	g, err := d.decodeGraph(b, false)
	if err != nil {
		return nil, err
	}
	d.depth--
	d.pop()
	return g, nil
}
