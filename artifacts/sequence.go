package artifacts

import (
	"github.com/lintel-ml/lintel/model"
)

// DecodeSequence decodes a serialized ONNX SequenceProto of tensors, as
// ONNX's test data stores a sequence value, into its elements in order
// (an empty, non-nil slice for an empty sequence). A sequence of any other
// kind of value is refused with ErrUnsupported.
func DecodeSequence(data []byte, label string, opts ...Option) ([]*model.Tensor, error) {
	o := collect(opts)
	if int64(len(data)) > o.limits.MaxFileBytes {
		return nil, (&decoder{label: label}).invalid("%d bytes exceeds Limits.MaxFileBytes (%d)", len(data), o.limits.MaxFileBytes)
	}
	d := &decoder{label: label, lim: o.limits, ext: &extResolver{limit: o.limits.MaxFileBytes, refuse: "DecodeSequence reads no external data"}}
	return d.decodeSequence(data)
}

func (d *decoder) decodeSequence(b []byte) ([]*model.Tensor, error) {
	items := []*model.Tensor{}
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return nil, err
		}
		switch num {
		case 2:
			var v int64
			if v, err = d.int64v(&b, wt, "elem_type"); err == nil && v != 0 && v != 1 {
				return nil, d.unsupported("sequence of elem_type %d: lintel runs sequences of tensors only", v)
			}
		case 3:
			var p []byte
			if p, err = d.bytes(&b, wt, "tensor_values"); err != nil {
				return nil, err
			}
			d.push("tensor_values", len(items))
			t, err := d.decodeTensor(p)
			if err != nil {
				return nil, err
			}
			d.pop()
			items = append(items, t)
		case 4, 5, 6, 7:
			return nil, d.unsupported("sequence of non-tensor values: lintel runs sequences of tensors only")
		default:
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return nil, err
		}
	}
	return items, nil
}

// DecodeOptional decodes a serialized ONNX OptionalProto, as ONNX's test
// data stores an optional value: t is its tensor, or items its sequence's
// elements (non-nil), or both are nil for an optional with no element.
// Optionals of other kinds of value are refused with ErrUnsupported.
func DecodeOptional(data []byte, label string, opts ...Option) (t *model.Tensor, items []*model.Tensor, err error) {
	o := collect(opts)
	if int64(len(data)) > o.limits.MaxFileBytes {
		return nil, nil, (&decoder{label: label}).invalid("%d bytes exceeds Limits.MaxFileBytes (%d)", len(data), o.limits.MaxFileBytes)
	}
	d := &decoder{label: label, lim: o.limits, ext: &extResolver{limit: o.limits.MaxFileBytes, refuse: "DecodeOptional reads no external data"}}
	b := data
	for len(b) > 0 {
		num, wt, err := d.tag(&b)
		if err != nil {
			return nil, nil, err
		}
		switch num {
		case 3, 5:
			var p []byte
			if p, err = d.bytes(&b, wt, "value"); err != nil {
				return nil, nil, err
			}
			if num == 3 {
				t, items = nil, nil
				if t, err = d.decodeTensor(p); err != nil {
					return nil, nil, err
				}
			} else {
				t, items = nil, nil
				if items, err = d.decodeSequence(p); err != nil {
					return nil, nil, err
				}
			}
		case 4, 6, 7:
			return nil, nil, d.unsupported("optional of a non-tensor value: lintel runs optional tensors and sequences only")
		default:
			err = d.skip(&b, num, wt)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return t, items, nil
}
