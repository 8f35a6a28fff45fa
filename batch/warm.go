package batch

import "github.com/lintel-ml/lintel/internal/errs"

// Warm runs every model on batches of every size from 1 to MaxBatch made
// of copies of sample, so that the first batches served run as fast as
// later ones. Call it after NewBatcher and before serving: it fails with
// compute.ErrResourceUnavailable once a request has been accepted, and
// Infer calls made while it runs wait for it.
func (b *Batcher[In, Out, M]) Warm(sample *In) error {
	if sample == nil {
		return errs.New(errs.ShapeMismatch, "batch: Warm with a nil sample")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	if b.started.Load() {
		return errs.New(errs.ResourceUnavailable, "batch: Warm after requests were accepted; call it before serving")
	}
	ins := make([]In, b.opts.MaxBatch)
	outs := make([]Out, b.opts.MaxBatch)
	for i := range ins {
		ins[i] = *sample
	}
	for _, m := range b.models {
		for n := 1; n <= b.opts.MaxBatch; n++ {
			if err := m.InferBatch(Of(ins[:n]), outs[:n]); err != nil {
				return err
			}
		}
	}
	return nil
}
