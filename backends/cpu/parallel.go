package cpu

import "sync/atomic"

// rangeRunner is work over items [0, n) that any split into ranges
// computes the same way: each item's result depends only on the item,
// never on which range holds it, so splitting keeps every bit.
type rangeRunner interface {
	// runRange computes items [lo, hi) as part part of the split (0 on
	// the caller), which picks the part's own scratch.
	runRange(part, lo, hi int)
}

// parMinWork is the least work, in parFor's cost units, worth handing
// to a helper. A unit is about one float32 element read and written by a
// simple loop. Below it a part costs less than the hand-off and the
// cache traffic of splitting: BenchmarkParFor (a loop of y = x·a + b,
// two threads on Zen 4) breaks even between 4k and 8k elements while
// the helper polls, and a parked helper takes longer to wake.
const parMinWork = 1 << 13

// parSplits counts the calls parFor split, so that tests can check
// that a case they mean to split did.
var parSplits atomic.Int64

// parFor splits a rangeRunner's items across a worker pool. A kernel
// keeps one as a field, so that a split call allocates nothing: the pool
// sees the parFor as its task, and each part runs one contiguous range.
type parFor struct {
	r        rangeRunner
	n, parts int
}

// parParts returns how many parts n items of work cost units each are
// worth splitting into on pool: at most the pool's size and n, and one
// unless each part gets at least parMinWork units.
func parParts(pool *workerPool, n, work int) int {
	if pool == nil || n <= 1 {
		return 1
	}
	least := parMinWork
	if parWakeCheck && pool.anyParked() {
		least = parWakeWork
	}
	return splitParts(pool.size(), n, work, least)
}

// splitParts returns how many parts, at most size and n, n items of
// work units each split into when each part needs least units.
func splitParts(size, n, work, least int) int {
	per := max(1, least/max(work, 1)) // the fewest items worth a part
	return max(1, min(size, n/per))
}

// parWakeCheck makes parParts ask for parWakeWork when a helper has
// parked. Tests that want a split to depend on the work alone clear it
// before any test runs.
var parWakeCheck = true

// parWakeWork is parMinWork when a helper has parked: waking it costs
// a goroutine wake-up on another processor, several microseconds, where
// a polling helper picks a part up within one.
const parWakeWork = 8 * parMinWork

// anyParked reports whether a helper of p has stopped polling and
// parked (a hint: it may wake or park meanwhile).
func (p *workerPool) anyParked() bool {
	for i := range p.helpers {
		if p.helpers[i].parked.Load() {
			return true
		}
	}
	return false
}

// run computes r's items [0, n), each costing about work units, split
// across pool (nil: on the caller) when the work is worth it. Item
// ranges are contiguous and in order: part i gets [i·n/parts,
// (i+1)·n/parts).
func (p *parFor) run(pool *workerPool, r rangeRunner, n, work int) {
	if n <= 0 {
		return
	}
	parts := parParts(pool, n, work)
	if parts == 1 {
		r.runRange(0, 0, n)
		return
	}
	p.r, p.n, p.parts = r, n, parts
	parSplits.Add(1)
	pool.run(p, parts)
	p.r = nil
}

// runPart runs part's range of the current call.
func (p *parFor) runPart(part int) {
	p.r.runRange(part, part*p.n/p.parts, (part+1)*p.n/p.parts)
}

// pool returns the model's worker pool: nil for one thread, and where
// the context has no SGEMM context (checks and constant folding, which
// run on one thread and should not make one).
func (c *buildCtx) pool() *workerPool {
	if c.gemm == nil {
		return nil
	}
	return c.gemm.pool
}
