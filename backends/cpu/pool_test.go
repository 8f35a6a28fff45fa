package cpu

import (
	"sync/atomic"
	"testing"
	"time"
)

// countTask counts the runs of each part, and panics in part panicAt.
type countTask struct {
	runs    [4]atomic.Int32
	panicAt int
}

func (c *countTask) runPart(part int) {
	c.runs[part].Add(1)
	if part == c.panicAt {
		panic("part failed")
	}
}

// TestWorkerPool runs tasks back to back and after idle gaps long enough
// for the helpers to park, and checks every part ran once per call.
func TestWorkerPool(t *testing.T) {
	tests := []struct {
		name    string
		threads int
		parts   int
		gap     time.Duration
	}{
		{"two threads back to back", 2, 2, 0},
		{"two threads parked", 2, 2, 3 * poolSpin},
		{"four threads three parts", 4, 3, 0},
		{"four threads parked", 4, 4, 3 * poolSpin},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newWorkerPool(tc.threads)
			defer p.close()
			if got := p.size(); got != tc.threads {
				t.Fatalf("size = %d, want %d", got, tc.threads)
			}
			task := &countTask{panicAt: -1}
			const calls = 200
			for range calls {
				p.run(task, tc.parts)
				if tc.gap > 0 {
					time.Sleep(tc.gap)
				}
			}
			for part := range 4 {
				want := int32(0)
				if part < tc.parts {
					want = calls
				}
				if got := task.runs[part].Load(); got != want {
					t.Errorf("part %d ran %d times, want %d", part, got, want)
				}
			}
		})
	}
}

// TestWorkerPoolPanic checks that a helper's panic is raised on the
// caller and that the pool still works afterwards.
func TestWorkerPoolPanic(t *testing.T) {
	p := newWorkerPool(2)
	defer p.close()
	func() {
		defer func() {
			if v := recover(); v != "part failed" {
				t.Errorf("recovered %v, want the helper's panic", v)
			}
		}()
		p.run(&countTask{panicAt: 1}, 2)
	}()
	task := &countTask{panicAt: -1}
	p.run(task, 2)
	if task.runs[1].Load() != 1 {
		t.Errorf("helper part did not run after a panic")
	}
}

// TestWorkerPoolAllocs checks that a call allocates nothing.
func TestWorkerPoolAllocs(t *testing.T) {
	p := newWorkerPool(2)
	defer p.close()
	task := &countTask{panicAt: -1}
	if n := testing.AllocsPerRun(100, func() { p.run(task, 2) }); n != 0 {
		t.Errorf("run allocates %v times per call, want 0", n)
	}
}

// stampTask records, per part, the round it last ran in.
type stampTask struct {
	round int
	seen  []int
	runs  []int
}

func (s *stampTask) runPart(part int) {
	s.seen[part] = s.round
	s.runs[part]++
}

// run returns only once every part of its task has run, and every part
// runs exactly once, over many back-to-back tasks: a helper slow to
// finish one task (preempted between its last two steps) must not wake
// the caller of the next, and a late wake-up must not run a task twice.
// The race detector's scheduling (make race) makes those interleavings
// likely.
func TestWorkerPoolWaitsForEveryPart(t *testing.T) {
	rounds := 20000
	if testing.Short() {
		rounds = 5000
	}
	for _, threads := range []int{2, 3} {
		p := newWorkerPool(threads)
		s := &stampTask{seen: make([]int, threads), runs: make([]int, threads)}
		for r := 1; r <= rounds; r++ {
			s.round = r
			p.run(s, threads)
			for part := range threads {
				if s.seen[part] != r || s.runs[part] != r {
					p.close()
					t.Fatalf("threads %d, round %d: part %d last ran in round %d, %d times", threads, r, part, s.seen[part], s.runs[part])
				}
			}
		}
		p.close()
	}
}

// onceTask counts the runs of each part of one task, sleeping in some
// parts so that the caller takes parts whose helpers have not started.
type onceTask struct {
	runs  [8]atomic.Int32
	parts int
	slow  int
}

func (o *onceTask) runPart(part int) {
	if part >= o.parts {
		panic("part out of range")
	}
	if part == o.slow {
		time.Sleep(20 * time.Microsecond)
	}
	o.runs[part].Add(1)
}

// TestWorkerPoolRunsEachPartOnce runs thousands of tasks of varying
// part counts back to back, with helpers that are parked, busy or late,
// and checks that every part of every task ran exactly once before run
// returned, whether its helper or the caller took it.
func TestWorkerPoolRunsEachPartOnce(t *testing.T) {
	for _, threads := range []int{2, 3, 8} {
		p := newWorkerPool(threads)
		tasks := make([]onceTask, 4000)
		for i := range tasks {
			o := &tasks[i]
			o.parts = 1 + i%threads
			o.slow = i % 5
			if i%97 == 0 {
				// Let the helpers park.
				time.Sleep(3 * poolSpin)
			}
			p.run(o, o.parts)
			for k := range o.parts {
				if got := o.runs[k].Load(); got != 1 {
					t.Fatalf("%d threads, task %d of %d parts: part %d ran %d times, want 1", threads, i, o.parts, k, got)
				}
			}
		}
		p.close()
		for i := range tasks {
			for k := tasks[i].parts; k < len(tasks[i].runs); k++ {
				if got := tasks[i].runs[k].Load(); got != 0 {
					t.Fatalf("%d threads, task %d of %d parts: part %d ran %d times after the task", threads, i, tasks[i].parts, k, got)
				}
			}
		}
	}
}

// TestWorkerPoolRunSpin checks that helpers keep polling through a gap
// longer than poolSpin while a run is in progress (begin), that they
// park once it ends, and that begin and end on nil do nothing.
func TestWorkerPoolRunSpin(t *testing.T) {
	var none *workerPool
	none.begin()
	none.end()
	p := newWorkerPool(2)
	defer p.close()
	task := &countTask{panicAt: -1}
	parked := func() bool { return p.helpers[0].parked.Load() }
	p.begin()
	p.run(task, 2)
	t0 := time.Now()
	time.Sleep(20 * poolSpin)
	// A loaded machine may oversleep past poolRunSpin: only a check
	// well inside it says anything.
	if gap := time.Since(t0); parked() && gap < poolRunSpin/2 {
		t.Errorf("helper parked %v into a run, want polling for up to %v", gap, poolRunSpin)
	}
	p.run(task, 2)
	p.end()
	deadline := time.Now().Add(time.Second)
	for !parked() && time.Now().Before(deadline) {
		time.Sleep(poolSpin)
	}
	if !parked() {
		t.Errorf("helper still polling a second after the run ended, want parked after %v", poolSpin)
	}
	if got := task.runs[1].Load(); got != 2 {
		t.Errorf("helper part ran %d times, want 2", got)
	}
}
