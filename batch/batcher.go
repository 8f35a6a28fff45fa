package batch

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Model is what a batcher drives; every compute.ComputeModel satisfies it.
type Model[In, Out any] interface {
	InferBatch(Batch[In], []Out) error
}

// Batcher serves concurrent Infer calls by collecting them into batches
// run by a few model instances. It is safe for concurrent use.
//
// One worker goroutine drives each model instance. A worker takes the
// oldest waiting request, adds every other request already waiting (up to
// MaxBatch) and runs them with one InferBatch call. When it holds more
// than one request, the batch is not full and no other worker is idle, it
// first waits up to MaxDelay from the oldest request's arrival for more to
// join. A lone request therefore runs at once.
//
// The Batcher does not own its models: Close stops the workers, and the
// caller closes the models afterwards.
type Batcher[In, Out any, M Model[In, Out]] struct {
	models []M
	opts   Options
	queue  chan *request[In, Out]

	// mu orders sends on queue against Close, which closes it.
	mu     sync.RWMutex
	closed bool
	// started is set, under mu's read lock, before the first request is
	// queued; Warm refuses to run after it.
	started atomic.Bool

	workers sync.WaitGroup
	// idle counts the workers not holding a batch.
	idle  atomic.Int32
	pool  sync.Pool
	stats counters
}

// NewBatcher starts one worker per model in models and returns the
// batcher that feeds them. The models must be ready to run (Init called)
// and used by nothing else until Close returns.
func NewBatcher[In, Out any, M Model[In, Out]](models []M, opts Options) (*Batcher[In, Out, M], error) {
	if len(models) == 0 {
		return nil, errs.New(errs.Unsupported, "batch: NewBatcher needs at least one model")
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &Batcher[In, Out, M]{
		models: append([]M(nil), models...),
		opts:   opts,
		queue:  make(chan *request[In, Out], opts.QueueSize),
	}
	b.pool.New = newRequest[In, Out]
	b.stats.sizes = make([]atomic.Uint64, opts.MaxBatch+1)
	b.idle.Store(int32(len(models)))
	for _, m := range b.models {
		w := newWorker(b, m)
		b.workers.Go(w.loop)
	}
	return b, nil
}

// Infer runs the model on in and writes the result to out, batched with
// other concurrent calls. out gets exactly what the model's
// InferBatch gives this input, reusing out's buffers as InferOne does; the
// batcher reads in and writes out only while Infer runs.
//
// It returns ErrOverloaded at once when QueueSize requests are already
// waiting, and ErrClosed after Close. A call whose context ends before its
// batch starts returns ctx.Err() and is left out of the batch; one whose
// batch has started waits for it and returns its result. A nil ctx means
// context.Background().
func (b *Batcher[In, Out, M]) Infer(ctx context.Context, in *In, out *Out) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if in == nil || out == nil {
		return errs.New(errs.ShapeMismatch, "batch: Infer with a nil payload")
	}
	r := b.getRequest(in, out)
	r.accepted = time.Now()
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		b.putRequest(r)
		return ErrClosed
	}
	if !b.started.Load() {
		b.started.Store(true)
	}
	select {
	case b.queue <- r:
		b.mu.RUnlock()
	default:
		b.mu.RUnlock()
		b.putRequest(r)
		b.stats.rejected.Add(1)
		return ErrOverloaded
	}
	b.stats.requests.Add(1)
	select {
	case <-r.done:
	case <-ctx.Done():
		if r.state.CompareAndSwap(stateQueued, stateCanceled) {
			// The worker that dequeues r drops it and recycles it.
			return ctx.Err()
		}
		// A worker holds r: its batch runs with out as its output, so
		// wait rather than let the caller reuse out meanwhile.
		<-r.done
	}
	err := r.err
	b.putRequest(r)
	return err
}

// Close refuses new requests with ErrClosed, finishes every request
// already accepted, stops the workers and returns. It does not close the
// models. Calling it again waits the same way and returns nil.
func (b *Batcher[In, Out, M]) Close() error {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.queue)
	}
	b.mu.Unlock()
	b.workers.Wait()
	return nil
}

// Stats returns the batcher's counters so far.
func (b *Batcher[In, Out, M]) Stats() Stats { return b.stats.snapshot() }
