package cpu_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/lintel-ml/lintel/compute"
)

// TestConcurrentMisuse calls one model from several goroutines at once,
// which its documentation forbids. Overlapping calls must be refused with
// ErrResourceUnavailable; the calls that run must give the right answer.
// Under the race detector (make race) this also shows that the refusal
// path touches no shared state.
func TestConcurrentMisuse(t *testing.T) {
	m := loadMLP(t)
	defer m.Close()
	in := f32{Shape: []int{1, 784}, Data: randSlice(rand.New(rand.NewPCG(3, 4)), 784, 1)}
	var want f32
	if err := m.InferOne(&in, &want); err != nil {
		t.Fatal(err)
	}
	const workers, calls = 4, 40
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		ran, busy int
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out f32
			for range calls {
				err := m.InferOne(&in, &out)
				mu.Lock()
				switch {
				case err == nil:
					ran++
					if !slices.Equal(out.Data, want.Data) {
						t.Error("a call that ran gave a different result")
					}
				case errors.Is(err, compute.ErrResourceUnavailable):
					busy++
				default:
					t.Errorf("unexpected error: %v", err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d calls ran, %d refused as overlapping", ran, busy)
	if ran == 0 {
		t.Error("no call ran")
	}
	if err := m.InferOne(&in, &want); err != nil {
		t.Fatalf("after the misuse: %v", err)
	}
}
