package payload

import (
	"fmt"

	"github.com/lintel-ml/lintel/memclass"
)

// Dynamic is one tensor of a multi-tensor payload: its element type is a
// run-time value. Data holds the elements' bytes in host byte order,
// row-major; Typed views them as a typed slice without copying.
//
// A model input or output whose ONNX type is a sequence of tensors is a
// Dynamic whose Items (non-nil, possibly empty) hold the elements, with
// its own DType, Shape and Data unused; an optional one with no element
// has DType Undefined and Items nil (see
// docs/adr/0026-sequences-and-optionals.md). Only payload.Multi carries
// them, and not through batches.
type Dynamic struct {
	Name  string
	DType DType
	Shape []int
	Data  []byte
	Place memclass.Class
	Items []Dynamic
}

// Multi is the payload of a model with several inputs or outputs, of mixed
// element types.
//
// As an input, Tensors holds one entry per model input. Entries are matched
// to the model's inputs by Name; if every Name is empty they are matched by
// position. As an output, the backend sets Tensors to one entry per model
// output, in the model's order, reusing the entries' Shape and Data slices
// when they are large enough: a caller that reuses one Multi for its outputs
// allocates nothing in steady state.
type Multi struct {
	Tensors []Dynamic
}

// DynamicOf wraps a typed tensor as a Dynamic without copying its data.
func DynamicOf[E Elem](name string, t Tensor[E]) Dynamic {
	return Dynamic{Name: name, DType: DTypeOf[E](), Shape: t.Shape, Data: AsBytes(t.Data), Place: t.Place}
}

// Typed views d as a typed tensor without copying. It fails when E does
// not match d.DType or the data is misaligned or of the wrong length.
func Typed[E Elem](d Dynamic) (Tensor[E], error) {
	if want := DTypeOf[E](); d.DType != want {
		return Tensor[E]{}, fmt.Errorf("payload: tensor %q holds %s, not %s", d.Name, d.DType, want)
	}
	data, ok := FromBytes[E](d.Data)
	if !ok {
		return Tensor[E]{}, fmt.Errorf("payload: tensor %q: %d bytes are misaligned or not a whole number of %s", d.Name, len(d.Data), d.DType)
	}
	if n := NumElems(d.Shape); n != len(data) {
		return Tensor[E]{}, fmt.Errorf("payload: tensor %q: shape %v needs %d elements, data holds %d", d.Name, d.Shape, n, len(data))
	}
	return Tensor[E]{Shape: d.Shape, Data: data, Place: d.Place}, nil
}

// Get returns the entry named name, or nil.
func (m *Multi) Get(name string) *Dynamic {
	for i := range m.Tensors {
		if m.Tensors[i].Name == name {
			return &m.Tensors[i]
		}
	}
	return nil
}
