//go:build ort || openblas

package bench

import (
	"os"
	"runtime"
	"strconv"

	lcpu "github.com/lintel-ml/lintel/backends/cpu"
)

// envInt reads an integer setting from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// kernelInfo describes the CPU and the kernels the CPU backend picked.
func kernelInfo() string {
	return runtime.GOARCH + ", kernels " + lcpu.KernelSet()
}
