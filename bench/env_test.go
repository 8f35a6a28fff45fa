//go:build ort || openblas

package bench

import (
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/cpu"
)

// envInt reads an integer setting from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// kernelInfo describes the CPU features the kernels pick from.
func kernelInfo() string {
	s := runtime.GOARCH
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		s += ", AVX2+FMA"
		if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL {
			s += ", AVX-512 tall tiles"
		}
	}
	return s
}
