//go:build cuda && cgo

package cuda

import (
	"fmt"
	"testing"
)

// BenchmarkLaunch runs 1, 16 and 64 launches of the tiny add_one kernel
// per run, enqueued one by one or replayed as one captured graph: the
// difference is the launch overhead the graph saves.
func BenchmarkLaunch(b *testing.B) {
	g := requireGPU(b)
	fn := addOne(b, g)
	const n = 256
	f := newFixture(b, g, n)
	for _, launches := range []int{1, 16, 64} {
		for _, mode := range []string{"direct", "graph"} {
			b.Run(fmt.Sprintf("%s/%d", mode, launches), func(b *testing.B) {
				p := g.newProgram(f.s, nil)
				defer p.free()
				for range launches {
					launchAddOne(p, fn, f.x, f.x, n)
				}
				if mode == "graph" {
					if err := p.capture(); err != nil {
						b.Fatalf("p.capture: %v", err)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := g.run(p, nil, nil); err != nil {
						b.Fatalf("g.run: %v", err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*launches), "ns/launch")
			})
		}
	}
}

// BenchmarkPinnedRoundTrip copies 4 KiB host to device and back through
// pinned memory in one run.
func BenchmarkPinnedRoundTrip(b *testing.B) {
	g := requireGPU(b)
	f := newFixture(b, g, 1024)
	p := g.newProgram(f.s, nil)
	defer p.free()
	ins := f.ins()
	outs := []xfer{{dev: f.x, host: hostAddr(f.out), n: 4096, kind: xferD2H}}
	b.SetBytes(2 * 4096)
	b.ReportAllocs()
	for b.Loop() {
		if err := g.run(p, ins, outs); err != nil {
			b.Fatalf("g.run: %v", err)
		}
	}
}
