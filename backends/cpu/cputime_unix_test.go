//go:build unix

package cpu

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used,
// which benchmarks report beside wall time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
