package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// Direct output. A call whose output payload already has room for a
// result lets the node that computes it write it there, instead of into
// the model's planned buffer and then a copy (writeTensor and writeMulti
// see that the bytes are already in place). Graph inputs are never
// copied in the first place (setInput views them). The rules:
//
//   - a payload.Tensor output, or each tensor of a payload.Multi output
//     that already holds one Dynamic per graph output (as a previous
//     call leaves it);
//   - only a value a node computes into a planned slot (kindComputed):
//     not a graph input, a constant, a view of another value, a carried
//     value (compute.Options.Carries), a string or a sequence, and not a
//     value listed as two outputs;
//   - only one item at a time: InferOne, and InferBatch's item-by-item
//     loop, never a stacked batch, whose output is split afterwards;
//   - only when the payload's data has the capacity for the result, is
//     8-byte aligned (as the planned buffers are), and overlaps neither
//     a graph input's bytes (nodes read the input after the output is
//     written) nor, both to their capacity, another tensor of the
//     payload (writeMulti gives an output whose data overlaps an
//     earlier one's new bytes);
//   - when a call fails, the output payload's data may have been written
//     in part (its Shape and length are left as they were).
//
// Graph outputs stay live to the end of a call, so no other value is
// planned into memory they are written to, and later nodes that read
// them read the caller's bytes, which nothing else writes during the
// call.

// directValues returns, for each value of p, the index of the graph
// output that direct output may write into the caller's payload, -1 for
// values that are no eligible output.
func directValues(p *program) []int32 {
	at := make([]int32, len(p.values))
	for i := range at {
		at[i] = -1
	}
	for i, v := range p.outputs {
		vi := &p.values[v]
		if vi.kind != kindComputed || vi.carry >= 0 || vi.vk != model.KindTensor || vi.dt == payload.String {
			continue
		}
		twice := false
		for j, w := range p.outputs {
			twice = twice || (w == v && j != i)
		}
		if !twice {
			at[v] = int32(i)
		}
	}
	return at
}

// offerDirect offers b, the payload bytes of graph output i, for this
// call's output, unless that output is not eligible, or b is unaligned
// or overlaps an input.
func (x *exec) offerDirect(i int, b []byte) {
	x.direct[i] = nil
	if v := x.p.outputs[i]; x.directAt[v] != int32(i) || len(b) == 0 || !payload.IsAligned(b, 8) {
		return
	}
	for _, v := range x.p.inputs {
		if overlaps(b, x.vals[v].data) {
			return
		}
	}
	x.direct[i] = b
}

// sharesBytes reports whether ts[i]'s data, to its capacity, overlaps
// another tensor's data to its capacity.
func sharesBytes(ts []payload.Dynamic, i int) bool {
	b := ts[i].Data[:cap(ts[i].Data)]
	for j := range ts {
		if j != i && overlaps(b, ts[j].Data[:cap(ts[j].Data)]) {
			return true
		}
	}
	return false
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
// the outputs' nodes write into out's data where the rules above allow.
func (m *Model[In, Out]) runInto(out *Out) error {
	x := m.x
	if m.outBytes != nil {
		x.offerDirect(0, m.outBytes(out))
	} else if p, ok := any(out).(*payload.Multi); ok && len(p.Tensors) == len(x.direct) {
		for i := range p.Tensors {
			if d := &p.Tensors[i]; d.Place.HostVisible() && !sharesBytes(p.Tensors, i) {
				x.offerDirect(i, d.Data[:cap(d.Data)])
			}
		}
	}
	err := x.run()
	clear(x.direct)
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
