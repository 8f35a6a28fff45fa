package cpu

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// rangeCount records which items ran, and how often.
type rangeCount struct {
	runs []atomic.Int32
}

func (r *rangeCount) runRange(_, lo, hi int) {
	for i := lo; i < hi; i++ {
		r.runs[i].Add(1)
	}
}

func init() {
	// Splits in this package's tests depend on the work alone, not on
	// whether a helper happened to park.
	parWakeCheck = false
}

// TestSplitParts checks the part counts for the threshold of a polling
// helper and of a parked one.
func TestSplitParts(t *testing.T) {
	tests := []struct {
		size, n, work, least int
		want                 int
	}{
		{2, 100, 10, parMinWork, 1},
		{2, 2 * parMinWork, 1, parMinWork, 2},
		{2, 2 * parMinWork, 1, parWakeWork, 1},
		{2, 2 * parWakeWork, 1, parWakeWork, 2},
		{4, 3, parMinWork, parMinWork, 3},
		{2, 5, 0, parMinWork, 1},
	}
	for _, tc := range tests {
		if got := splitParts(tc.size, tc.n, tc.work, tc.least); got != tc.want {
			t.Errorf("splitParts(%d, %d, %d, %d) = %d, want %d", tc.size, tc.n, tc.work, tc.least, got, tc.want)
		}
	}
}

// TestAnyParked checks that a pool left idle reports a parked helper.
func TestAnyParked(t *testing.T) {
	p := newWorkerPool(2)
	defer p.close()
	deadline := time.Now().Add(5 * time.Second)
	for !p.anyParked() {
		if time.Now().After(deadline) {
			t.Fatal("no helper parked within 5s of idling")
		}
		time.Sleep(poolSpin)
	}
}

// TestParFor checks that every item runs exactly once whatever the split,
// and that small work stays on one part.
func TestParFor(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	tests := []struct {
		name      string
		pool      *workerPool
		n, work   int
		wantParts int
	}{
		{"no pool", nil, 1000, 1 << 20, 1},
		{"one item", pool, 1, 1 << 20, 1},
		{"small work", pool, 100, 10, 1},
		{"just enough", pool, 2 * parMinWork, 1, 2},
		{"heavy items", pool, 3, parMinWork, 2},
		{"empty", pool, 0, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parParts(tc.pool, tc.n, tc.work); got != tc.wantParts {
				t.Errorf("parParts(%d, %d) = %d, want %d", tc.n, tc.work, got, tc.wantParts)
			}
			r := &rangeCount{runs: make([]atomic.Int32, tc.n)}
			var p parFor
			p.run(tc.pool, r, tc.n, tc.work)
			for i := range r.runs {
				if got := r.runs[i].Load(); got != 1 {
					t.Fatalf("item %d ran %d times, want 1", i, got)
				}
			}
		})
	}
}

// TestParForAllocs checks that a split call allocates nothing.
func TestParForAllocs(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	r := &affineRange{x: make([]float32, 1<<16), y: make([]float32, 1<<16)}
	var p parFor
	if got := testing.AllocsPerRun(50, func() { p.run(pool, r, len(r.x)/256, 256) }); got != 0 {
		t.Errorf("allocs per run = %v, want 0", got)
	}
}

// affineRange is a memory-bound loop over blocks of 256 elements, the
// kind of work the threshold is tuned on.
type affineRange struct{ x, y []float32 }

func (r *affineRange) runRange(_, lo, hi int) {
	x, y := r.x[lo*256:hi*256], r.y[lo*256:hi*256]
	for i, v := range x {
		y[i] = v*1.5 + 0.25
	}
}

// BenchmarkParFor times a memory-bound loop on one part and on two, to
// find the size at which splitting starts to pay (parMinWork).
func BenchmarkParFor(b *testing.B) {
	pool := newWorkerPool(2)
	defer pool.close()
	for _, n := range []int{1 << 11, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 18} {
		r := &affineRange{x: make([]float32, n), y: make([]float32, n)}
		for _, parts := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/parts=%d", n, parts), func(b *testing.B) {
				var p parFor
				p.r, p.n, p.parts = r, n/256, parts
				for b.Loop() {
					if parts == 1 {
						r.runRange(0, 0, n/256)
					} else {
						pool.run(&p, parts)
					}
				}
			})
		}
	}
}
