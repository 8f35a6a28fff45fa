package batch

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/internal/errs"
)

// panicInput is the one input on which fake panics. It is negative so
// that no counting loop of a load test can reach it: those send 0, 1, 2,
// … and must see every call answered.
const panicInput = -999

// fake is a Model over ints: out = 2*in + 1. panicInput panics, any
// other negative input fails the call. When gate is set, every call first reports its
// size on started and then waits for gate.
type fake struct {
	started chan int
	gate    chan struct{}
	seen    atomic.Int64 // items the model was given
}

func (f *fake) InferBatch(in Batch[int], out []int) error {
	if f.started != nil {
		f.started <- in.Len()
	}
	if f.gate != nil {
		<-f.gate
	}
	f.seen.Add(int64(in.Len()))
	for i, v := range in.Items() {
		switch {
		case v == panicInput:
			panic("boom")
		case v < 0:
			return errs.New(errs.ShapeMismatch, "negative input %d", v)
		}
		out[i] = 2*v + 1
	}
	return nil
}

// gated returns a fake whose calls wait for the test.
func gated() *fake {
	return &fake{started: make(chan int, 1000), gate: make(chan struct{})}
}

// release lets every pending and future call of f run.
func (f *fake) release() { close(f.gate) }

func newTestBatcher(t *testing.T, models []*fake, opts Options) *Batcher[int, int, *fake] {
	t.Helper()
	b, err := NewBatcher[int, int](models, opts)
	if err != nil {
		t.Fatalf("NewBatcher: %v", err)
	}
	return b
}

// within fails the test if f has not returned after d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v", what, d)
	}
}

// noLeaks fails the test if goroutines started during it outlive it.
func noLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
	})
}

func TestNewBatcherOptions(t *testing.T) {
	tests := []struct {
		name    string
		models  int
		opts    Options
		wantErr bool
		want    Options
	}{
		{"defaults", 1, Options{}, false, Options{MaxBatch: DefaultMaxBatch, QueueSize: DefaultQueueSize}},
		{"kept", 2, Options{MaxBatch: 4, MaxDelay: time.Millisecond, QueueSize: 9}, false, Options{MaxBatch: 4, MaxDelay: time.Millisecond, QueueSize: 9}},
		{"no models", 0, Options{}, true, Options{}},
		{"negative batch", 1, Options{MaxBatch: -1}, true, Options{}},
		{"negative delay", 1, Options{MaxDelay: -1}, true, Options{}},
		{"negative queue", 1, Options{QueueSize: -1}, true, Options{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks(t)
			models := make([]*fake, tc.models)
			for i := range models {
				models[i] = &fake{}
			}
			b, err := NewBatcher[int, int](models, tc.opts)
			if tc.wantErr {
				if !errors.Is(err, errs.Unsupported) {
					t.Fatalf("err = %v, want an ErrUnsupported", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if b.opts != tc.want {
				t.Errorf("options %+v, want %+v", b.opts, tc.want)
			}
		})
	}
}

// Every caller gets exactly its own answer, whatever the number of models
// and the batch limit, and every request runs exactly once.
func TestBatcherAnswers(t *testing.T) {
	tests := []struct {
		models, maxBatch int
		delay            time.Duration
	}{
		{1, 1, 0},
		{1, 8, 0},
		{2, 8, time.Millisecond},
		{4, 64, 100 * time.Microsecond},
	}
	const clients, each = 50, 20
	for _, tc := range tests {
		t.Run(fmt.Sprintf("models=%d/max=%d/delay=%v", tc.models, tc.maxBatch, tc.delay), func(t *testing.T) {
			noLeaks(t)
			models := make([]*fake, tc.models)
			for i := range models {
				models[i] = &fake{}
			}
			b := newTestBatcher(t, models, Options{MaxBatch: tc.maxBatch, MaxDelay: tc.delay})
			var wg sync.WaitGroup
			var wrong atomic.Int64
			for c := range clients {
				wg.Go(func() {
					for i := range each {
						in, out := c*1000+i, -1
						if err := b.Infer(context.Background(), &in, &out); err != nil || out != 2*in+1 {
							wrong.Add(1)
						}
					}
				})
			}
			wg.Wait()
			if err := b.Close(); err != nil {
				t.Fatalf("b.Close: %v", err)
			}
			if n := wrong.Load(); n != 0 {
				t.Fatalf("%d wrong answers", n)
			}
			s := b.Stats()
			var seen, items int64
			for _, m := range models {
				seen += m.seen.Load()
			}
			for n, c := range s.BatchSizes {
				items += int64(n) * int64(c)
				if n > tc.maxBatch && c > 0 {
					t.Errorf("%d batches of %d items, above MaxBatch", c, n)
				}
			}
			if s.Requests != clients*each || seen != clients*each || items != clients*each {
				t.Errorf("requests %d, model saw %d items, batches hold %d; want %d each", s.Requests, seen, items, clients*each)
			}
			t.Logf("%d batches, mean size %.1f", s.Batches, s.MeanBatch())
		})
	}
}

// A lone request runs at once, even with a long MaxDelay.
func TestLoneRequestDoesNotWait(t *testing.T) {
	noLeaks(t)
	b := newTestBatcher(t, []*fake{{}}, Options{MaxDelay: time.Hour})
	defer b.Close()
	for range 3 {
		in, out := 1, 0
		start := time.Now()
		within(t, 5*time.Second, "lone request", func() {
			if err := b.Infer(context.Background(), &in, &out); err != nil {
				t.Errorf("b.Infer: %v", err)
			}
		})
		if d := time.Since(start); d > time.Second {
			t.Fatalf("a lone request took %v", d)
		}
	}
}

// Requests that arrive while the worker is busy form one batch.
func TestBatchForms(t *testing.T) {
	noLeaks(t)
	f := gated()
	b := newTestBatcher(t, []*fake{f}, Options{MaxBatch: 16})
	var wg sync.WaitGroup
	infer := func(v int) {
		wg.Go(func() {
			out := 0
			if err := b.Infer(context.Background(), &v, &out); err != nil || out != 2*v+1 {
				t.Errorf("Infer(%d) = %d, %v", v, out, err)
			}
		})
	}
	infer(0)
	if n := <-f.started; n != 1 {
		t.Fatalf("first batch has %d items", n)
	}
	for v := 1; v <= 10; v++ {
		infer(v)
	}
	for b.Stats().Requests < 11 {
		time.Sleep(time.Millisecond)
	}
	f.release()
	if n := <-f.started; n != 10 {
		t.Errorf("second batch has %d items, want the 10 that waited", n)
	}
	wg.Wait()
	b.Close()
}

// With MaxDelay, a worker holding several requests waits for more while
// no other worker is idle, but no longer than MaxDelay.
func TestMaxDelayBoundsTheWait(t *testing.T) {
	noLeaks(t)
	f := gated()
	const delay = 50 * time.Millisecond
	b := newTestBatcher(t, []*fake{f}, Options{MaxBatch: 64, MaxDelay: delay})
	defer b.Close()
	var wg sync.WaitGroup
	infer := func(v int) {
		wg.Go(func() {
			out := 0
			if err := b.Infer(context.Background(), &v, &out); err != nil || out != 2*v+1 {
				t.Errorf("Infer(%d) = %d, %v", v, out, err)
			}
		})
	}
	infer(0)
	<-f.started
	infer(1)
	infer(2)
	for b.Stats().Requests < 3 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	f.release()
	if n := <-f.started; n < 2 {
		t.Errorf("second batch has %d items", n)
	}
	wg.Wait()
	if d := time.Since(start); d > 20*delay {
		t.Errorf("the waiting batch ran after %v, MaxDelay is %v", d, delay)
	}
}

// A full queue refuses requests with ErrOverloaded; none hangs, and every
// accepted one is answered.
func TestOverload(t *testing.T) {
	noLeaks(t)
	f := gated()
	b := newTestBatcher(t, []*fake{f}, Options{MaxBatch: 4, QueueSize: 8})
	const n = 300
	var wg sync.WaitGroup
	var ok, overloaded, other atomic.Int64
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			in, out := i, 0
			err := b.Infer(context.Background(), &in, &out)
			switch {
			case err == nil && out == 2*i+1:
				ok.Add(1)
			case errors.Is(err, ErrOverloaded):
				overloaded.Add(1)
			default:
				other.Add(1)
			}
		})
	}
	close(start)
	// The worker holds one batch; at most 8 more wait in the queue.
	for b.Stats().Rejected+b.Stats().Requests < n {
		time.Sleep(time.Millisecond)
	}
	f.release()
	within(t, 10*time.Second, "overloaded requests", wg.Wait)
	b.Close()
	s := b.Stats()
	t.Logf("%d answered, %d refused", ok.Load(), overloaded.Load())
	if overloaded.Load() == 0 || other.Load() != 0 || ok.Load()+overloaded.Load() != n {
		t.Fatalf("%d answered, %d overloaded, %d other", ok.Load(), overloaded.Load(), other.Load())
	}
	if s.Rejected != uint64(overloaded.Load()) || s.Requests != uint64(ok.Load()) {
		t.Errorf("stats %+v disagree with the callers", s)
	}
	if !errors.Is(ErrOverloaded, errs.ResourceUnavailable) || !errors.Is(ErrClosed, errs.Closed) {
		t.Error("the batcher's errors do not match the compute sentinels")
	}
}

func TestCanceledContext(t *testing.T) {
	noLeaks(t)
	f := gated()
	b := newTestBatcher(t, []*fake{f}, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in, out := 1, 0
	if err := b.Infer(ctx, &in, &out); !errors.Is(err, context.Canceled) {
		t.Fatalf("already canceled: err = %v", err)
	}
	if s := b.Stats(); s.Requests != 0 {
		t.Errorf("a canceled call was queued: %+v", s)
	}

	// The worker is busy; a queued request whose context ends returns at
	// once and never reaches the model.
	var wg sync.WaitGroup
	first := 10
	firstOut := 0
	wg.Go(func() {
		if err := b.Infer(context.Background(), &first, &firstOut); err != nil {
			t.Errorf("b.Infer: %v", err)
		}
	})
	<-f.started
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	queued, queuedOut := 20, 0
	within(t, 5*time.Second, "canceled queued request", func() {
		if err := b.Infer(ctx, &queued, &queuedOut); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("queued: err = %v", err)
		}
	})
	f.release()
	wg.Wait()
	b.Close()
	if s := b.Stats(); f.seen.Load() != 1 || s.Canceled != 1 || queuedOut != 0 {
		t.Errorf("model saw %d items, stats %+v, canceled output %d", f.seen.Load(), s, queuedOut)
	}
}

// A caller whose context ends while its batch runs gets the batch's
// result once it is done; its output is never written after it returns.
func TestCancelWhileRunning(t *testing.T) {
	noLeaks(t)
	f := gated()
	b := newTestBatcher(t, []*fake{f}, Options{})
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	in, out := 5, 0
	errc := make(chan error, 1)
	go func() { errc <- b.Infer(ctx, &in, &out) }()
	<-f.started
	cancel()
	select {
	case err := <-errc:
		t.Fatalf("returned %v while its batch was running", err)
	case <-time.After(20 * time.Millisecond):
	}
	f.release()
	if err := <-errc; err != nil || out != 11 {
		t.Fatalf("got %d, %v; want 11, nil", out, err)
	}
}

// Close under load: every call returns a right answer or ErrClosed, none
// hangs; Infer after Close returns ErrClosed; no goroutine is left.
func TestCloseUnderLoad(t *testing.T) {
	noLeaks(t)
	models := []*fake{{}, {}}
	b := newTestBatcher(t, models, Options{MaxBatch: 8, MaxDelay: 100 * time.Microsecond})
	var wg sync.WaitGroup
	var ok, closed, other atomic.Int64
	for c := range 64 {
		wg.Go(func() {
			for i := 0; ; i++ {
				in, out := c*100000+i, 0
				err := b.Infer(context.Background(), &in, &out)
				switch {
				case err == nil && out == 2*in+1:
					ok.Add(1)
				case errors.Is(err, ErrClosed):
					closed.Add(1)
					return
				default:
					other.Add(1)
					return
				}
			}
		})
	}
	for b.Stats().Requests < 2000 {
		time.Sleep(time.Millisecond)
	}
	within(t, 10*time.Second, "Close", func() { b.Close() })
	within(t, 10*time.Second, "callers", wg.Wait)
	if other.Load() != 0 || closed.Load() != 64 {
		t.Fatalf("%d answered, %d ErrClosed, %d other", ok.Load(), closed.Load(), other.Load())
	}
	s := b.Stats()
	if s.Requests != uint64(ok.Load()) || uint64(models[0].seen.Load()+models[1].seen.Load()) != s.Requests {
		t.Errorf("accepted %d, answered %d, run %d", s.Requests, ok.Load(), models[0].seen.Load()+models[1].seen.Load())
	}
	in, out := 1, 0
	if err := b.Infer(context.Background(), &in, &out); !errors.Is(err, ErrClosed) {
		t.Errorf("Infer after Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// A failing or panicking input fails alone; the rest of its batch gets
// its answers.
func TestFailureIsolation(t *testing.T) {
	noLeaks(t)
	f := gated()
	b := newTestBatcher(t, []*fake{f}, Options{MaxBatch: 16})
	defer b.Close()
	tests := []struct {
		in      int
		wantErr error
	}{
		{-1, errs.ShapeMismatch},
		{panicInput, errs.ExecutionFailed},
		{1, nil}, {2, nil}, {3, nil},
	}
	var wg sync.WaitGroup
	blocker, blockerOut := 0, 0
	wg.Go(func() { _ = b.Infer(context.Background(), &blocker, &blockerOut) })
	<-f.started
	for _, tc := range tests {
		wg.Go(func() {
			in, out := tc.in, 0
			err := b.Infer(context.Background(), &in, &out)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && out != 2*in+1) {
				t.Errorf("Infer(%d) = %d, %v; want error %v", in, out, err, tc.wantErr)
			}
		})
	}
	for b.Stats().Requests < uint64(len(tests)+1) {
		time.Sleep(time.Millisecond)
	}
	f.release()
	wg.Wait()
	if s := b.Stats(); s.Failed != 2 {
		t.Errorf("Failed = %d, want 2", s.Failed)
	}
}

// Infer allocates nothing in steady state.
func TestInferAllocs(t *testing.T) {
	noLeaks(t)
	b := newTestBatcher(t, []*fake{{}}, Options{})
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, out := 3, 0
	allocs := testing.AllocsPerRun(200, func() {
		if err := b.Infer(ctx, &in, &out); err != nil {
			t.Fatalf("b.Infer: %v", err)
		}
	})
	if allocs != 0 {
		t.Errorf("Infer allocates %v times per call", allocs)
	}
}

func TestInferNilPayload(t *testing.T) {
	noLeaks(t)
	b := newTestBatcher(t, []*fake{{}}, Options{})
	defer b.Close()
	v := 1
	if err := b.Infer(context.Background(), nil, &v); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("nil input: %v", err)
	}
	if err := b.Infer(context.Background(), &v, nil); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("nil output: %v", err)
	}
}
