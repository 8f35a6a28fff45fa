//go:build cuda && cgo

package cuda

import (
	"sync"

	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/internal/errs"
)

// ordinal is the device every model runs on: the first one CUDA lists
// (CUDA_VISIBLE_DEVICES chooses which that is).
const ordinal = 0

// shared is the process's hold on the GPU: its primary context and the
// kernels' module, opened by the first model or NewTensor and kept for the
// life of the process, since models and tensors share them.
var shared struct {
	mu  sync.Mutex
	g   *gpu
	mod *module
	fns [core.NumKernels]function
}

// openShared opens the driver and the device once. A failure is not kept:
// a later call tries again.
func openShared() (*gpu, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.g != nil {
		return shared.g, nil
	}
	if err := loadDriver(); err != nil {
		return nil, err
	}
	n, err := deviceCount()
	if err != nil {
		return nil, err
	}
	if n <= ordinal {
		return nil, errs.New(errs.ResourceUnavailable, "cuda: the driver lists no CUDA device (cuDeviceGetCount gives %d)", n)
	}
	g, err := openGPU(ordinal)
	if err != nil {
		return nil, err
	}
	shared.g = g
	return g, nil
}

// inPTX reports whether the embedded PTX has the kernel.
func inPTX(name string) bool {
	for _, k := range ptxKernels {
		if k.name == name {
			return true
		}
	}
	return false
}

// compileShared loads the embedded PTX into the device once and looks up
// the kernels asked for; the driver compiles PTX for the GPU it finds.
func compileShared(g *gpu, kernels []core.KernelID) ([core.NumKernels]function, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.mod == nil {
		mod, err := g.loadModule([]byte(ptxSource))
		if err != nil {
			return shared.fns, err
		}
		shared.mod = mod
	}
	for _, k := range kernels {
		if k >= core.NumKernels {
			return shared.fns, errs.New(errs.Unsupported, "cuda: no kernel %d", k)
		}
		if shared.fns[k] != 0 || !inPTX(core.KernelNames[k]) {
			// A kernel the PTX lacks is refused when a plan launches it.
			continue
		}
		fn, err := shared.mod.function(core.KernelNames[k])
		if err != nil {
			return shared.fns, err
		}
		shared.fns[k] = fn
	}
	return shared.fns, nil
}

// sharedGPU returns the open GPU, or nil before the first openShared.
func sharedGPU() *gpu {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	return shared.g
}
