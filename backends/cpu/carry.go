package cpu

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// How a carried value gets from a call's output to the next call's
// input (compute.Options.Carries).
const (
	// carryTurns: the output is written straight into one of two
	// buffers, the one the input does not read; they swap after a call.
	carryTurns = iota
	// carryCopy: the output views another value (Reshape, Identity...)
	// or an input, so it is copied into the buffer the input does not
	// read after a call.
	carryCopy
	// carryInPlace: an Attention or GroupQueryAttention node's present
	// key or value output, its past input the same buffer, laid out with
	// MaxSequence rows per head: the node appends the new rows and
	// nothing is copied.
	carryInPlace
)

// carry is one carried pair of a program.
type carry struct {
	in, out int // value indices of the graph input and output
	mode    int
	// init is the input's first shape: its declared shape, free dims 0.
	init []int
}

// carryState is a carried value between calls: its shape, and the
// buffers it lives in (buf[cur] holds it).
type carryState struct {
	shape []int
	buf   [2][]byte
	cur   int
}

// applyCarries takes the pairs of opts.Carries out of the program's
// inputs and outputs, and plans how each value is handed on.
func (p *program) applyCarries() error {
	cs := p.opts.Carries
	if len(cs) == 0 {
		return nil
	}
	find := func(list []int, name string) int {
		for i, v := range list {
			if p.values[v].name == name {
				return i
			}
		}
		return -1
	}
	usedIn, usedOut := map[int]bool{}, map[int]bool{}
	for _, c := range cs {
		ii, oi := find(p.inputs, c.Input), find(p.outputs, c.Output)
		if ii < 0 {
			return errs.New(errs.ShapeMismatch, "%s: carried input %q is not a model input", p.label, c.Input)
		}
		if oi < 0 {
			return errs.New(errs.ShapeMismatch, "%s: carried output %q is not a model output", p.label, c.Output)
		}
		in, out := p.inputs[ii], p.outputs[oi]
		if usedIn[in] || usedOut[out] {
			return errs.New(errs.ShapeMismatch, "%s: carry %q → %q names a value twice", p.label, c.Output, c.Input)
		}
		usedIn[in], usedOut[out] = true, true
		vi, vo := &p.values[in], &p.values[out]
		if vi.vk != model.KindTensor || vo.vk != model.KindTensor || vi.dt == payload.String {
			return errs.New(errs.Unsupported, "%s: carry %q → %q: only numeric tensors are carried", p.label, c.Output, c.Input)
		}
		if vi.dt != vo.dt {
			return errs.New(errs.TypeMismatch, "%s: carry %q → %q: the output is %s, the input %s", p.label, c.Output, c.Input, vo.dt, vi.dt)
		}
		if vi.rank < 0 {
			return errs.New(errs.Unsupported, "%s: carried input %q has no declared shape to start from", p.label, c.Input)
		}
		k := carry{in: in, out: out, init: make([]int, vi.rank)}
		for d, n := range vi.shape {
			k.init[d] = max(n, 0)
		}
		switch {
		case vo.kind != kindComputed || count(p.outputs, out) > 1:
			k.mode = carryCopy
		case p.opts.MaxSequence > 0 && p.attentionInPlace(in, out):
			k.mode = carryInPlace
		}
		p.carries = append(p.carries, k)
	}
	keep := func(list []int, drop map[int]bool) []int {
		var out []int
		for _, v := range list {
			if !drop[v] {
				out = append(out, v)
			}
		}
		return out
	}
	p.inputs, p.outputs = keep(p.inputs, usedIn), keep(p.outputs, usedOut)
	for i, c := range p.carries {
		if c.mode != carryCopy {
			p.values[c.out].carry = i
			p.values[c.out].slot = -1
		}
	}
	p.nslots = 0
	p.plan()
	return nil
}

// count returns how many times v is in list.
func count(list []int, v int) int {
	n := 0
	for _, w := range list {
		if w == v {
			n++
		}
	}
	return n
}

// attentionInPlace reports whether the carried pair in → out is the
// past and present key (or value) of one Attention node in float32, or
// of one GroupQueryAttention node, that nothing else reads (Shape and
// Size nodes may read its shape), and if so tells the node to append in
// place.
func (p *program) attentionInPlace(in, out int) bool {
	readers := 0
	for _, st := range p.steps {
		switch st.k.(type) {
		case *shapeKernel, *sizeKernel:
			// They read the value's shape only, which stays its own.
			continue
		}
		for _, v := range st.in {
			if v == in || v == out {
				readers++
			}
		}
	}
	if readers != 1 {
		return false
	}
	for _, st := range p.steps {
		// The flags to set, and how far past input j (1 key, 2 value)
		// is from present output j.
		var flags *[2]bool
		shift := 0
		switch k := st.k.(type) {
		case *attentionKernel:
			if k.dt != payload.Float32 {
				continue
			}
			flags, shift = &k.inPlace, 3
		case *gqaKernel:
			flags, shift = &k.inPlace, 2
		default:
			continue
		}
		for j := 1; j <= 2; j++ {
			if j < len(st.out) && st.out[j] == out && j+shift < len(st.in) && st.in[j+shift] == in {
				flags[j-1] = true
				return true
			}
		}
	}
	return false
}

// newCarryStates makes each carried value's first state: zeros of its
// initial shape.
func newCarryStates(p *program) []carryState {
	st := make([]carryState, len(p.carries))
	for i, c := range p.carries {
		st[i].shape = append(make([]int, 0, len(c.init)), c.init...)
		if n := payload.NumElems(c.init) * p.values[c.in].dt.Size(); n > 0 {
			st[i].buf[0] = alignedBytes(n)
		}
	}
	return st
}

// resetCarries sets every carried value back to its first state,
// keeping the buffers.
func (x *exec) resetCarries() {
	for i, c := range x.p.carries {
		s := &x.carry[i]
		s.shape = append(s.shape[:0], c.init...)
		n := payload.NumElems(c.init) * x.p.values[c.in].dt.Size()
		if n > 0 {
			if c.mode == carryInPlace {
				s.cur = 0
			}
			clear(s.buf[s.cur][:n])
		}
	}
}

// loadCarries points each carried input at its value.
func (x *exec) loadCarries() {
	for i, c := range x.p.carries {
		s := &x.carry[i]
		t := &x.vals[c.in]
		t.shape = append(t.shape[:0], s.shape...)
		if c.mode == carryInPlace {
			// The whole buffer, MaxSequence rows a head: the node reads
			// the input's shape only.
			t.data = s.buf[0]
			continue
		}
		t.data = s.buf[s.cur][:payload.NumElems(s.shape)*t.dt.Size()]
	}
}

// storeCarries makes each carried output the next call's input.
func (x *exec) storeCarries() {
	for i, c := range x.p.carries {
		s := &x.carry[i]
		o := &x.vals[c.out]
		switch c.mode {
		case carryCopy:
			b := x.carryBuf(i, 1-s.cur, len(o.data), o.shape)
			copy(b, o.data)
			s.cur = 1 - s.cur
		case carryTurns:
			s.cur = 1 - s.cur
		}
		s.shape = append(s.shape[:0], o.shape...)
	}
}

// carryBuf returns buffer j of carried value i with room for need bytes
// of a value of the given shape, grown when too small: to the size
// MaxSequence rows of its growing dim take (the first dim where shape
// differs from the value's current shape), or to need.
func (x *exec) carryBuf(i, j, need int, shape []int) []byte {
	s := &x.carry[i]
	if cap(s.buf[j]) < need {
		n := need
		if ms := x.p.opts.MaxSequence; ms > 0 {
			for d := range min(len(shape), len(s.shape)) {
				if shape[d] != s.shape[d] && shape[d] > 0 {
					n = need / shape[d] * max(ms, shape[d])
					break
				}
			}
		}
		b := alignedBytes(n)
		if j == s.cur || x.p.carries[i].mode == carryInPlace {
			copy(b, s.buf[j])
		}
		s.buf[j] = b
	}
	return s.buf[j][:cap(s.buf[j])][:need]
}

// carryOut gives step output t, carried value i, its bytes: the buffer
// the input does not read, or for an in-place value the whole buffer the
// input reads, which must hold MaxSequence rows.
func (x *exec) carryOut(i, need int, t *tensor) error {
	s := &x.carry[i]
	if x.p.carries[i].mode != carryInPlace {
		t.data = x.carryBuf(i, 1-s.cur, need, t.shape)
		return nil
	}
	g := growDim(t.shape, s.shape)
	if g >= 0 && g != 2 {
		return errs.New(errs.ShapeMismatch, "%s: carried cache %q changes shape from %v to %v: only its dim 2 may grow", x.p.label, x.p.values[x.p.carries[i].out].name, s.shape, t.shape)
	}
	if g >= 0 && t.shape[g] > x.p.opts.MaxSequence {
		return errs.New(errs.ResourceUnavailable, "%s: carried value %q would hold %d positions, beyond compute.Options.MaxSequence (%d)", x.p.label, x.p.values[x.p.carries[i].out].name, t.shape[g], x.p.opts.MaxSequence)
	}
	b := x.carryBuf(i, 0, need, t.shape)
	t.data = b[:cap(b)]
	x.vals[x.p.carries[i].in].data = t.data
	return nil
}

// growDim returns the first dim where shape differs from prev, or -1.
func growDim(shape, prev []int) int {
	for d := range min(len(shape), len(prev)) {
		if shape[d] != prev[d] {
			return d
		}
	}
	return -1
}

// warmCarries makes the carried values zeros of the given shapes (none:
// their first state), for a Warm run.
func (x *exec) warmCarries(shapes [][]int) error {
	x.resetCarries()
	for i, shape := range shapes {
		c := x.p.carries[i]
		v := &x.p.values[c.in]
		if len(shape) != len(c.init) {
			return errs.New(errs.ShapeMismatch, "%s: Warm: carried input %q: shape %v has rank %d, want %d", x.p.label, v.name, shape, len(shape), len(c.init))
		}
		n := payload.NumElems(shape)
		if n < 0 || n > x.maxBytes/max(v.dt.Size(), 1) {
			return errs.New(errs.ShapeMismatch, "%s: Warm: carried input %q has invalid shape %v", x.p.label, v.name, shape)
		}
		s := &x.carry[i]
		if c.mode == carryInPlace {
			if g := growDim(shape, c.init); g >= 0 && shape[g] >= x.p.opts.MaxSequence {
				return errs.New(errs.ResourceUnavailable, "%s: Warm: carried input %q: shape %v leaves no room under compute.Options.MaxSequence (%d)", x.p.label, v.name, shape, x.p.opts.MaxSequence)
			}
			s.cur = 0
		}
		b := x.carryBuf(i, s.cur, n*v.dt.Size(), shape)
		clear(b)
		s.shape = append(s.shape[:0], shape...)
	}
	return nil
}
