package batch

import (
	"sync/atomic"
	"time"
)

// request states: a caller and a worker race to move a queued request on;
// the CompareAndSwap that wins decides whether it runs.
const (
	stateQueued   = iota
	stateTaken    // a worker put it in a batch: it will run
	stateCanceled // its caller left: workers drop it
)

// request is one Infer call in flight. Requests are pooled: after the
// first calls, Infer allocates none.
type request[In, Out any] struct {
	in    *In
	out   *Out
	state atomic.Int32
	// accepted is when the request entered the queue.
	accepted time.Time
	// err is the result, written by the worker before it signals done.
	err error
	// done receives one value when the request has run; it is buffered so
	// the worker never blocks on it.
	done chan struct{}
}

func newRequest[In, Out any]() any {
	return &request[In, Out]{done: make(chan struct{}, 1)}
}

// getRequest takes a request from the pool, set up for in and out.
func (b *Batcher[In, Out, M]) getRequest(in *In, out *Out) *request[In, Out] {
	r := b.pool.Get().(*request[In, Out])
	r.in, r.out, r.err = in, out, nil
	r.state.Store(stateQueued)
	return r
}

// putRequest returns r to the pool. Nobody may hold r afterwards.
func (b *Batcher[In, Out, M]) putRequest(r *request[In, Out]) {
	r.in, r.out, r.err = nil, nil, nil
	b.pool.Put(r)
}
