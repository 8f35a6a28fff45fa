package gpu_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
)

// blockingDevice is the fake device with a submission that waits, when
// armed, until the test lets it finish: a call stays inside the model
// for as long as the test needs.
type blockingDevice struct {
	*gt.Device
	armed   bool
	entered chan struct{}
	release chan struct{}
}

func (d *blockingDevice) End() error {
	if d.armed {
		d.armed = false
		d.entered <- struct{}{}
		<-d.release
	}
	return d.Device.End()
}

// A call that overlaps another on the same model is refused with
// ErrResourceUnavailable, whatever the method, and the running call
// finishes unharmed.
func TestOverlappingCallsRefused(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	dev := &blockingDevice{Device: gt.New(), entered: make(chan struct{}), release: make(chan struct{})}
	cfg := gt.Config(func() (gpu.Device, error) { return dev, nil }, false)
	art, err := artifacts.FromBytes(mlp(r), "mlp.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := gpu.Load[f32t, f32t](cfg, compute.Options{}, art)
	if err != nil {
		t.Fatalf("gpu.Load: %v", err)
	}
	if err := m.Init(); err != nil {
		t.Fatalf("m.Init: %v", err)
	}
	x := randT(r, 2, 16)
	var want f32t
	if err := m.InferOne(&x, &want); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	dev.armed = true
	done := make(chan error, 1)
	var got f32t
	go func() { done <- m.InferOne(&x, &got) }()
	<-dev.entered
	var y f32t
	calls := []struct {
		name string
		call func() error
	}{
		{"InferOne", func() error { return m.InferOne(&x, &y) }},
		{"InferBatch", func() error { return m.InferBatch(batch.Of([]f32t{x}), make([]f32t, 1)) }},
		{"Init", m.Init},
		{"Reset", m.Reset},
		{"Close", m.Close},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, compute.ErrResourceUnavailable) {
			t.Errorf("%s during a call: %v, want ErrResourceUnavailable", c.name, err)
		}
	}
	close(dev.release)
	if err := <-done; err != nil {
		t.Fatalf("the running call: %v", err)
	}
	for i := range want.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("the running call's output %d = %v, want %v", i, got.Data[i], want.Data[i])
		}
	}
	if err := m.Close(); err != nil {
		t.Fatalf("m.Close: %v", err)
	}
	if err := m.InferOne(&x, &y); !errors.Is(err, compute.ErrClosed) {
		t.Errorf("InferOne after Close: %v, want ErrClosed", err)
	}
}
