package cpu

import (
	"encoding/binary"

	"github.com/lintel-ml/lintel/payload"
)

// String tensors hold the encoding of payload.EncodeStrings: n uint64 end
// offsets, then the strings' bytes. Graph inputs are checked at setInput
// and constants at load, so kernels read elements without checking.

// strAt returns element i of string tensor t as a view of its bytes.
func strAt(t *tensor, i int) []byte { return payload.StringAt(t.data, t.numel(), i) }

// strOut builds a string output's encoding in a buffer its kernel keeps
// from call to call: start, then add each element in order, then set.
// The executor leaves string outputs' data to their kernel.
type strOut struct {
	buf []byte
	n   int
	i   int
}

// start begins an output of n elements.
func (b *strOut) start(n int) {
	need := 8 * n
	if cap(b.buf) < need {
		b.buf = make([]byte, need, 2*need+64)
	}
	b.buf = b.buf[:need]
	b.n, b.i = n, 0
}

// add appends the next element.
func (b *strOut) add(s []byte) {
	b.buf = append(b.buf, s...)
	binary.LittleEndian.PutUint64(b.buf[8*b.i:], uint64(len(b.buf)-8*b.n))
	b.i++
}

// set points t at the encoding once every element has been added.
func (b *strOut) set(t *tensor) {
	if b.n == 0 {
		t.data = b.buf[:0]
		return
	}
	t.data = b.buf
}
