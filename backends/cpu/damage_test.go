package cpu_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/payload"
)

var sentinels = []error{
	compute.ErrInvalidArtifact, compute.ErrUnsupported, compute.ErrShapeMismatch,
	compute.ErrExecutionFailed, compute.ErrResourceUnavailable, compute.ErrNotInitialized, compute.ErrClosed,
}

func isSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// TestDamagedModels loads and runs truncated and bit-flipped copies of a
// real model: every failure must be an error matching a sentinel, never a
// panic, and memory must stay bounded.
func TestDamagedModels(t *testing.T) {
	orig := models.PPOCRClassifier
	r := rand.New(rand.NewPCG(11, 12))
	n := 300
	if testing.Short() {
		n = 60
	}
	in := f32{Shape: []int{1, 3, 48, 192}, Data: randSlice(r, 3*48*192, 1)}
	var out payload.Tensor[float32]
	loaded, ran := 0, 0
	for i := range n {
		data := append([]byte(nil), orig...)
		switch i % 3 {
		case 0:
			data = data[:r.IntN(len(data))]
		default:
			for range 1 + r.IntN(8) {
				data[r.IntN(len(data))] ^= byte(1 << r.IntN(8))
			}
		}
		art, err := artifacts.FromBytes(data, "damaged.onnx")
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("copy %d: decode error matches no sentinel: %v", i, err)
			}
			continue
		}
		m, err := cpu.New[f32, f32](compute.Options{MaxTensorBytes: 64 << 20}).LoadModel(art)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("copy %d: load error matches no sentinel: %v", i, err)
			}
			continue
		}
		loaded++
		if err := m.Init(); err != nil {
			t.Fatal(err)
		}
		if err := m.InferOne(&in, &out); err != nil {
			if !isSentinel(err) {
				t.Fatalf("copy %d: inference error matches no sentinel: %v", i, err)
			}
			if errors.Is(err, compute.ErrExecutionFailed) {
				t.Errorf("copy %d: a kernel failed instead of refusing the input: %v", i, err)
			}
		} else {
			ran++
		}
		m.Close()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > 2<<30 {
			t.Fatalf("copy %d: heap at %d MiB", i, ms.HeapAlloc>>20)
		}
	}
	t.Logf("%d copies: %d loaded, %d ran", n, loaded, ran)
}
