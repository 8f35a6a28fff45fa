package cpu_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
)

func loadMLPWith(t testing.TB, opts compute.Options) *cpu.Model[f32, f32] {
	t.Helper()
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(1, 2))), "mlp")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cpu.New[f32, f32](opts).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// A call whose context has ended is refused with an error that matches
// ctx.Err(); a live context costs no allocation.
func TestInferContext(t *testing.T) {
	m := loadMLPWith(t, compute.Options{})
	in := f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
	var out f32
	ctx, cancel := context.WithCancel(context.Background())
	if err := m.InferOneContext(ctx, &in, &out); err != nil {
		t.Fatalf("InferOneContext with a live context: %v", err)
	}
	if got := testing.AllocsPerRun(20, func() {
		if err := m.InferOneContext(ctx, &in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("InferOneContext allocates %v times per call, want 0", got)
	}
	cancel()
	err := m.InferOneContext(ctx, &in, &out)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, compute.ErrExecutionFailed) {
		t.Errorf("InferOneContext after cancel: got %v, want context.Canceled and ErrExecutionFailed", err)
	}
	err = m.InferBatchContext(ctx, batch.Of([]f32{in, in}), make([]f32, 2))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("InferBatchContext after cancel: got %v, want context.Canceled", err)
	}
	// The model still serves plain calls afterwards.
	if err := m.InferOne(&in, &out); err != nil {
		t.Errorf("InferOne after a cancelled call: %v", err)
	}
}

// Profile counts calls, node runs and the FLOPs of the products, and
// records a timeline, allocating nothing per call.
func TestProfile(t *testing.T) {
	m := loadMLPWith(t, compute.Options{Profile: true})
	in := f32{Shape: []int{2, 784}, Data: make([]float32, 2*784)}
	var out f32
	for range 3 {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}
	p := m.Profile()
	if p.Calls != 3 {
		t.Errorf("Calls = %d, want 3", p.Calls)
	}
	if len(p.Nodes) == 0 {
		t.Fatal("no nodes profiled")
	}
	var flops int64
	for _, n := range p.Nodes {
		if n.Calls != 3 {
			t.Errorf("node %s (%s): Calls = %d, want 3", n.Node, n.Op, n.Calls)
		}
		if strings.HasPrefix(n.Op, "MatMul") || strings.HasPrefix(n.Op, "Gemm") {
			flops += n.FLOPs
		}
	}
	if want := int64(3 * 2 * 2 * (784*512 + 512*512 + 512*10)); flops != want {
		t.Errorf("product FLOPs = %d, want %d", flops, want)
	}
	if got, want := len(p.Events), 3*len(p.Nodes); got != want {
		t.Errorf("%d events, want %d", got, want)
	}
	for i := 1; i < len(p.Events); i++ {
		if p.Events[i].Start < p.Events[i-1].Start {
			t.Fatalf("event %d starts at %v, before event %d at %v", i, p.Events[i].Start, i-1, p.Events[i-1].Start)
		}
	}
	if got := testing.AllocsPerRun(20, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("a profiled InferOne allocates %v times per call, want 0", got)
	}
	m.ResetProfile()
	if p := m.Profile(); p.Calls != 0 || len(p.Events) != 0 || p.Nodes[0].Calls != 0 {
		t.Errorf("after ResetProfile: %d calls, %d events, first node %d calls; want 0", p.Calls, len(p.Events), p.Nodes[0].Calls)
	}
	if p := loadMLPWith(t, compute.Options{}).Profile(); p.Calls != 0 || p.Nodes != nil {
		t.Errorf("a model built without Profile returns %+v, want an empty profile", p)
	}
}

// firstCallAllocs counts the heap allocations of one call of f, which
// is not run before (testing.AllocsPerRun runs it once unmeasured).
func firstCallAllocs(t *testing.T, f func() error) uint64 {
	t.Helper()
	// One processor, as testing.AllocsPerRun counts: the process's other
	// goroutines add as little as they can to the count.
	procs := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(procs)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := f()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return after.Mallocs - before.Mallocs
}

// After Warm at a shape, the first call at that shape allocates nothing:
// every buffer it needs was made by Warm.
func TestWarm(t *testing.T) {
	tests := []struct {
		name  string
		items int
		batch bool
	}{
		{"InferOne", 1, false},
		{"stacked InferBatch of 8", 8, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ins := make([]f32, tc.items)
			outs := make([]f32, tc.items)
			for i := range ins {
				ins[i] = f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
				outs[i] = f32{Shape: []int{1, 10}, Data: make([]float32, 10)}
			}
			// Without Warm, the first call grows buffers: the check below
			// would catch a Warm that did nothing.
			cold := loadMLPWith(t, compute.Options{})
			if got := firstCallAllocs(t, func() error { return cold.InferBatch(batch.Of(ins), outs) }); got == 0 {
				t.Errorf("first call without Warm allocates nothing; the test cannot tell Warm's effect")
			}
			// The count is the process's: a goroutine of the runtime or of
			// the test framework that allocates while the call runs adds
			// to it. Up to three fresh models: one first call counting
			// none passes; the call's own allocation shows in every one.
			var counts []uint64
			for range 3 {
				m := loadMLPWith(t, compute.Options{})
				if err := m.Warm([][]int{{tc.items, 784}}); err != nil {
					t.Fatal(err)
				}
				call := func() error { return m.InferOne(&ins[0], &outs[0]) }
				if tc.batch {
					call = func() error { return m.InferBatch(batch.Of(ins), outs) }
				}
				got := firstCallAllocs(t, call)
				if got == 0 {
					return
				}
				counts = append(counts, got)
			}
			t.Errorf("first call after Warm allocates %v times in three fresh models, want 0", counts)
		})
	}
	m := loadMLPWith(t, compute.Options{})
	if err := m.Warm([][]int{{1, 784}, {1, 784}}); err == nil {
		t.Error("Warm with two shapes for a one-input model: got nil error")
	}
	if err := m.Warm([][]int{{1, 785}}); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("Warm at a wrong shape: got %v, want ErrShapeMismatch", err)
	}
}
