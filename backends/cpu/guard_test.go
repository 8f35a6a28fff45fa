package cpu

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// TestGuardRefusesOverlappingCalls holds a model's claim, as a call
// running on another goroutine would, and checks that every entry point
// refuses with ErrResourceUnavailable and leaves the model usable.
func TestGuardRefusesOverlappingCalls(t *testing.T) {
	m := &Model[payload.Tensor[float32], payload.Tensor[float32]]{label: "m"}
	var in, out payload.Tensor[float32]
	m.busy.Store(true)
	calls := []struct {
		name string
		call func() error
	}{
		{"Init", m.Init},
		{"InferOne", func() error { return m.InferOne(&in, &out) }},
		{"InferBatch", func() error {
			return m.InferBatch(batch.Of([]payload.Tensor[float32]{in}), []payload.Tensor[float32]{out})
		}},
		{"Drain", m.Drain},
		{"Reset", m.Reset},
		{"Close", m.Close},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, compute.ErrResourceUnavailable) {
			t.Errorf("%s while busy: %v, want ErrResourceUnavailable", c.name, err)
		}
	}
	if m.state == stateClosed {
		t.Error("Close while busy closed the model")
	}
	m.busy.Store(false)
	if err := m.Close(); err != nil || m.state != stateClosed || m.busy.Load() {
		t.Errorf("Close: %v, state %d, busy %t", err, m.state, m.busy.Load())
	}
}
