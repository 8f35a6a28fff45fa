//go:build !cuda || !cgo

package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/memclass"
)

// A build without -tags cuda or without cgo refuses to load, saying how to
// build the backend, and refuses GPU memory the same way.
func TestStubRefuses(t *testing.T) {
	art, err := artifacts.FromBytes(models.PPOCRClassifier, "cls.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := New[f32, f32](compute.Options{}).LoadModel(art)
	if m != nil || !errors.Is(err, compute.ErrResourceUnavailable) || !strings.Contains(err.Error(), "-tags cuda") {
		t.Fatalf("LoadModel: %v, %v", m, err)
	}
	for _, c := range []memclass.Class{memclass.Pinned, memclass.Device(0)} {
		if _, err := NewTensor[float32](c, 2, 3); !errors.Is(err, compute.ErrResourceUnavailable) {
			t.Errorf("NewTensor(%v): %v", c, err)
		}
	}
	h, err := NewTensor[float32](memclass.Host, 2, 3)
	if err != nil || len(h.Data) != 6 {
		t.Fatalf("NewTensor(host): %v, %v", h, err)
	}
	if err := Free(&h); err != nil || h.Data != nil {
		t.Fatalf("Free: %v", err)
	}
	if _, err := NewTensor[float32](memclass.Host, -1); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("NewTensor(-1): %v", err)
	}
	var mdl Model[f32, f32]
	if err := mdl.Init(); !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Fatalf("Init: %v", err)
	}
}
