//go:build ort && !linux

package bench

import "time"

// threadCPU is not measured here: it reports false.
func threadCPU() (time.Duration, bool) { return 0, false }
