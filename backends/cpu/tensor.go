package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/payload"
)

// tensor is a run-time value: element type, shape and bytes. data is
// aligned to 8 bytes and holds exactly numel*size bytes once the executor
// has sized it.
type tensor struct {
	dt    payload.DType
	shape []int
	data  []byte
	// items are the elements of a sequence value (seq), each a tensor of
	// element type dt, and none marks an optional value with no element;
	// see seq.go.
	items []*tensor
	seq   bool
	none  bool
}

// numel returns the product of the shape (1 for a scalar), or -1 when a
// dim is negative or the product overflows.
func (t *tensor) numel() int { return payload.NumElems(t.shape) }

// resize sets t's rank to r and returns the shape slice to fill in.
func (t *tensor) resize(r int) []int {
	if cap(t.shape) < r {
		t.shape = make([]int, r, r+4)
	}
	t.shape = t.shape[:r]
	return t.shape
}

// elems views t's data as a typed slice. The caller must know that E
// matches t.dt; the data length must be a multiple of the element size.
func elems[E payload.Elem](t *tensor) []E {
	if len(t.data) == 0 {
		return nil
	}
	var z E
	return unsafe.Slice((*E)(unsafe.Pointer(&t.data[0])), len(t.data)/int(unsafe.Sizeof(z)))
}

func (t *tensor) f32() []float32 { return elems[float32](t) }
func (t *tensor) f64() []float64 { return elems[float64](t) }
func (t *tensor) i64() []int64   { return elems[int64](t) }
func (t *tensor) i32() []int32   { return elems[int32](t) }
func (t *tensor) bools() []bool  { return elems[bool](t) }
func (t *tensor) u8() []uint8    { return t.data }

// alignedBytes returns n zeroed bytes whose start is 8-byte aligned.
func alignedBytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	w := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8)[:n]
}

// sameShape reports whether a and b are equal.
func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
