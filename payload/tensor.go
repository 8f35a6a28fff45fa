package payload

import (
	"unsafe"

	"github.com/lintel-ml/lintel/memclass"
)

// Tensor is a dense, row-major tensor of elements of type E.
//
// Place says where Data lives; the zero value is memclass.Host. Backends
// that accept other classes say so in their model metadata.
type Tensor[E Elem] struct {
	Shape []int
	Data  []E
	Place memclass.Class
}

// NewTensor returns a host tensor of the given shape with zeroed data.
// It panics if a dimension is negative, as make does.
func NewTensor[E Elem](shape ...int) Tensor[E] {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return Tensor[E]{Shape: append([]int(nil), shape...), Data: make([]E, n)}
}

// Len returns the number of elements the shape describes: the product of
// Shape, or 1 for a scalar. It returns -1 if a dimension is negative or the
// product overflows.
func (t *Tensor[E]) Len() int { return NumElems(t.Shape) }

// DType returns the tensor's element type.
func (t *Tensor[E]) DType() DType { return DTypeOf[E]() }

// Bytes returns the tensor's data as bytes, without copying.
func (t *Tensor[E]) Bytes() []byte { return AsBytes(t.Data) }

// NumElems returns the product of shape's dimensions (1 for a scalar), or
// -1 if a dimension is negative or the product overflows an int.
func NumElems(shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return -1
		}
		if d == 0 {
			n = 0
			continue
		}
		if n > maxInt/d {
			return -1
		}
		n *= d
	}
	return n
}

const maxInt = int(^uint(0) >> 1)

// AsBytes views a slice of elements as bytes, without copying.
func AsBytes[E Elem](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	var z E
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// FromBytes views bytes as a slice of elements, without copying. The
// length of b must be a multiple of the element size and its start aligned
// to it; otherwise FromBytes returns nil, false.
func FromBytes[E Elem](b []byte) ([]E, bool) {
	var z E
	sz := int(unsafe.Sizeof(z))
	if len(b)%sz != 0 {
		return nil, false
	}
	if len(b) == 0 {
		return []E{}, true
	}
	p := unsafe.Pointer(&b[0])
	if uintptr(p)%uintptr(sz) != 0 {
		return nil, false
	}
	return unsafe.Slice((*E)(p), len(b)/sz), true
}

// IsAligned reports whether b's start is aligned to n bytes (true for an
// empty slice).
func IsAligned(b []byte, n int) bool {
	if len(b) == 0 || n <= 1 {
		return true
	}
	return uintptr(unsafe.Pointer(&b[0]))%uintptr(n) == 0
}
