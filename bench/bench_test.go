package bench

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
)

// lintelRunner is a loaded case: the model, its input and its output.
type lintelRunner struct {
	m   compute.ComputeModel[f32, f32]
	in  f32
	out f32
	// items and outs are the same input split into batch items.
	items, outs []f32
}

// loadLintel loads c with threads threads and a random input.
func loadLintel(tb testing.TB, c benchCase, threads int) *lintelRunner {
	tb.Helper()
	return loadLintelWith(tb, c, compute.Options{Threads: threads})
}

// loadLintelWith loads c with opts and a random input.
func loadLintelWith(tb testing.TB, c benchCase, opts compute.Options) *lintelRunner {
	tb.Helper()
	art, err := artifacts.FromBytes(c.onnx, c.name)
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := backends.New[f32, f32](opts).LoadModel(art)
	if err != nil {
		tb.Fatalf("LoadModel: %v", err)
	}
	if err := m.Init(); err != nil {
		tb.Fatalf("m.Init: %v", err)
	}
	tb.Cleanup(func() { _ = m.Close() })
	n := 1
	for _, d := range c.in {
		n *= d
	}
	r := &lintelRunner{m: m, in: f32{Shape: c.in, Data: testmodels.Uniform(testmodels.Rand(9), n, 1)}}
	per := n / c.in[0]
	item := append([]int{1}, c.in[1:]...)
	for i := range c.in[0] {
		r.items = append(r.items, f32{Shape: item, Data: r.in.Data[i*per : (i+1)*per]})
	}
	r.outs = make([]f32, len(r.items))
	return r
}

// inferOne runs the whole input as one tensor.
func (r *lintelRunner) inferOne(tb testing.TB) {
	if err := r.m.InferOne(&r.in, &r.out); err != nil {
		tb.Fatalf("r.m.InferOne: %v", err)
	}
}

// inferBatch runs the input's items as one batch.
func (r *lintelRunner) inferBatch(tb testing.TB) {
	if err := r.m.InferBatch(batch.Of(r.items), r.outs); err != nil {
		tb.Fatalf("r.m.InferBatch: %v", err)
	}
}

// BenchmarkCases measures InferOne on every case, on one and two threads.
func BenchmarkCases(b *testing.B) {
	for _, c := range cases() {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				r := loadLintel(b, c, threads)
				r.inferOne(b)
				b.ReportAllocs()
				for b.Loop() {
					r.inferOne(b)
				}
			})
		}
	}
}

// BenchmarkInferBatch measures InferBatch over the items of the batched
// cases.
func BenchmarkInferBatch(b *testing.B) {
	for _, c := range cases() {
		if c.batch == 1 {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			r := loadLintel(b, c, 1)
			r.inferBatch(b)
			b.ReportAllocs()
			for b.Loop() {
				r.inferBatch(b)
			}
		})
	}
}

// TestCasesAllocateNothing checks that InferOne and InferBatch allocate
// nothing after the first call, on one thread and on two.
func TestCasesAllocateNothing(t *testing.T) {
	for _, c := range cases() {
		for _, threads := range []int{1, 2} {
			r := loadLintel(t, c, threads)
			for name, f := range map[string]func(testing.TB){"InferOne": r.inferOne, "InferBatch": r.inferBatch} {
				f(t)
				if got := testing.AllocsPerRun(3, func() { f(t) }); got != 0 {
					t.Errorf("%s threads=%d %s: %v allocations per call", c.name, threads, name, got)
				}
			}
		}
	}
}

// TestThreadsAgree checks that two threads give the same bits as one.
func TestThreadsAgree(t *testing.T) {
	for _, c := range cases() {
		one, two := loadLintel(t, c, 1), loadLintel(t, c, 2)
		one.inferOne(t)
		two.inferOne(t)
		for i, v := range one.out.Data {
			if v != two.out.Data[i] {
				t.Fatalf("%s: element %d is %v on one thread, %v on two", c.name, i, v, two.out.Data[i])
			}
		}
	}
}
