package cpu

import (
	"context"
	"time"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// exec is one model instance's run-time state: a tensor per value, the
// planned buffers, and per-step argument lists. Everything is allocated at
// Init or grown on the first call at a larger shape.
type exec struct {
	p     *program
	vals  []tensor
	slots [][]byte
	ins   [][]*tensor
	outs  [][]*tensor
	// shapers are the steps' output-shape rules, with this instance's
	// buffers.
	shapers []*outShaper
	// bound marks the inputs set for the current call.
	bound []bool
	// stage and stageShape hold stacked batch inputs.
	stage      [][]byte
	stageShape [][]int
	// maxBytes caps any one tensor's size.
	maxBytes int
	// done is the context of a call made with one (InferOneContext...),
	// checked between nodes; nil otherwise.
	done <-chan struct{}
	ctx  context.Context
	// prof records node times when compute.Options.Profile is set.
	prof *profiler
	// carry holds the carried values (compute.Options.Carries).
	carry []carryState
	// directAt is, for each value, the graph output that may be written
	// straight into the caller's output payload (direct.go), -1 for none;
	// direct holds this call's payload bytes for each output, nil where
	// the output goes to its slot.
	directAt []int32
	direct   [][]byte
}

func newExec(p *program) *exec {
	x := &exec{p: p, vals: make([]tensor, len(p.values)), slots: make([][]byte, p.nslots), bound: make([]bool, len(p.inputs)),
		stage: make([][]byte, len(p.inputs)), stageShape: make([][]int, len(p.inputs))}
	x.maxBytes = compute.DefaultMaxTensorBytes
	if p.opts.Profile {
		x.prof = newProfiler(p)
	}
	x.carry = newCarryStates(p)
	x.directAt = directValues(p)
	x.direct = make([][]byte, len(p.outputs))
	if m := p.opts.MaxTensorBytes; m > 0 && m < int64(x.maxBytes) {
		x.maxBytes = int(m)
	}
	for i := range p.values {
		v := &p.values[i]
		t := &x.vals[i]
		t.dt = v.dt
		t.seq = v.vk.IsSequence()
		r := v.rank
		if r < 0 {
			r = 4
		}
		t.shape = make([]int, 0, r+4)
		if v.kind == kindConst {
			t.shape = append(t.shape, v.c.Shape...)
			t.data = v.c.Raw
		}
	}
	x.shapers = make([]*outShaper, len(p.steps))
	x.ins = make([][]*tensor, len(p.steps))
	x.outs = make([][]*tensor, len(p.steps))
	for si, st := range p.steps {
		x.shapers[si] = st.shaper.clone()
		x.ins[si] = make([]*tensor, len(st.in))
		for j, v := range st.in {
			if v >= 0 {
				x.ins[si][j] = &x.vals[v]
			}
		}
		x.outs[si] = make([]*tensor, len(st.out))
		for j, v := range st.out {
			if v >= 0 {
				x.outs[si][j] = &x.vals[v]
			} else {
				// An unused optional output still gets a scratch tensor.
				x.outs[si][j] = &tensor{dt: payload.Float32}
			}
		}
	}
	return x
}

// setInput points graph input i at the caller's bytes after checking them
// against the model's declared type.
func (x *exec) setInput(i int, dt payload.DType, shape []int, data []byte) error {
	v := &x.p.values[x.p.inputs[i]]
	if dt != v.dt {
		return errs.New(errs.TypeMismatch, "%s: input %q: element type %s, want %s", x.p.label, v.name, dt, v.dt)
	}
	if v.rank >= 0 {
		if len(shape) != v.rank {
			return errs.New(errs.ShapeMismatch, "%s: input %q: shape %v has rank %d, want %v", x.p.label, v.name, shape, len(shape), v.shape)
		}
		for d, want := range v.shape {
			if want >= 0 && shape[d] != want {
				return errs.New(errs.ShapeMismatch, "%s: input %q: shape %v, want %v", x.p.label, v.name, shape, v.shape)
			}
		}
	}
	n := payload.NumElems(shape)
	if n < 0 {
		return errs.New(errs.ShapeMismatch, "%s: input %q: invalid shape %v", x.p.label, v.name, shape)
	}
	if dt == payload.String {
		if err := payload.CheckStrings(data, n); err != nil {
			return errs.Wrap(errs.ShapeMismatch, err, "%s: input %q of shape %v", x.p.label, v.name, shape)
		}
	} else if len(data) != n*dt.Size() {
		return errs.New(errs.ShapeMismatch, "%s: input %q: shape %v needs %d elements, data holds %d", x.p.label, v.name, shape, n, len(data)/max(dt.Size(), 1))
	}
	if !payload.IsAligned(data, dt.Size()) {
		return errs.New(errs.ShapeMismatch, "%s: input %q: data is not aligned to its %d-byte elements", x.p.label, v.name, dt.Size())
	}
	t := &x.vals[x.p.inputs[i]]
	t.shape = append(t.shape[:0], shape...)
	t.data = data
	x.bound[i] = true
	return nil
}

// run executes every step. All inputs must be set.
//
// A kernel that panics (a bug, or a hostile model no load-time check
// caught) fails the call with compute.ErrExecutionFailed instead of taking
// the service down.
func (x *exec) run() (err error) {
	pool := x.p.gemm.pool
	pool.begin()
	defer pool.end()
	si := -1
	defer func() {
		if r := recover(); r != nil {
			err = x.panicErr(si, r)
		}
	}()
	for i, ok := range x.bound {
		if !ok {
			return errs.New(errs.ShapeMismatch, "%s: input %q was not given", x.p.label, x.p.values[x.p.inputs[i]].name)
		}
	}
	x.loadCarries()
	for si = range x.p.steps {
		if x.done != nil {
			select {
			case <-x.done:
				return x.stopped(si)
			default:
			}
		}
		if x.prof == nil {
			if err := x.step(si); err != nil {
				return err
			}
			continue
		}
		t0 := time.Now()
		err := x.step(si)
		x.prof.record(x, si, t0, time.Since(t0))
		if err != nil {
			return err
		}
	}
	if x.prof != nil {
		x.prof.calls++
	}
	x.storeCarries()
	for i := range x.bound {
		x.bound[i] = false
	}
	return nil
}

// step sizes step si's outputs and runs its kernel.
func (x *exec) step(si int) error {
	st := &x.p.steps[si]
	ins, outs := x.ins[si], x.outs[si]
	if st.w != nil {
		st.w.watch(x.done, x.ctx)
	}
	if err := x.shapers[si].shapes(ins, outs); err != nil {
		return err
	}
	for j, o := range outs {
		n := o.numel()
		if n < 0 {
			return shapeErr(st.n, "output %d has invalid shape %v", j, o.shape)
		}
		if n > x.maxBytes/max(o.dt.Size(), 1) {
			return errs.New(errs.ResourceUnavailable, "%s: node %q (%s): output %d of shape %v needs more than the %d-byte limit (compute.Options.MaxTensorBytes)", x.p.label, st.n.Label(), st.n.OpType, j, o.shape, x.maxBytes)
		}
		if o.dt == payload.String {
			// String outputs have no fixed size: the kernel points
			// o.data at the encoding it builds (see strOut); a view
			// shares all of its input's bytes.
			if j == 0 && st.aliasOf >= 0 {
				o.data = ins[st.aliasOf].data
			}
			continue
		}
		need := n * o.dt.Size()
		if j == 0 && st.aliasOf >= 0 {
			src := ins[st.aliasOf]
			if len(src.data) < need {
				return shapeErr(st.n, "output shape %v needs %d bytes, input has %d", o.shape, need, len(src.data))
			}
			o.data = src.data[:need]
			continue
		}
		v := st.out[j]
		if v >= 0 && x.p.values[v].carry >= 0 {
			if err := x.carryOut(x.p.values[v].carry, need, o); err != nil {
				return err
			}
			continue
		}
		if v < 0 {
			if cap(o.data) < need {
				o.data = alignedBytes(need)
			}
			o.data = o.data[:need]
			continue
		}
		if i := x.directAt[v]; i >= 0 && len(x.direct[i]) >= need && need > 0 {
			o.data = x.direct[i][:need]
			continue
		}
		s := x.p.values[v].slot
		if cap(x.slots[s]) < need {
			x.slots[s] = alignedBytes(need)
		}
		o.data = x.slots[s][:need]
	}
	if st.aliasOf >= 0 && len(outs) == 1 {
		return nil
	}
	return st.k.run(ins, outs)
}

// stopped returns the error of a call whose context ended before step si.
func (x *exec) stopped(si int) error {
	for i := range x.bound {
		x.bound[i] = false
	}
	n := x.p.steps[si].n
	return errs.Wrap(errs.ExecutionFailed, x.ctx.Err(), "%s: stopped before node %q (%s), %d of %d nodes run", x.p.label, n.Label(), n.OpType, si, len(x.p.steps))
}

// output returns graph output i after a run.
func (x *exec) output(i int) *tensor { return &x.vals[x.p.outputs[i]] }

// release drops the buffers and views held.
func (x *exec) release() {
	for i := range x.slots {
		x.slots[i] = nil
	}
	for i := range x.vals {
		x.vals[i].data = nil
		x.vals[i].items = nil
	}
}

// panicErr describes a kernel panic as an ErrExecutionFailed error.
func (x *exec) panicErr(si int, r any) error {
	for i := range x.bound {
		x.bound[i] = false
	}
	if si < 0 || si >= len(x.p.steps) {
		return errs.New(errs.ExecutionFailed, "%s: internal error: %v", x.p.label, r)
	}
	n := x.p.steps[si].n
	return errs.New(errs.ExecutionFailed, "%s: node %q (%s): internal error: %v", x.p.label, n.Label(), n.OpType, r)
}
