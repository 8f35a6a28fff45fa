package gpu_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/compute"
)

// Carried values are the CPU backend's: the GPU planner refuses them at
// load, naming the option.
func TestCarriesRefused(t *testing.T) {
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(33, 34))), "mlp.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	opts := compute.Options{Carries: []compute.Carry{{Output: "y", Input: "x"}}}
	_, err = gpu.Load[f32t, f32t](gt.Config(func() (gpu.Device, error) { return gt.New(), nil }, false), opts, art)
	if !errors.Is(err, compute.ErrUnsupported) {
		t.Fatalf("gpu.Load with Carries: got %v, want ErrUnsupported", err)
	}
}
