package artifacts

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"google.golang.org/protobuf/encoding/protowire"
)

// decodeValueInfo decodes a ValueInfoProto. io is true for graph inputs and
// outputs, which must be tensors; main is true for the model's graph,
// whose inputs and outputs must also have a known element type. ok is
// false for a value_info entry lintel does not record (a non-tensor type,
// or no type). An empty TypeProto is no type, as if the field were absent:
// subgraph inputs and outputs may leave their types to inference, and a
// subgraph's input or output of a kind of type lintel does not know is
// left untyped the same way.
func (d *decoder) decodeValueInfo(b []byte, io, main bool) (vi model.ValueInfo, ok bool, err error) {
	var (
		typeBytes []byte
		haveType  bool
	)
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return vi, false, err
		}
		switch num {
		case 1:
			vi.Name, err = d.str(&b, wt, "name")
			d.setName(vi.Name)
		case 2:
			typeBytes, err = d.bytes(&b, wt, "type")
			haveType = true
		default:
			// doc_string, metadata_props.
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return vi, false, err
		}
	}
	if vi.Name == "" {
		if io {
			return vi, false, d.invalid("value has no name")
		}
		return vi, false, nil
	}
	kind := "none"
	if haveType {
		d.push("type", -1)
		if kind, err = d.decodeType(typeBytes, &vi); err != nil {
			return vi, false, err
		}
		d.pop()
	}
	if kind == "unknown" && io && !main {
		// A newer kind of type on a subgraph's input or output: leave it
		// untyped for inference to fill in, as if the file gave none.
		kind = "none"
	}
	if kind == "none" {
		if main {
			return vi, false, d.invalid("graph input or output has no type")
		}
		return vi, io, nil
	}
	if kind != "" {
		if io {
			return vi, false, d.unsupported("%s type: lintel runs tensors only", kind)
		}
		return vi, false, nil
	}
	if main && !vi.DType.Valid() && vi.DType != payload.String {
		if vi.DType == payload.Undefined {
			return vi, false, d.invalid("graph input or output has no element type")
		}
		return vi, false, d.unsupported("element type %s", vi.DType)
	}
	return vi, true, nil
}

// decodeType decodes a TypeProto into vi. It returns the name of the type
// when it is not a tensor ("" for a tensor): "none" when the TypeProto
// sets no type, "unknown" when it sets only fields lintel does not know.
// A sequence of tensors, an optional tensor and an optional sequence of
// tensors set vi.Kind and describe the element tensor in vi; other
// sequence and optional types (of maps, of sequences...) are returned by
// name, as are maps.
func (d *decoder) decodeType(b []byte, vi *model.ValueInfo) (kind string, err error) {
	kind = "none"
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return "", err
		}
		switch num {
		case 1:
			var p []byte
			if p, err = d.bytes(&b, wt, "tensor_type"); err != nil {
				return "", err
			}
			d.push("tensor_type", -1)
			if err = d.decodeTensorType(p, vi); err != nil {
				return "", err
			}
			d.pop()
			kind = ""
		case 4, 9:
			var p []byte
			if p, err = d.bytes(&b, wt, typeNames[num]); err != nil {
				return "", err
			}
			kind = typeNames[num]
			if vi.Kind == model.KindTensor && d.decodeContainer(p, num == 9, vi) {
				kind = ""
			}
		case 5, 8, 7:
			if _, err = d.bytes(&b, wt, typeNames[num]); err != nil {
				return "", err
			}
			kind = typeNames[num]
		case 6:
			// denotation: not a type.
			err = d.skip(&b, num, wt)
		default:
			// Newer kinds of type.
			if kind == "none" {
				kind = "unknown"
			}
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return "", err
		}
	}
	return kind, nil
}

var typeNames = map[protowire.Number]string{
	4: "sequence", 5: "map", 7: "opaque", 8: "sparse tensor", 9: "optional",
}

// decodeTensorType decodes a TypeProto.Tensor.
func (d *decoder) decodeTensorType(b []byte, vi *model.ValueInfo) error {
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return err
		}
		switch num {
		case 1:
			var v int64
			v, err = d.int64v(&b, wt, "elem_type")
			if err == nil && (v < 0 || v > 255) {
				return d.invalid("elem_type %d", v)
			}
			vi.DType = payload.DType(v)
		case 2:
			var p []byte
			if p, err = d.bytes(&b, wt, "shape"); err != nil {
				return err
			}
			d.push("shape", -1)
			if err = d.decodeShape(p, vi); err != nil {
				return err
			}
			d.pop()
		default:
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeShape decodes a TensorShapeProto. A dimension with neither a value
// nor a parameter, or with a negative value, is unknown (-1).
func (d *decoder) decodeShape(b []byte, vi *model.ValueInfo) error {
	vi.Shape = []int{}
	vi.DimParams = nil
	vi.RankKnown = true
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return err
		}
		if num != 1 {
			if err = d.skip(&b, num, wt); err != nil {
				return err
			}
			continue
		}
		var p []byte
		if p, err = d.bytes(&b, wt, "dim"); err != nil {
			return err
		}
		if len(vi.Shape) >= d.lim.MaxRank {
			return d.invalid("rank above Limits.MaxRank (%d)", d.lim.MaxRank)
		}
		d.push("dim", len(vi.Shape))
		dim, param, err := d.decodeDim(p)
		if err != nil {
			return err
		}
		d.pop()
		if param != "" {
			if vi.DimParams == nil {
				vi.DimParams = make([]string, len(vi.Shape), len(vi.Shape)+1)
			}
		}
		if vi.DimParams != nil {
			vi.DimParams = append(vi.DimParams, param)
		}
		vi.Shape = append(vi.Shape, dim)
	}
	return nil
}

// decodeDim decodes a TensorShapeProto.Dimension.
func (d *decoder) decodeDim(b []byte) (dim int, param string, err error) {
	dim = -1
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return 0, "", err
		}
		switch num {
		case 1:
			var v int64
			v, err = d.int64v(&b, wt, "dim_value")
			if err == nil {
				dim = -1
				if v >= 0 && v <= maxInt {
					dim = int(v)
				}
				param = ""
			}
		case 2:
			param, err = d.str(&b, wt, "dim_param")
			if err == nil {
				dim = -1
			}
		default:
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return 0, "", err
		}
	}
	return dim, param, nil
}

// decodeContainer decodes a TypeProto.Sequence (optional false) or
// TypeProto.Optional into vi, and reports whether lintel runs the type: a
// sequence of tensors, an optional tensor, or an optional sequence of
// tensors (docs/adr/0026-sequences-and-optionals.md). Errors in the
// nested types leave it false, for the caller to refuse the type.
func (d *decoder) decodeContainer(b []byte, optional bool, vi *model.ValueInfo) bool {
	elem, ok := protoField(b, 1)
	if !ok {
		return false
	}
	var inner model.ValueInfo
	if optional {
		if seq, ok := protoField(elem, 4); ok {
			if !d.decodeContainer(seq, false, &inner) {
				return false
			}
			vi.DType, vi.Shape, vi.RankKnown, vi.DimParams = inner.DType, inner.Shape, inner.RankKnown, inner.DimParams
			vi.Kind = model.KindOptionalSequence
			return true
		}
	}
	t, ok := protoField(elem, 1)
	if !ok {
		return false
	}
	if err := d.decodeTensorType(t, &inner); err != nil {
		return false
	}
	vi.DType, vi.Shape, vi.RankKnown, vi.DimParams = inner.DType, inner.Shape, inner.RankKnown, inner.DimParams
	vi.Kind = model.KindSequence
	if optional {
		vi.Kind = model.KindOptional
	}
	return true
}

// protoField returns the bytes of the last length-delimited field num of
// message b, and false when b has none or does not parse.
func protoField(b []byte, num protowire.Number) ([]byte, bool) {
	var out []byte
	found := false
	for len(b) > 0 {
		n, wt, k := protowire.ConsumeTag(b)
		if k < 0 {
			return nil, false
		}
		b = b[k:]
		if n == num && wt == protowire.BytesType {
			v, k := protowire.ConsumeBytes(b)
			if k < 0 {
				return nil, false
			}
			out, found = v, true
			b = b[k:]
			continue
		}
		k = protowire.ConsumeFieldValue(n, wt, b)
		if k < 0 {
			return nil, false
		}
		b = b[k:]
	}
	return out, found
}
