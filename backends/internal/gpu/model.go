package gpu

import (
	"context"
	"sync/atomic"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// model states.
const (
	stateLoaded = iota
	stateReady
	stateClosed
)

// maxPlans is how many input-shape specialisations a model keeps.
const maxPlans = 8

// Model is a model compiled for a GPU: the graph, the plans built for the
// input shapes seen so far, their constants on the device and the arena
// the calls run in. In and Out are the payload types it takes and gives.
// It is not safe for concurrent use.
type Model[In, Out any] struct {
	cfg      *Config
	g        *model.Graph
	label    string
	dev      Device
	state    int
	meta     compute.ModelMetadata
	maxBytes int
	// half is the 16-bit weights of a model that stores them so, nil
	// otherwise.
	half *halfWeights

	view     inView[In]
	write    outWriter[Out]
	outPlace outView[Out]

	plans  []*plan
	consts map[*model.Tensor]BufID
	// retired are plans evicted during a call; their constants are
	// released at the start of the next call, once nothing can use them.
	retired []*plan
	x       exec
	// busy is held for the length of every call (guard.go).
	busy atomic.Bool
}

// Init prepares the model's run-time state: for a model whose input shapes
// are all fixed, it uploads the constants and sizes the arena now. Calling
// it again is a no-op.
func (m *Model[In, Out]) Init() error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	switch m.state {
	case stateClosed:
		return errs.New(errs.Closed, "%s: Init after Close", m.label)
	case stateReady:
		return nil
	}
	m.consts = map[*model.Tensor]BufID{}
	m.x.init(m.dev, len(m.g.Inputs), len(m.g.Outputs))
	for _, p := range m.plans {
		if err := m.adopt(p); err != nil {
			return err
		}
		if err := m.x.growArena(p.arenaSize); err != nil {
			return err
		}
	}
	m.state = stateReady
	return nil
}

func (m *Model[In, Out]) ready() error {
	if m == nil {
		return errs.New(errs.NotInitialized, "gpu: nil model")
	}
	switch m.state {
	case stateReady:
		return nil
	case stateClosed:
		return errs.New(errs.Closed, "%s: model is closed", m.label)
	}
	return errs.New(errs.NotInitialized, "%s: call Init before inference", m.label)
}

// InferOne runs the model on in and writes the result to out, setting its
// shape and growing its data only when too small. The whole forward pass
// is one submission (or one replay of a recorded pass), waited on once.
// On a Recorder, payloads in the device's memory (Place memclass.Device)
// move device to device: an input is read at its address, an output
// payload in device memory, which must hold enough elements, receives its
// bytes in place.
func (m *Model[In, Out]) InferOne(in *In, out *Out) error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if err := m.ready(); err != nil {
		return err
	}
	if in == nil || out == nil {
		return errs.New(errs.ShapeMismatch, "%s: nil payload", m.label)
	}
	m.dropRetired()
	if err := m.stage(0, in); err != nil {
		return err
	}
	if err := m.place(0, out); err != nil {
		return err
	}
	if err := m.x.run(1); err != nil {
		m.x.unwrap(1)
		return m.failed(err)
	}
	m.write(&m.x, out, 0)
	m.x.unwrap(1)
	return nil
}

// InferBatch runs the model on every item of in; out[i] gets exactly what
// InferOne(in.At(i), &out[i]) gives. Every item's forward pass is encoded
// into one submission, each in its own part of the arena, with a
// single wait for all of them.
func (m *Model[In, Out]) InferBatch(in batch.Batch[In], out []Out) error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if err := m.ready(); err != nil {
		return err
	}
	if len(out) != in.Len() {
		return errs.New(errs.ShapeMismatch, "%s: batch of %d inputs but %d outputs", m.label, in.Len(), len(out))
	}
	n := in.Len()
	if n == 0 {
		return nil
	}
	m.dropRetired()
	m.x.items(n)
	for i := range n {
		if err := m.stage(i, in.At(i)); err != nil {
			return err
		}
		if err := m.place(i, &out[i]); err != nil {
			return err
		}
	}
	if err := m.x.run(n); err != nil {
		m.x.unwrap(n)
		return m.failed(err)
	}
	for i := range n {
		m.write(&m.x, &out[i], i)
	}
	m.x.unwrap(n)
	return nil
}

// failed wraps a device error with the model's label.
func (m *Model[In, Out]) failed(err error) error {
	return errs.Wrap(errs.ExecutionFailed, err, "%s: %s", m.label, m.cfg.Name)
}

// stage binds item i's inputs: it picks (or builds) the plan for their
// shapes, places the item in the arena and binds or copies each input.
func (m *Model[In, Out]) stage(i int, in *In) error {
	x := &m.x
	it := &x.its[i]
	for j := range m.g.Inputs {
		dt, shape, data, place, err := m.view(m, in, j)
		if err != nil {
			return err
		}
		want := &m.g.Inputs[j]
		if dt != want.DType {
			return errs.New(errs.TypeMismatch, "%s: input %q is %s, the payload holds %s", m.label, want.Name, want.DType, dt)
		}
		if want.RankKnown {
			if len(shape) != len(want.Shape) {
				return errs.New(errs.ShapeMismatch, "%s: input %q has rank %d, the model takes %v", m.label, want.Name, len(shape), want.Shape)
			}
			for k, d := range want.Shape {
				if d >= 0 && shape[k] != d {
					return errs.New(errs.ShapeMismatch, "%s: input %q has shape %v, the model takes %v", m.label, want.Name, shape, want.Shape)
				}
			}
		}
		n := 1
		for _, d := range shape {
			if d < 0 {
				return errs.New(errs.ShapeMismatch, "%s: input %q has shape %v", m.label, want.Name, shape)
			}
			n *= d
		}
		if n*dt.Size() != len(data) {
			return errs.New(errs.ShapeMismatch, "%s: input %q of shape %v needs %d bytes, the payload holds %d", m.label, want.Name, shape, n*dt.Size(), len(data))
		}
		it.shapes[j] = shape
		it.data[j] = data
		it.place[j] = place
		it.devAddr[j] = 0
		if !place.HostVisible() && len(data) > 0 {
			a, err := m.deviceAddr(data, "input", want.Name, place)
			if err != nil {
				return err
			}
			it.devAddr[j] = a
		}
	}
	p, err := m.planFor(it.shapes)
	if err != nil {
		return err
	}
	it.p = p
	return nil
}

// planFor returns the plan for the input shapes, building it on first
// use.
func (m *Model[In, Out]) planFor(shapes [][]int) (*plan, error) {
	for k, p := range m.plans {
		if sameShapes(p.inShapes, shapes) {
			if k > 0 {
				// Keep the most recent first.
				copy(m.plans[1:k+1], m.plans[:k])
				m.plans[0] = p
			}
			return p, nil
		}
	}
	p, err := buildPlan(m.cfg, m.g, shapes, m.label, m.maxBytes, m.half)
	if err != nil {
		return nil, err
	}
	if err := m.adopt(p); err != nil {
		return nil, err
	}
	if len(m.plans) == maxPlans {
		m.retired = append(m.retired, m.plans[maxPlans-1])
		m.plans = m.plans[:maxPlans-1]
	}
	m.plans = append([]*plan{p}, m.plans...)
	return p, nil
}

func sameShapes(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameShape(a[i], b[i]) {
			return false
		}
	}
	return true
}

// adopt uploads the plan's constants that are not on the device yet.
// Constants are shared by every plan that reads them; bytes whose start
// and length suit the device are used in place.
func (m *Model[In, Out]) adopt(p *plan) error {
	p.constBufs = make([]BufID, len(p.consts))
	for i, t := range p.consts {
		b, ok := m.consts[t]
		if !ok {
			var err error
			if b, err = uploadConst(m.dev, t.Raw); err != nil {
				return err
			}
			m.consts[t] = b
		}
		p.constBufs[i] = b
	}
	return nil
}

// dropRetired releases the constants that only evicted plans used. A
// plan evicted and rebuilt in the same call is in m.plans again with its
// own constants, which are distinct tensors.
func (m *Model[In, Out]) dropRetired() {
	for _, p := range m.retired {
		m.x.forget(p)
		m.drop(p)
	}
	clear(m.retired)
	m.retired = m.retired[:0]
}

// drop releases the constants only an evicted plan used.
func (m *Model[In, Out]) drop(p *plan) {
	for _, t := range p.consts {
		if t == nil || m.g.Initializers[t.Name] == t || m.half.owns(t) {
			continue
		}
		if b, ok := m.consts[t]; ok {
			m.dev.Release(b)
			delete(m.consts, t)
		}
	}
}

// uploadConst returns a device buffer holding raw: raw itself when the
// device can wrap it, else a copy, written in place when the host sees the
// buffer and uploaded when it does not.
func uploadConst(dev Device, raw []byte) (BufID, error) {
	if b, ok := dev.Wrap(raw); ok {
		return b, nil
	}
	b, mem, err := dev.Alloc(max(len(raw), 4))
	if err != nil {
		return 0, err
	}
	if mem != nil {
		copy(mem, raw)
		return b, nil
	}
	if len(raw) > 0 {
		if err := dev.Upload(Binding{Buf: b}, raw); err != nil {
			dev.Release(b)
			return 0, err
		}
	}
	return b, nil
}

// Drain returns at once: every call waits for its submission.
func (m *Model[In, Out]) Drain() error { return m.ready() }

// Reset drops the plans and buffers grown for past shapes; the next call
// plans again.
func (m *Model[In, Out]) Reset() error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if err := m.ready(); err != nil {
		return err
	}
	m.releaseAll()
	m.plans = nil
	m.consts = map[*model.Tensor]BufID{}
	m.x.init(m.dev, len(m.g.Inputs), len(m.g.Outputs))
	return nil
}

func (m *Model[In, Out]) releaseAll() {
	for _, b := range m.consts {
		m.dev.Release(b)
	}
	m.consts = nil
	m.x.release()
}

// Metadata describes the model's inputs and outputs.
func (m *Model[In, Out]) Metadata() compute.ModelMetadata {
	if m == nil {
		return compute.ModelMetadata{}
	}
	return m.meta
}

// Close releases the model's buffers, pipelines and queue. Later calls
// return compute.ErrClosed; closing twice is not an error.
func (m *Model[In, Out]) Close() error {
	if m == nil || m.state == stateClosed {
		return nil
	}
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if m.dev != nil {
		m.releaseAll()
		m.dev.Close()
		m.dev = nil
	}
	m.state = stateClosed
	return nil
}

// InferOneContext is InferOne that does not start once ctx has ended. A
// GPU call runs as one submission that cannot stop midway, so a context
// that ends while it runs lets it finish.
func (m *Model[In, Out]) InferOneContext(ctx context.Context, in *In, out *Out) error {
	if err := ctx.Err(); err != nil {
		return errs.Wrap(errs.ExecutionFailed, err, "%s: not started", m.label)
	}
	return m.InferOne(in, out)
}

// InferBatchContext is InferBatch that does not start once ctx has ended,
// as InferOneContext.
func (m *Model[In, Out]) InferBatchContext(ctx context.Context, in batch.Batch[In], out []Out) error {
	if err := ctx.Err(); err != nil {
		return errs.Wrap(errs.ExecutionFailed, err, "%s: not started", m.label)
	}
	return m.InferBatch(in, out)
}

var _ compute.ContextModel[int, int] = (*Model[int, int])(nil)
