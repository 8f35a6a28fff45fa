//go:build ort || openblas

package bench

import (
	"os"
	"runtime"
	"strconv"
	"strings"

	lcpu "github.com/lintel-ml/lintel/backends/cpu"
)

// envInt reads an integer setting from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// kernelInfo describes the CPU (its model and, on x86, family) and the
// kernels the CPU backend picked, so that every figure names the machine
// it came from.
func kernelInfo() string {
	return cpuName() + ", " + runtime.GOARCH + ", kernels " + lcpu.KernelSet() + ", int8 " + lcpu.Int8Kernel()
}

// cpuName returns the CPU's model name and x86 family from
// /proc/cpuinfo ("AMD EPYC, family 26"), or "CPU unknown" where the file
// says nothing.
func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "CPU unknown"
	}
	var model, family string
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		case "cpu family":
			if family == "" {
				family = strings.TrimSpace(v)
			}
		}
		if model != "" && family != "" {
			break
		}
	}
	switch {
	case model == "":
		return "CPU unknown"
	case family == "":
		return model
	}
	return model + ", family " + family
}
