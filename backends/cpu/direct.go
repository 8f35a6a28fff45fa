package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// Direct output. A call with a payload.Tensor output whose data already
// has room for the result lets the node that computes the graph's output
// write it there, instead of into the model's planned buffer and then a
// copy (writeTensor sees that the bytes are already in place). Graph
// inputs are never copied in the first place (setInput views them). The
// rules:
//
//   - only a payload.Tensor output (not payload.Multi), only the graph's
//     single output, and only a value a node computes into a planned slot
//     (kindComputed): not a graph input, a constant, a view of another
//     value, a carried value (compute.Options.Carries), a string or a
//     sequence;
//   - only one item at a time: InferOne, and InferBatch's item-by-item
//     loop, never a stacked batch, whose output is split afterwards;
//   - only when the payload's data has the capacity for the result, is
//     8-byte aligned (as the planned buffers are) and overlaps no graph
//     input's bytes (an output payload that shares memory with the input
//     keeps the copy, since nodes read the input after the output is
//     written);
//   - when a call fails, the output payload's data may have been written
//     in part (its Shape and length are left as they were).
//
// The graph output stays live to the end of a call, so no other value is
// planned into memory it is written to, and later nodes that read it read
// the caller's bytes, which nothing else writes during the call.

// directValue returns the value that direct output may write into the
// caller's payload, or -1 when the program's output is not eligible.
func directValue(p *program) int {
	if len(p.outputs) != 1 {
		return -1
	}
	v := p.outputs[0]
	vi := &p.values[v]
	if vi.kind != kindComputed || vi.carry >= 0 || vi.vk != model.KindTensor || vi.dt == payload.String {
		return -1
	}
	for _, w := range p.outputs[1:] {
		if w == v {
			return -1
		}
	}
	return v
}

// setDirect offers b, the output payload's bytes, for this call's
// output, unless it is unaligned or overlaps an input.
func (x *exec) setDirect(b []byte) {
	x.direct = nil
	if x.directV < 0 || len(b) == 0 || !payload.IsAligned(b, 8) {
		return
	}
	for _, v := range x.p.inputs {
		if overlaps(b, x.vals[v].data) {
			return
		}
	}
	x.direct = b
}

// overlaps reports whether a and b share a byte.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return a0 < b0+uintptr(len(b)) && b0 < a0+uintptr(len(a))
}

// runInto runs the model for one item whose output goes to out, letting
// the output's node write into out's data where the rules above allow.
func (m *Model[In, Out]) runInto(out *Out) error {
	if m.outBytes != nil {
		m.x.setDirect(m.outBytes(out))
	}
	err := m.x.run()
	m.x.direct = nil
	return err
}

// outBytesOf returns the function that views a payload.Tensor[E]'s data,
// to its capacity, as bytes, E of type dt.
func outBytesOf[Out any](dt payload.DType) func(*Out) []byte {
	switch dt {
	case payload.Float32:
		return tensorBytes[Out, float32]
	case payload.Float64:
		return tensorBytes[Out, float64]
	case payload.Float16:
		return tensorBytes[Out, float16.Float16]
	case payload.BF16:
		return tensorBytes[Out, payload.BFloat16]
	case payload.Int8:
		return tensorBytes[Out, int8]
	case payload.Uint8:
		return tensorBytes[Out, uint8]
	case payload.Int16:
		return tensorBytes[Out, int16]
	case payload.Uint16:
		return tensorBytes[Out, uint16]
	case payload.Int32:
		return tensorBytes[Out, int32]
	case payload.Int64:
		return tensorBytes[Out, int64]
	case payload.Uint32:
		return tensorBytes[Out, uint32]
	case payload.Uint64:
		return tensorBytes[Out, uint64]
	case payload.Bool:
		return tensorBytes[Out, bool]
	}
	// Sub-byte and 8-bit float payloads keep the copy.
	return nil
}

func tensorBytes[Out any, E payload.Elem](out *Out) []byte {
	p := any(out).(*payload.Tensor[E])
	return payload.AsBytes(p.Data[:cap(p.Data)])
}
