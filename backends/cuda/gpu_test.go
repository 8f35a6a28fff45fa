//go:build cuda && cgo

package cuda

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/memclass"
)

// Without the driver or a GPU, LoadModel fails with
// ErrResourceUnavailable naming what is missing. Skipped where a GPU
// answers.
func TestNoGPU(t *testing.T) {
	if _, err := openShared(); err == nil {
		t.Skip("a GPU is present")
	}
	art, err := artifacts.FromBytes(models.PPOCRClassifier, "cls.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := New[f32, f32](compute.Options{}).LoadModel(art)
	if m != nil || !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Fatalf("LoadModel: %v, %v", m, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "libcuda") && !strings.Contains(msg, "device") {
		t.Fatalf("the error does not name the missing driver or device: %v", err)
	}
	t.Logf("as expected: %v", err)
	for _, c := range []memclass.Class{memclass.Pinned, memclass.Device(0)} {
		if _, err := NewTensor[float32](c, 4); !errors.Is(err, compute.ErrResourceUnavailable) {
			t.Errorf("NewTensor(%v) without a GPU: %v", c, err)
		}
	}
}

// loadCUDA loads model bytes on the CUDA backend, ready to run.
func loadCUDA[In, Out any](tb testing.TB, b []byte, opts compute.Options) *Model[In, Out] {
	tb.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := New[In, Out](opts).LoadModel(art)
	if err != nil {
		tb.Fatalf("LoadModel: %v", err)
	}
	if err := m.Init(); err != nil {
		tb.Fatalf("m.Init: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

// loadCPU loads model bytes on the CPU backend, the reference.
func loadCPU[In, Out any](tb testing.TB, b []byte) *cpu.Model[In, Out] {
	tb.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := cpu.New[In, Out](compute.Options{}).LoadModel(art)
	if err != nil {
		tb.Fatalf("LoadModel: %v", err)
	}
	if err := m.Init(); err != nil {
		tb.Fatalf("m.Init: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

// loadArtifact decodes model bytes.
func loadArtifact(tb testing.TB, b []byte) *artifacts.Artifact {
	tb.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	return art
}

// uniform returns n values in [-s, s).
func uniform(r *rand.Rand, n int, s float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = (r.Float32()*2 - 1) * s
	}
	return v
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
