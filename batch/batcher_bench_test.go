package batch

import (
	"context"
	"testing"
)

// BenchmarkInferOverhead measures what the batcher itself costs per
// request, over a model that does no work: the handoff to a worker and
// back, with allocations (-benchmem).
func BenchmarkInferOverhead(b *testing.B) {
	bt, err := NewBatcher[int, int]([]*fake{{}, {}}, Options{MaxBatch: 64})
	if err != nil {
		b.Fatalf("NewBatcher: %v", err)
	}
	defer bt.Close()
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		in, out := 1, 0
		for pb.Next() {
			if err := bt.Infer(ctx, &in, &out); err != nil {
				b.Errorf("bt.Infer: %v", err)
				return
			}
		}
	})
	b.ReportMetric(bt.Stats().MeanBatch(), "items/batch")
}
