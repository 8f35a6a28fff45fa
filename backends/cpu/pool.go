package cpu

import "sync"

// poolTask is work split into parts; part 0 runs on the caller.
type poolTask interface {
	runPart(part int)
}

// workerPool is a model's persistent helper goroutines: run hands parts
// 1..parts-1 of a task to them and runs part 0 itself. Nothing is started
// or allocated per call. A nil pool is one thread.
type workerPool struct {
	work []chan poolTask
	wg   sync.WaitGroup
	// failed holds a helper's panic, re-raised on the caller by run.
	failed any
	mu     sync.Mutex
}

// newWorkerPool starts threads-1 helpers; it returns nil for one thread.
func newWorkerPool(threads int) *workerPool {
	if threads <= 1 {
		return nil
	}
	p := &workerPool{work: make([]chan poolTask, threads-1)}
	for i := range p.work {
		ch := make(chan poolTask)
		p.work[i] = ch
		go func(part int) {
			for t := range ch {
				p.runHelper(t, part)
			}
		}(i + 1)
	}
	return p
}

// size is the number of threads, the caller's included.
func (p *workerPool) size() int {
	if p == nil {
		return 1
	}
	return len(p.work) + 1
}

// run runs parts [0, parts) of t, parts <= size, and waits for all.
func (p *workerPool) run(t poolTask, parts int) {
	p.wg.Add(parts - 1)
	for i := 1; i < parts; i++ {
		p.work[i-1] <- t
	}
	defer p.wait()
	t.runPart(0)
}

// wait waits for the helpers and re-raises a helper's panic.
func (p *workerPool) wait() {
	p.wg.Wait()
	if p.failed != nil {
		v := p.failed
		p.failed = nil
		panic(v)
	}
}

// runHelper runs one part on a helper, keeping a panic for run.
func (p *workerPool) runHelper(t poolTask, part int) {
	defer p.wg.Done()
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
	for _, ch := range p.work {
		close(ch)
	}
	p.work = nil
}
