package gpu

import "github.com/lintel-ml/lintel/internal/errs"

// enter claims m for one call. A Model is not safe for concurrent use; a
// second goroutine that calls in while another call runs gets an error
// wrapping compute.ErrResourceUnavailable instead of corrupting the
// arena, the staging memory or a recorded pass. The check is one atomic
// compare-and-swap: it catches overlapping calls, not every
// unsynchronised use (the race detector does).
func (m *Model[In, Out]) enter() error {
	if m == nil {
		return errs.New(errs.NotInitialized, "gpu: nil model")
	}
	if !m.busy.CompareAndSwap(false, true) {
		return errs.New(errs.ResourceUnavailable, "%s: model called from two goroutines at once (a model is not safe for concurrent use)", m.label)
	}
	return nil
}

// leave releases the claim enter took.
func (m *Model[In, Out]) leave() { m.busy.Store(false) }
