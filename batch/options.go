package batch

import (
	"time"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Options configure a Batcher. The zero value is valid: it picks the
// defaults below.
type Options struct {
	// MaxBatch is the largest batch handed to one InferBatch call; 0 means
	// DefaultMaxBatch.
	MaxBatch int
	// MaxDelay is the longest a request waits for others to join its
	// batch. A worker waits only when it already holds more than one
	// request (others are arriving), no other worker is idle, and the
	// batch is not full; a lone request runs at once. 0 never waits.
	MaxDelay time.Duration
	// QueueSize is how many accepted requests may wait for a worker;
	// requests beyond it are refused with ErrOverloaded. 0 means
	// DefaultQueueSize.
	QueueSize int
}

// The defaults a zero Options field picks.
const (
	DefaultMaxBatch  = 32
	DefaultQueueSize = 1024
)

// withDefaults checks o and fills in the defaults.
func (o Options) withDefaults() (Options, error) {
	switch {
	case o.MaxBatch < 0:
		return o, errs.New(errs.Unsupported, "batch: Options.MaxBatch %d is negative", o.MaxBatch)
	case o.MaxDelay < 0:
		return o, errs.New(errs.Unsupported, "batch: Options.MaxDelay %v is negative", o.MaxDelay)
	case o.QueueSize < 0:
		return o, errs.New(errs.Unsupported, "batch: Options.QueueSize %d is negative", o.QueueSize)
	}
	if o.MaxBatch == 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.QueueSize == 0 {
		o.QueueSize = DefaultQueueSize
	}
	return o, nil
}
