package batch

import (
	"context"
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Warm runs every model at every batch size up to MaxBatch, and only
// before serving.
func TestWarm(t *testing.T) {
	models := []*fake{{}, {}}
	b := newTestBatcher(t, models, Options{MaxBatch: 6})
	sample := 3
	if err := b.Warm(&sample); err != nil {
		t.Fatal(err)
	}
	for i, m := range models {
		if got, want := m.seen.Load(), int64(1+2+3+4+5+6); got != want {
			t.Errorf("model %d ran %d items, want %d (one batch of each size 1..6)", i, got, want)
		}
	}
	if err := b.Warm(nil); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("Warm(nil): got %v, want ErrShapeMismatch", err)
	}
	in, out := 1, 0
	if err := b.Infer(context.Background(), &in, &out); err != nil || out != 3 {
		t.Fatalf("Infer after Warm = %d, %v; want 3, nil", out, err)
	}
	if err := b.Warm(&sample); !errors.Is(err, errs.ResourceUnavailable) {
		t.Errorf("Warm after serving: got %v, want ErrResourceUnavailable", err)
	}
	b.Close()
	if err := b.Warm(&sample); !errors.Is(err, ErrClosed) {
		t.Errorf("Warm after Close: got %v, want ErrClosed", err)
	}
	failing := newTestBatcher(t, []*fake{{}}, Options{MaxBatch: 2})
	defer failing.Close()
	bad := -1
	if err := failing.Warm(&bad); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("Warm on an input the model refuses: got %v, want the model's error", err)
	}
}
