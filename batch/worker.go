package batch

import (
	"runtime"
	"time"

	"github.com/lintel-ml/lintel/internal/errs"
)

// worker drives one model: it forms batches from the queue and runs them.
// Its slices are sized MaxBatch once, so a batch allocates nothing.
type worker[In, Out any, M Model[In, Out]] struct {
	b     *Batcher[In, Out, M]
	m     M
	reqs  []*request[In, Out]
	ins   []In
	outs  []Out
	timer *time.Timer
}

func newWorker[In, Out any, M Model[In, Out]](b *Batcher[In, Out, M], m M) *worker[In, Out, M] {
	n := b.opts.MaxBatch
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &worker[In, Out, M]{b: b, m: m, reqs: make([]*request[In, Out], 0, n), ins: make([]In, n), outs: make([]Out, n), timer: t}
}

// loop serves batches until the queue is closed and empty.
func (w *worker[In, Out, M]) loop() {
	for {
		r, ok := <-w.b.queue
		if !ok {
			return
		}
		w.b.idle.Add(-1)
		w.reqs = w.reqs[:0]
		w.take(r)
		w.collect()
		if len(w.reqs) > 0 {
			w.run()
		}
		w.b.idle.Add(1)
		// Yield before the next batch. Waking a caller hands it this
		// thread next, and its next request wakes this worker next in
		// turn: without the yield, one caller and one worker can keep a
		// thread to themselves while the other callers wait to be
		// scheduled, and batches never form.
		runtime.Gosched()
	}
}

// take adds r to the batch unless its caller has left.
func (w *worker[In, Out, M]) take(r *request[In, Out]) {
	if r.state.CompareAndSwap(stateQueued, stateTaken) {
		w.reqs = append(w.reqs, r)
		return
	}
	w.b.stats.canceled.Add(1)
	w.b.putRequest(r)
}

// collect adds the requests already waiting, then, when others are
// arriving and no worker is idle, waits up to MaxDelay from the oldest
// request's arrival for the batch to fill.
func (w *worker[In, Out, M]) collect() {
	limit := w.b.opts.MaxBatch
	for len(w.reqs) < limit {
		select {
		case r, ok := <-w.b.queue:
			if !ok {
				return
			}
			w.take(r)
			continue
		default:
		}
		break
	}
	if len(w.reqs) < 2 || len(w.reqs) >= limit || w.b.opts.MaxDelay <= 0 || w.b.idle.Load() > 0 {
		return
	}
	wait := time.Until(w.reqs[0].accepted.Add(w.b.opts.MaxDelay))
	if wait <= 0 {
		return
	}
	w.timer.Reset(wait)
	defer w.timer.Stop()
	for len(w.reqs) < limit {
		select {
		case r, ok := <-w.b.queue:
			if !ok {
				return
			}
			w.take(r)
		case <-w.timer.C:
			return
		}
	}
}

// run runs the batch, hands every caller its result and clears the
// worker's references to the callers' payloads.
func (w *worker[In, Out, M]) run() {
	n := len(w.reqs)
	start := time.Now()
	var wait, maxWait int64
	for i, r := range w.reqs {
		w.ins[i] = *r.in
		w.outs[i] = *r.out
		d := int64(start.Sub(r.accepted))
		wait += d
		maxWait = max(maxWait, d)
	}
	err := w.call(0, n)
	took := int64(time.Since(start))
	st := &w.b.stats
	st.batches.Add(1)
	st.sizes[n].Add(1)
	st.wait.Add(wait)
	storeMax(&st.maxWait, maxWait)
	st.run.Add(took)
	storeMax(&st.maxRun, took)

	var zi In
	var zo Out
	for i, r := range w.reqs {
		rerr := err
		if err != nil && n > 1 {
			// One bad input must not fail the others: run each alone.
			rerr = w.call(i, i+1)
		}
		if rerr != nil {
			st.failed.Add(1)
		}
		*r.out = w.outs[i]
		r.err = rerr
		w.ins[i], w.outs[i] = zi, zo
		w.reqs[i] = nil
		r.done <- struct{}{}
	}
	w.reqs = w.reqs[:0]
}

// call runs items [lo, hi) of the batch; a model that panics fails the
// call with an ErrExecutionFailed error instead of stopping the worker.
func (w *worker[In, Out, M]) call(lo, hi int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errs.New(errs.ExecutionFailed, "batch: the model panicked: %v", p)
		}
	}()
	return w.m.InferBatch(Of(w.ins[lo:hi]), w.outs[lo:hi])
}
