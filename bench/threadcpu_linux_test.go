//go:build ort && linux

package bench

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time the calling OS thread has used, and
// whether it could be read. It reads CLOCK_THREAD_CPUTIME_ID, the
// scheduler's nanosecond count: getrusage's RUSAGE_THREAD moves in
// whole scheduler ticks (4 ms on some kernels), too coarse for rounds
// of tens of milliseconds.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
