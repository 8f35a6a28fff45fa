package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// poolTask is work split into parts; part 0 runs on the caller.
type poolTask interface {
	runPart(part int)
}

// poolSpin is how long a helper waits for the next task, and the caller
// for its helpers, by polling before parking. A model's kernels follow
// one another within microseconds, and waking a parked goroutine costs
// several, so a short poll hands work over faster; parking afterwards
// keeps an idle model off the CPU.
const poolSpin = 50 * time.Microsecond

// poolRunSpin is how long a helper polls for the next task while a run
// of the model is in progress (workerPool.begin): the serial steps
// between two split ones may take longer than poolSpin, and a parked
// helper on a virtual machine whose idle vCPU the host has descheduled
// takes far longer than its futex to wake, so that the caller often
// finishes the helper's part itself first. It bounds the polling where a
// step runs long on one thread.
const poolRunSpin = 5 * time.Millisecond

// cacheLine pads per-helper state so that helpers polling their own
// words do not share a cache line.
const cacheLine = 64

// poolHelper is one helper goroutine's mailbox.
type poolHelper struct {
	// seq counts the tasks posted to this helper; the helper runs one
	// each time it changes.
	seq atomic.Uint32
	// epoch is the epoch of the last task posted to this helper, stored
	// before seq changes.
	epoch atomic.Uint32
	// parked is set by the helper before it blocks on wake; the poster
	// that clears it sends on wake.
	parked atomic.Bool
	wake   chan struct{}
	_      [cacheLine]byte
}

// workerPool is a model's persistent helper goroutines: run hands parts
// 1..parts-1 of a task to them and runs part 0 itself. Nothing is started
// or allocated per call. A nil pool is one thread.
//
// Each part is claimed before it runs, by whoever gets to it first: the
// caller, done with part 0, claims and runs the parts whose helpers have
// not started yet, so a helper that is slow to wake (parked, or its
// thread descheduled) delays a task by no more than the parts it has
// started.
type workerPool struct {
	helpers []poolHelper
	task    poolTask
	closed  atomic.Bool
	// epoch numbers the tasks; claims[k] holds the epoch of the last task
	// whose part k was claimed.
	epoch  atomic.Uint32
	claims []poolClaim
	_      [cacheLine]byte
	// pending counts the helper parts of the current task not yet done,
	// in its low bits, and holds poolWaiting while the caller is blocked
	// on done. Both live in one word so that the helper whose part ends
	// last learns, in the same atomic step, whether the caller sleeps: a
	// helper that is slow to finish one task can never wake the caller of
	// the next.
	// running counts the runs in progress (begin, end), while which
	// helpers poll for poolRunSpin rather than poolSpin.
	running atomic.Int32
	pending atomic.Int32
	done    chan struct{}
	// failed holds a helper's panic, re-raised on the caller by run.
	failed any
	mu     sync.Mutex
}

// poolClaim is one part's claim word, alone on its cache line.
type poolClaim struct {
	epoch atomic.Uint32
	_     [cacheLine - 4]byte
}

// claim reports whether the caller takes part k of the task of epoch e,
// which no one else then runs: false when part k of that task or of a
// later one is claimed already (a helper that wakes late for a finished
// task finds its part taken).
func (p *workerPool) claim(k int, e uint32) bool {
	c := &p.claims[k].epoch
	for {
		old := c.Load()
		if int32(old-e) >= 0 {
			return false
		}
		if c.CompareAndSwap(old, e) {
			return true
		}
	}
}

// newWorkerPool starts threads-1 helpers; it returns nil for one thread.
func newWorkerPool(threads int) *workerPool {
	if threads <= 1 {
		return nil
	}
	p := &workerPool{helpers: make([]poolHelper, threads-1), claims: make([]poolClaim, threads), done: make(chan struct{}, 1)}
	for i := range p.helpers {
		p.helpers[i].wake = make(chan struct{}, 1)
		go p.helperLoop(i)
	}
	return p
}

// size is the number of threads, the caller's included.
func (p *workerPool) size() int {
	if p == nil {
		return 1
	}
	return len(p.helpers) + 1
}

// poolWaiting is the bit of workerPool.pending the caller sets before it
// blocks on done.
const poolWaiting = 1 << 30

// run runs parts [0, parts) of t, parts <= size, and waits for all.
// Part k > 0 runs on helper k-1, or on the caller when the helper has
// not claimed it by the time the caller is done with the others.
func (p *workerPool) run(t poolTask, parts int) {
	p.task = t
	e := p.epoch.Add(1)
	p.pending.Store(int32(parts - 1))
	for i := 1; i < parts; i++ {
		p.post(&p.helpers[i-1], e)
	}
	defer p.wait()
	t.runPart(0)
	for k := parts - 1; k >= 1; k-- {
		if p.claim(k, e) {
			p.runStolen(t, k)
		}
	}
}

// runStolen runs helper part k on the caller and counts it done.
func (p *workerPool) runStolen(t poolTask, k int) {
	defer p.pending.Add(-1)
	t.runPart(k)
}

// post hands the current task, of epoch e, to h, waking it when it is
// parked.
func (p *workerPool) post(h *poolHelper, e uint32) {
	h.epoch.Store(e)
	h.seq.Add(1)
	if h.parked.CompareAndSwap(true, false) {
		h.wake <- struct{}{}
	}
}

// wait waits for the helpers, polling briefly before parking, and
// re-raises a helper's panic.
func (p *workerPool) wait() {
	if !spinUntil(func() bool { return p.pending.Load() == 0 }) {
		for {
			v := p.pending.Load()
			if v == 0 {
				break
			}
			// Claim the sleep while parts are still pending; the helper
			// that ends the last one sees the bit and sends on done.
			if p.pending.CompareAndSwap(v, v|poolWaiting) {
				<-p.done
				break
			}
		}
	}
	p.task = nil
	if p.failed != nil {
		v := p.failed
		p.failed = nil
		panic(v)
	}
}

// finish records that one helper part is done, waking a parked caller
// after the last.
func (p *workerPool) finish() {
	if p.pending.Add(-1) == poolWaiting {
		p.done <- struct{}{}
	}
}

// helperLoop runs helper i's parts (part i+1) until the pool closes.
func (p *workerPool) helperLoop(i int) {
	h := &p.helpers[i]
	var last uint32
	limit := p.spinLimit
	for {
		if !spinFor(func() bool { return h.seq.Load() != last }, limit) {
			h.parked.Store(true)
			if h.seq.Load() == last {
				<-h.wake
			} else if !h.parked.CompareAndSwap(true, false) {
				// A poster saw parked and is sending.
				<-h.wake
			}
		}
		// A poster that saw parked set may send on wake after this helper
		// stopped waiting for it and ran the task (its seq had already
		// changed); the helper then parks again and takes that token as a
		// wake-up with no new task. Only a changed seq means a task.
		s := h.seq.Load()
		if s == last {
			continue
		}
		last = s
		if p.closed.Load() {
			return
		}
		// The last task posted to this helper, unless the caller took its
		// part: then that task may be over, and p.task another's.
		if p.claim(i+1, h.epoch.Load()) {
			p.runHelper(p.task, i+1)
		}
	}
}

// spinUntil polls cond for up to poolSpin and reports whether it held.
func spinUntil(cond func() bool) bool {
	return spinFor(cond, func() time.Duration { return poolSpin })
}

// spinFor polls cond for up to limit() (read as it polls) and reports
// whether it held.
func spinFor(cond func() bool, limit func() time.Duration) bool {
	var start time.Time
	for n := 0; ; n++ {
		if cond() {
			return true
		}
		if n&63 == 63 {
			if start.IsZero() {
				start = time.Now()
			} else if time.Since(start) > limit() {
				return false
			}
			runtime.Gosched()
		}
	}
}

// spinLimit is how long a helper polls: poolRunSpin during a run,
// poolSpin between runs.
func (p *workerPool) spinLimit() time.Duration {
	if p.running.Load() > 0 {
		return poolRunSpin
	}
	return poolSpin
}

// begin marks a run of the model in progress until the matching end;
// runs nest (a subgraph's program shares its model's pool). Both are
// no-ops on nil.
func (p *workerPool) begin() {
	if p != nil {
		p.running.Add(1)
	}
}

// end ends a run that begin marked.
func (p *workerPool) end() {
	if p != nil {
		p.running.Add(-1)
	}
}

// runHelper runs one part on a helper, keeping a panic for run.
func (p *workerPool) runHelper(t poolTask, part int) {
	defer p.finish()
	defer func() {
		if v := recover(); v != nil {
			p.mu.Lock()
			p.failed = v
			p.mu.Unlock()
		}
	}()
	t.runPart(part)
}

// close stops the helpers. The pool must be idle; closing nil is a no-op.
func (p *workerPool) close() {
	if p == nil {
		return
	}
	p.closed.Store(true)
	for i := range p.helpers {
		p.post(&p.helpers[i], p.epoch.Load())
	}
}
