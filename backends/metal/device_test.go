package metal

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/compute"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// Without the Metal driver (any build but -tags metal on darwin), loading
// fails with ErrResourceUnavailable.
func TestNoDriver(t *testing.T) {
	if _, err := openDevice(); err == nil {
		t.Skip("this build has the Metal driver")
	}
	b := gt.OneOp(17, "Relu", payload.Float32, []ob.Value{gt.In("x", payload.Float32, 2, 3)}, nil)
	art, err := artifacts.FromBytes(b, "relu.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	_, err = New[payload.Tensor[float32], payload.Tensor[float32]](compute.Options{}).LoadModel(art)
	if !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Fatalf("%v, want ErrResourceUnavailable", err)
	}
}

// The Metal backend's models run on the portable layer: on the fake device
// every op case matches the CPU backend.
func TestOpsMatchCPUOnFake(t *testing.T) {
	gt.RunOpCases(t, config(gt.Open(gt.New)), 1e-5)
}

// TestOpsMatchCPUOnDevice runs the op cases on the Metal device, where
// the build has the driver and the machine a GPU: go test -tags metal on
// a Mac. Elsewhere it skips.
func TestOpsMatchCPUOnDevice(t *testing.T) {
	dev, err := openDevice()
	if err != nil {
		t.Skipf("no Metal device: %v", err)
	}
	t.Logf("device: %s", dev.Name())
	dev.Close()
	gt.RunOpCases(t, config(openDevice), 1e-4)
}
