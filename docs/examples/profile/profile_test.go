package profile

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// model is the PP-OCR direction classifier shipped in the repository.
const model = "../../../internal/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"

var shape = []int{1, 3, 48, 192}

func input() T { return payload.NewTensor[float32](shape...) }

func TestReport(t *testing.T) {
	m, err := Load(model, shape, true)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	defer m.Close()
	in, out := input(), T{}
	for range 3 {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatalf("InferOne: %v", err)
		}
	}
	var b strings.Builder
	Report(&b, m, 5)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	// Warm's call is recorded too.
	if len(lines) != 6 || lines[0] != "4 calls" || !strings.Contains(b.String(), "Conv") {
		t.Errorf("Report wrote\n%s\nwant a call count and 5 nodes with a Conv", b.String())
	}
	if p := m.Profile(); p.Calls != 0 || len(p.Events) != 0 {
		t.Errorf("after Report the profile has %d calls and %d events, want none", p.Calls, len(p.Events))
	}

	b.Reset()
	plain, err := Load(model, shape, false)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	defer plain.Close()
	if err := plain.InferOne(&in, &out); err != nil {
		t.Fatalf("InferOne: %v", err)
	}
	Report(&b, plain, 5)
	Report(&b, "not a model", 5)
	if b.Len() != 0 {
		t.Errorf("Report of a model without profiling wrote %q, want nothing", b.String())
	}
}

// After Load's Warm, the first call at the warmed shape allocates
// nothing once its output is sized. The count is the process's, so a
// goroutine of the runtime or of the test framework that allocates
// while the call runs (on a loaded machine the call can be preempted)
// adds to it: the test loads a fresh model up to three times and
// passes if one first call counted none; an allocation of the call's
// own shows in every attempt.
func TestWarmFirstCallAllocatesNothing(t *testing.T) {
	var counts []uint64
	for range 3 {
		n := firstCallMallocs(t)
		if n == 0 {
			return
		}
		counts = append(counts, n)
	}
	t.Errorf("first call after Warm made %v allocations in three fresh models, want 0", counts)
}

// firstCallMallocs loads the model, warmed, and returns the heap
// allocations the process made during its first call.
func firstCallMallocs(t *testing.T) uint64 {
	t.Helper()
	m, err := Load(model, shape, false)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	defer m.Close()
	in := input()
	out := payload.NewTensor[float32](1, 2)
	var before, after runtime.MemStats
	procs := runtime.GOMAXPROCS(1)
	runtime.ReadMemStats(&before)
	err = m.InferOne(&in, &out)
	runtime.ReadMemStats(&after)
	runtime.GOMAXPROCS(procs)
	if err != nil {
		t.Fatalf("InferOne: %v", err)
	}
	return after.Mallocs - before.Mallocs
}

func TestInferWithin(t *testing.T) {
	m, err := Load(model, shape, false)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	defer m.Close()
	in, out := input(), T{}
	if timedOut, err := InferWithin(m, time.Minute, &in, &out); timedOut || err != nil {
		t.Fatalf("InferWithin(1m) = %v, %v; want false, nil", timedOut, err)
	}
	if len(out.Data) != 2 {
		t.Fatalf("output %v, want 2 scores", out.Shape)
	}
	// A deadline already past: the call must not start, whatever the
	// machine's speed.
	timedOut, err := InferWithin(m, -time.Second, &in, &out)
	if !timedOut || !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, compute.ErrExecutionFailed) {
		t.Errorf("InferWithin(-1s) = %v, %v; want a timeout matching DeadlineExceeded and ErrExecutionFailed", timedOut, err)
	}
	// The model still runs after a stopped call.
	if timedOut, err := InferWithin(m, time.Minute, &in, &out); timedOut || err != nil {
		t.Errorf("InferWithin(1m) after a timeout = %v, %v; want false, nil", timedOut, err)
	}
}

func TestNewBatcher(t *testing.T) {
	m, err := Load(model, shape, false)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	defer m.Close()
	sample := input()
	b, err := NewBatcher([]*cpu.Model[T, T]{m}, &sample, batch.Options{MaxBatch: 4})
	if err != nil {
		t.Fatalf("NewBatcher: %v", err)
	}
	defer b.Close()
	var out T
	if err := b.Infer(context.Background(), &sample, &out); err != nil {
		t.Fatalf("Infer: %v", err)
	}
	if len(out.Data) != 2 {
		t.Errorf("output %v, want 2 scores", out.Shape)
	}
}
