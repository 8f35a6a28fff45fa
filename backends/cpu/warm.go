package cpu

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// Warm runs the model once on zeros at each set of input shapes given
// (one shape per model input, in the model's input order), so that the
// buffers, packed scratch and shape records of those shapes are made
// before the first real call: that call then runs as fast as later ones
// and allocates nothing. A set whose first dims are n times an item's
// warms the stacked InferBatch of n such items.
//
// A model whose shapes depend on its inputs' values (a graph input read
// as a shape or an index bound) may refuse zeros; warm it with InferOne
// on a real input instead.
//
// With carried values (compute.Options.Carries) a set may also give the
// carried inputs' shapes, after the others, in the order of the
// carries; they are zeros for that run. Warm leaves every carried value
// at its first state, as ResetCarries does.
func (m *Model[In, Out]) Warm(shapes ...[][]int) error {
	if err := m.enter(); err != nil {
		return err
	}
	defer m.leave()
	if err := m.ready(); err != nil {
		return err
	}
	x := m.x
	defer x.resetCarries()
	for _, set := range shapes {
		ni, nc := len(m.prog.inputs), len(m.prog.carries)
		if len(set) != ni && (nc == 0 || len(set) != ni+nc) {
			return errs.New(errs.ShapeMismatch, "%s: Warm: %d shapes for %d inputs", m.label, len(set), ni)
		}
		if err := x.warmCarries(set[ni:]); err != nil {
			return err
		}
		for j, shape := range set[:ni] {
			dt := m.prog.values[m.prog.inputs[j]].dt
			n := payload.NumElems(shape)
			if n < 0 || n > x.maxBytes/max(dt.Size(), 1) {
				return errs.New(errs.ShapeMismatch, "%s: Warm: input %d has invalid shape %v", m.label, j, shape)
			}
			// The zeros become the stage a stacked InferBatch copies its
			// items into, so that stage is grown too.
			if cap(x.stage[j]) < n*dt.Size() {
				x.stage[j] = alignedBytes(n * dt.Size())
			}
			clear(x.stage[j][:n*dt.Size()])
			if cap(x.stageShape[j]) < len(shape) {
				x.stageShape[j] = make([]int, 0, len(shape))
			}
			if err := x.setInput(j, dt, shape, x.stage[j][:n*dt.Size()]); err != nil {
				return err
			}
		}
		if err := x.run(); err != nil {
			return err
		}
	}
	return nil
}
