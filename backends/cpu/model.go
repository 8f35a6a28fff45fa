package cpu

import (
	"context"
	"sync/atomic"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
)

// model states.
const (
	stateLoaded = iota
	stateReady
	stateClosed
)

// Model is a model compiled for the CPU. It is not safe for concurrent
// use: a call made while another is running on the same model returns an
// error wrapping compute.ErrResourceUnavailable.
type Model[In, Out any] struct {
	prog  *program
	label string
	x     *exec
	state int
	meta  compute.ModelMetadata
	busy  atomic.Bool // held by the running call (guard.go)

	view  inView[In]
	write outWriter[Out]
	// outBytes returns the bytes a call's output payload already holds
	// (direct.go), nil for payload.Multi.
	outBytes func(out *Out) []byte
}

// Init prepares the model's run-time state. Calling it again is a no-op.
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
	m.x = newExec(m.prog)
	m.state = stateReady
	return nil
}

func (m *Model[In, Out]) ready() error {
	if m == nil {
		return errs.New(errs.NotInitialized, "cpu: nil model")
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
// shape and growing its data only when too small.
func (m *Model[In, Out]) InferOne(in *In, out *Out) error {
	return m.InferOneContext(context.Background(), in, out)
}

// InferOneContext is InferOne bounded by ctx: when ctx ends, the call
// stops before the next node and returns an error that matches
// compute.ErrExecutionFailed and ctx.Err() (context.Canceled or
// context.DeadlineExceeded). A node already running finishes first. With
// a context that never ends it costs what InferOne costs.
func (m *Model[In, Out]) InferOneContext(ctx context.Context, in *In, out *Out) error {
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
	if err := m.watch(ctx); err != nil {
		return err
	}
	defer m.unwatch()
	if err := m.bind(in); err != nil {
		return err
	}
	if err := m.runInto(out); err != nil {
		return err
	}
	m.write(m.x, out, 0, 1)
	return nil
}

// InferBatch runs the model on every item of in; out[i] gets exactly what
// InferOne(in.At(i), &out[i]) gives.
func (m *Model[In, Out]) InferBatch(in batch.Batch[In], out []Out) error {
	return m.InferBatchContext(context.Background(), in, out)
}

// InferBatchContext is InferBatch bounded by ctx, as InferOneContext is.
// Items finished before ctx ended keep their outputs.
func (m *Model[In, Out]) InferBatchContext(ctx context.Context, in batch.Batch[In], out []Out) error {
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
	if len(m.prog.carries) > 0 {
		return errs.New(errs.Unsupported, "%s: InferBatch on a model with carried values (compute.Options.Carries), which hold one sequence: call InferOne", m.label)
	}
	if err := m.watch(ctx); err != nil {
		return err
	}
	defer m.unwatch()
	if in.Len() > 1 && m.prog.stackable {
		ok, err := m.inferStacked(in, out)
		if ok || err != nil {
			return err
		}
	}
	for i := 0; i < in.Len(); i++ {
		if err := m.bind(in.At(i)); err != nil {
			return err
		}
		if err := m.runInto(&out[i]); err != nil {
			return err
		}
		m.write(m.x, &out[i], 0, 1)
	}
	return nil
}

// watch makes the running call stop between nodes when ctx ends, and
// refuses to start when it has ended already.
func (m *Model[In, Out]) watch(ctx context.Context) error {
	done := ctx.Done()
	if done == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return errs.Wrap(errs.ExecutionFailed, err, "%s: not started", m.label)
	}
	m.x.done, m.x.ctx = done, ctx
	return nil
}

// unwatch forgets the call's context.
func (m *Model[In, Out]) unwatch() { m.x.done, m.x.ctx = nil, nil }

// Drain returns at once: CPU inference is synchronous.
func (m *Model[In, Out]) Drain() error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	return m.ready()
}

// Reset drops the buffers grown for past shapes; the next call plans them
// again.
func (m *Model[In, Out]) Reset() error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if err := m.ready(); err != nil {
		return err
	}
	m.x = newExec(m.prog)
	return nil
}

// ResetCarries starts a new sequence: every carried value
// (compute.Options.Carries) goes back to zeros of its input's declared
// shape, its free dims 0. The buffers are kept.
func (m *Model[In, Out]) ResetCarries() error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if err := m.ready(); err != nil {
		return err
	}
	m.x.resetCarries()
	return nil
}

// Metadata describes the model's inputs and outputs.
func (m *Model[In, Out]) Metadata() compute.ModelMetadata {
	if m == nil {
		return compute.ModelMetadata{}
	}
	return m.meta
}

// Close releases the model's buffers. Later calls return
// compute.ErrClosed; closing twice is not an error. Closing while a call
// runs on another goroutine fails with compute.ErrResourceUnavailable and
// leaves the model open.
func (m *Model[In, Out]) Close() error {
	if m == nil {
		return nil
	}
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if m.x != nil {
		m.x.release()
		m.x = nil
	}
	if m.state != stateClosed && m.prog != nil {
		m.prog.pool.close()
	}
	m.state = stateClosed
	return nil
}

var _ compute.ContextModel[int, int] = (*Model[int, int])(nil)
