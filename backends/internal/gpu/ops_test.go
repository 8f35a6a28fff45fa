package gpu_test

import (
	"testing"

	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
)

// TestOpsMatchCPU runs every single-op case on both fake devices, with
// direct and im2col convolution, and on the CPU backend with the same
// random inputs.
func TestOpsMatchCPU(t *testing.T) {
	for _, md := range modes {
		for _, im2col := range []bool{false, true} {
			name := md.name
			if im2col {
				name += "/im2col"
			}
			t.Run(name, func(t *testing.T) {
				open := func() (gpu.Device, error) { d, _, _ := md.open(); return d, nil }
				gt.RunOpCases(t, gt.Config(open, im2col), 1e-5)
			})
		}
	}
}
