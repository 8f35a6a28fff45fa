package batch

import (
	"sync/atomic"
	"time"
)

// Stats counts what a Batcher has done since it was made.
type Stats struct {
	// Requests is how many requests were accepted into the queue.
	Requests uint64
	// Rejected is how many were refused with ErrOverloaded; refusals
	// after Close are not counted.
	Rejected uint64
	// Canceled is how many accepted requests left before their batch
	// started, because their context ended.
	Canceled uint64
	// Failed is how many requests ran and got an error from the model.
	Failed uint64
	// Batches is how many InferBatch calls ran, not counting the item by
	// item retries of a batch that failed.
	Batches uint64
	// BatchSizes[n] is how many batches held n requests; its length is
	// MaxBatch+1.
	BatchSizes []uint64
	// QueueWait is the total time requests spent between being accepted
	// and their batch starting; MaxQueueWait is the longest.
	QueueWait, MaxQueueWait time.Duration
	// RunTime is the total time spent in InferBatch; MaxRunTime is the
	// longest single call.
	RunTime, MaxRunTime time.Duration
}

// MeanBatch is the mean number of requests per batch, 0 before the first.
func (s Stats) MeanBatch() float64 {
	var items uint64
	for n, c := range s.BatchSizes {
		items += uint64(n) * c
	}
	if s.Batches == 0 {
		return 0
	}
	return float64(items) / float64(s.Batches)
}

// counters are the Batcher's live statistics. Workers update them once per
// batch; only requests and rejected are touched per request.
type counters struct {
	requests, rejected, canceled, failed, batches atomic.Uint64
	sizes                                         []atomic.Uint64
	wait, maxWait, run, maxRun                    atomic.Int64
}

// storeMax raises m to v if v is larger.
func storeMax(m *atomic.Int64, v int64) {
	for {
		old := m.Load()
		if v <= old || m.CompareAndSwap(old, v) {
			return
		}
	}
}

// snapshot copies the counters into a Stats.
func (c *counters) snapshot() Stats {
	s := Stats{
		Requests:     c.requests.Load(),
		Rejected:     c.rejected.Load(),
		Canceled:     c.canceled.Load(),
		Failed:       c.failed.Load(),
		Batches:      c.batches.Load(),
		BatchSizes:   make([]uint64, len(c.sizes)),
		QueueWait:    time.Duration(c.wait.Load()),
		MaxQueueWait: time.Duration(c.maxWait.Load()),
		RunTime:      time.Duration(c.run.Load()),
		MaxRunTime:   time.Duration(c.maxRun.Load()),
	}
	for i := range c.sizes {
		s.BatchSizes[i] = c.sizes[i].Load()
	}
	return s
}
