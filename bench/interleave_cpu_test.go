//go:build ort

package bench

import (
	"runtime"
	"time"
)

// interleaveCPU is interleave on the CPU time of the calling thread,
// which it locks to its OS thread, instead of the wall clock: on a
// machine shared with other work, the time other processes take the
// processor from a round does not count. Each round runs every runner
// reps times; it returns each runner's median per call, and false when
// the thread's CPU time cannot be read here. The runners must run on
// the calling thread (one-thread lintel models and cgo calls do).
func interleaveCPU(runners []func(), rounds, reps int) ([]time.Duration, bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := threadCPU(); !ok {
		return nil, false
	}
	times := make([][]time.Duration, len(runners))
	for range rounds {
		for i, f := range runners {
			t0, _ := threadCPU()
			for range reps {
				f()
			}
			t1, _ := threadCPU()
			times[i] = append(times[i], (t1-t0)/time.Duration(reps))
		}
	}
	out := make([]time.Duration, len(runners))
	for i := range runners {
		out[i] = median(times[i])
	}
	return out, true
}
