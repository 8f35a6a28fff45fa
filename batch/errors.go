package batch

import "github.com/lintel-ml/lintel/internal/errs"

// The errors a Batcher returns on its own; the model's errors pass
// through unchanged.
var (
	// ErrClosed: the batcher was closed before the request was accepted.
	// It also matches compute.ErrClosed.
	ErrClosed error = &errs.Error{Kind: errs.Closed, Msg: "batch: the batcher is closed"}
	// ErrOverloaded: the queue was full; the request was not run. It also
	// matches compute.ErrResourceUnavailable.
	ErrOverloaded error = &errs.Error{Kind: errs.ResourceUnavailable, Msg: "batch: the queue is full"}
)
