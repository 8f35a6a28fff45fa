package bench

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
)

// server answers one request; each strategy of serving concurrent callers
// is one.
type server interface {
	infer(in, out *f32) error
	close()
	// meanBatch is the mean number of requests per model call.
	meanBatch() float64
}

// mutexServer guards one model with a mutex.
type mutexServer struct {
	mu sync.Mutex
	m  *backends.Model[f32, f32]
}

func (s *mutexServer) infer(in, out *f32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.InferOne(in, out)
}

func (s *mutexServer) close()             {}
func (s *mutexServer) meanBatch() float64 { return 1 }

// poolServer lends whole instances, one caller at a time each.
type poolServer struct {
	free chan *backends.Model[f32, f32]
}

func (s *poolServer) infer(in, out *f32) error {
	m := <-s.free
	defer func() { s.free <- m }()
	return m.InferOne(in, out)
}

func (s *poolServer) close()             {}
func (s *poolServer) meanBatch() float64 { return 1 }

// batchServer sends requests through a batch.Batcher.
type batchServer struct {
	b *batch.Batcher[f32, f32, *backends.Model[f32, f32]]
}

func (s *batchServer) infer(in, out *f32) error {
	return s.b.Infer(context.Background(), in, out)
}

func (s *batchServer) close()             { s.b.Close() }
func (s *batchServer) meanBatch() float64 { return s.b.Stats().MeanBatch() }

// BenchmarkServe serves the MLP 784-512-512-10 to concurrent callers, each
// sending one [1, 784] request at a time, three ways: a batch.Batcher over
// GOMAXPROCS instances, one mutex-guarded instance, and a pool of
// GOMAXPROCS instances. It reports requests per second, the median and
// 99th percentile latency, the mean batch size and the process CPU time
// per request (which, unlike wall time, other load on the machine barely
// changes).
func BenchmarkServe(b *testing.B) {
	art, err := artifacts.FromBytes(testmodels.MLP(), "mlp")
	if err != nil {
		b.Fatalf("artifacts.FromBytes: %v", err)
	}
	be := backends.New[f32, f32](compute.Options{Threads: 1})
	n := runtime.GOMAXPROCS(0)
	models := make([]*backends.Model[f32, f32], n)
	for i := range models {
		if models[i], err = be.LoadModel(art); err != nil {
			b.Fatal(err)
		}
		if err := models[i].Init(); err != nil {
			b.Fatalf("models[i].Init: %v", err)
		}
		defer models[i].Close()
	}
	strategies := []struct {
		name string
		make func() server
	}{
		{"batcher", func() server {
			bt, err := batch.NewBatcher[f32, f32](models, batch.Options{MaxBatch: 64, MaxDelay: 500 * time.Microsecond, QueueSize: 4096})
			if err != nil {
				b.Fatalf("batch.NewBatcher: %v", err)
			}
			return &batchServer{b: bt}
		}},
		{"mutex", func() server { return &mutexServer{m: models[0]} }},
		{"pool", func() server {
			s := &poolServer{free: make(chan *backends.Model[f32, f32], n)}
			for _, m := range models {
				s.free <- m
			}
			return s
		}},
	}
	for _, conc := range []int{1, 16, 200, 256} {
		for _, st := range strategies {
			b.Run(fmt.Sprintf("conc=%d/%s", conc, st.name), func(b *testing.B) {
				s := st.make()
				defer s.close()
				serve(b, s, conc)
			})
		}
	}
}

// serve runs b.N requests (at least one per caller) from conc callers in
// closed loops and reports req/s, p50 and p99.
func serve(b *testing.B, s server, conc int) {
	each := max(b.N/conc, 1)
	lat := make([][]time.Duration, conc)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for c := range conc {
		lat[c] = make([]time.Duration, 0, each)
		wg.Go(func() {
			in := f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
			for j := range in.Data {
				in.Data[j] = float32((c+j)%13) * 0.1
			}
			var out f32
			<-start
			for range each {
				t0 := time.Now()
				if err := s.infer(&in, &out); err != nil {
					b.Errorf("s.infer: %v", err)
					return
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		})
	}
	b.ResetTimer()
	t0, c0 := time.Now(), cpuTime()
	close(start)
	wg.Wait()
	took, cpu := time.Since(t0), cpuTime()-c0
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/took.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(s.meanBatch(), "items/batch")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(all)), "cpu-µs/req")
	b.ReportMetric(0, "ns/op")
}
