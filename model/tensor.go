package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// Tensor is a constant tensor: an initializer, a Constant node's value or a
// folded result.
type Tensor struct {
	Name  string
	DType payload.DType
	Shape []int
	// Raw holds NumElems(Shape) elements as little-endian bytes, its start
	// aligned to the element size; for element type String, the encoding
	// of payload.EncodeStrings. It may alias the artifact's bytes: never
	// write to it.
	Raw []byte
	// Backing, when set, holds the memory outside Go's heap that Raw
	// views (a mapping of the model file); see Backing for how long that
	// memory lives. Nil when Raw is on Go's heap.
	Backing *Backing
}

// NumElems returns the number of elements, or -1 on overflow.
func (t *Tensor) NumElems() int { return payload.NumElems(t.Shape) }

// Check verifies that Raw holds exactly the elements Shape describes; a
// string tensor's Raw is the encoding of payload.EncodeStrings.
func (t *Tensor) Check() error {
	if t.DType == payload.String {
		if err := payload.CheckStrings(t.Raw, t.NumElems()); err != nil {
			return errs.Wrap(errs.InvalidArtifact, err, "tensor %q", t.Name)
		}
		return nil
	}
	if !t.DType.Valid() {
		return errs.New(errs.Unsupported, "tensor %q: element type %s", t.Name, t.DType)
	}
	n := t.NumElems()
	if n < 0 {
		return errs.New(errs.InvalidArtifact, "tensor %q: shape %v overflows", t.Name, t.Shape)
	}
	if len(t.Raw) != n*t.DType.Size() {
		return errs.New(errs.InvalidArtifact, "tensor %q: shape %v of %s needs %d bytes, has %d", t.Name, t.Shape, t.DType, n*t.DType.Size(), len(t.Raw))
	}
	return nil
}

// View returns the tensor's elements as a typed slice without copying. It
// returns an error if E is not the tensor's element type or Raw is
// misaligned.
func View[E payload.Elem](t *Tensor) ([]E, error) {
	if want := payload.DTypeOf[E](); t.DType != want {
		return nil, errs.New(errs.InvalidArtifact, "tensor %q holds %s, not %s", t.Name, t.DType, want)
	}
	s, ok := payload.FromBytes[E](t.Raw)
	if !ok {
		return nil, errs.New(errs.InvalidArtifact, "tensor %q: %d bytes misaligned or not whole elements of %s", t.Name, len(t.Raw), t.DType)
	}
	return s, nil
}

// NewTensor returns a constant tensor holding a copy of data.
func NewTensor[E payload.Elem](name string, shape []int, data []E) *Tensor {
	raw := make([]byte, len(data)*payload.DTypeOf[E]().Size())
	copy(raw, payload.AsBytes(data))
	return &Tensor{Name: name, DType: payload.DTypeOf[E](), Shape: append([]int{}, shape...), Raw: AlignedCopy(raw)}
}

// AlignedCopy returns b itself when its start is 8-byte aligned, or an
// 8-byte aligned copy of it.
func AlignedCopy(b []byte) []byte {
	if len(b) == 0 || aligned8(b) {
		return b
	}
	return AlignedBytes(b)
}

// AlignedBytes returns a fresh 8-byte aligned copy of b.
func AlignedBytes(b []byte) []byte {
	words := make([]uint64, (len(b)+7)/8)
	out := payload.AsBytes(words)[:len(b)]
	copy(out, b)
	return out
}

// Int64s returns the tensor's values converted to int64. It accepts every
// integer and boolean element type; it is meant for small shape-like
// tensors (axes, shapes, indices) read at load time.
func (t *Tensor) Int64s() ([]int64, error) {
	n := t.NumElems()
	if n < 0 || len(t.Raw) != n*t.DType.Size() {
		return nil, errs.New(errs.InvalidArtifact, "tensor %q: shape %v does not match its %d bytes", t.Name, t.Shape, len(t.Raw))
	}
	out := make([]int64, n)
	r := t.Raw
	for i := range out {
		switch t.DType {
		case payload.Int64, payload.Uint64:
			out[i] = int64(le64(r[i*8:]))
		case payload.Int32:
			out[i] = int64(int32(le32(r[i*4:])))
		case payload.Uint32:
			out[i] = int64(le32(r[i*4:]))
		case payload.Int16:
			out[i] = int64(int16(uint16(r[i*2]) | uint16(r[i*2+1])<<8))
		case payload.Uint16:
			out[i] = int64(uint16(r[i*2]) | uint16(r[i*2+1])<<8)
		case payload.Int8:
			out[i] = int64(int8(r[i]))
		case payload.Uint8, payload.Bool:
			out[i] = int64(r[i])
		case payload.I4:
			out[i] = int64(payload.Int4(r[i]).Int8())
		case payload.U4:
			out[i] = int64(payload.Uint4(r[i]).Uint8())
		case payload.I2:
			out[i] = int64(payload.Int2(r[i]).Int8())
		case payload.U2:
			out[i] = int64(payload.Uint2(r[i]).Uint8())
		default:
			return nil, errs.New(errs.Unsupported, "tensor %q: want integers, got %s", t.Name, t.DType)
		}
	}
	return out, nil
}

// Float64s returns the tensor's values converted to float64, for small
// tensors read at load time (scales, scalars). It accepts float and integer
// element types.
func (t *Tensor) Float64s() ([]float64, error) {
	switch t.DType {
	case payload.Float32:
		v, err := View[float32](t)
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x)
		}
		return out, nil
	case payload.Float64:
		v, err := View[float64](t)
		if err != nil {
			return nil, err
		}
		return append([]float64(nil), v...), nil
	case payload.Float16:
		n := t.NumElems()
		if n < 0 || len(t.Raw) != 2*n {
			return nil, errs.New(errs.InvalidArtifact, "tensor %q: bad length", t.Name)
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = float64(f16to32(uint16(t.Raw[2*i]) | uint16(t.Raw[2*i+1])<<8))
		}
		return out, nil
	case payload.BF16:
		n := t.NumElems()
		if n < 0 || len(t.Raw) != 2*n {
			return nil, errs.New(errs.InvalidArtifact, "tensor %q: bad length", t.Name)
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = float64(payload.BFloat16(uint16(t.Raw[2*i]) | uint16(t.Raw[2*i+1])<<8).Float32())
		}
		return out, nil
	case payload.F8E4M3FN, payload.F8E4M3FNUZ, payload.F8E5M2, payload.F8E5M2FNUZ, payload.F8E8M0, payload.F4E2M1:
		n := t.NumElems()
		if n < 0 || len(t.Raw) != n {
			return nil, errs.New(errs.InvalidArtifact, "tensor %q: bad length", t.Name)
		}
		out := make([]float64, n)
		for i, b := range t.Raw {
			out[i] = float64(payload.LowFloat32(t.DType, b))
		}
		return out, nil
	}
	ints, err := t.Int64s()
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ints))
	for i, x := range ints {
		out[i] = float64(x)
	}
	return out, nil
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func le64(b []byte) uint64 { return uint64(le32(b)) | uint64(le32(b[4:]))<<32 }
