package bench

import (
	"fmt"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// weightTypes are the compute.Options.WeightType values the half-weight
// tests and benchmarks compare, with their short names.
var weightTypes = []struct {
	name string
	dt   payload.DType
}{{"f32", payload.Float32}, {"f16", payload.Float16}, {"bf16", payload.BF16}}

// relL2 returns ‖got − want‖₂ / ‖want‖₂.
func relL2(got, want []float32) float64 {
	var d, w float64
	for i := range want {
		e := float64(got[i]) - float64(want[i])
		d += e * e
		w += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(d / w)
}

// TestHalfWeightsError measures how far half-precision weights move each
// case's outputs from float32 weights (relative L2 error over the whole
// output) and checks it stays within the bounds the docs state.
func TestHalfWeightsError(t *testing.T) {
	bound := map[payload.DType]float64{payload.Float16: 2e-3, payload.BF16: 1e-2}
	for _, c := range cases() {
		if c.name == "mlp_784_512_512_10_b1" {
			continue // the b64 case covers it
		}
		ref := loadLintelWith(t, c, compute.Options{Threads: 1})
		ref.inferOne(t)
		for _, wt := range weightTypes[1:] {
			r := loadLintelWith(t, c, compute.Options{Threads: 1, WeightType: wt.dt})
			r.inferOne(t)
			e := relL2(r.out.Data, ref.out.Data)
			t.Logf("%s weights %s: relative L2 error %.2e", c.name, wt.name, e)
			if !(e <= bound[wt.dt]) {
				t.Errorf("%s weights %s: relative L2 error %.2e, want ≤ %.0e", c.name, wt.name, e, bound[wt.dt])
			}
		}
	}
}

// TestHalfWeightsAllocateNothing checks that InferOne and InferBatch
// allocate nothing with half weights, on one thread and on two, and that
// InferBatch gives each item the bits InferOne gives the whole batch.
func TestHalfWeightsAllocateNothing(t *testing.T) {
	for _, c := range cases() {
		if c.name != "mlp_784_512_512_10_b64" && c.name != "cnn_32x32_b1" {
			continue
		}
		for _, wt := range weightTypes[1:] {
			for _, threads := range []int{1, 2} {
				r := loadLintelWith(t, c, compute.Options{Threads: threads, WeightType: wt.dt})
				for name, f := range map[string]func(testing.TB){"InferOne": r.inferOne, "InferBatch": r.inferBatch} {
					f(t)
					if got := testing.AllocsPerRun(3, func() { f(t) }); got != 0 {
						t.Errorf("%s weights %s threads=%d %s: %v allocations per call", c.name, wt.name, threads, name, got)
					}
				}
				per := len(r.out.Data) / len(r.outs)
				for i, o := range r.outs {
					for j, v := range o.Data {
						if math.Float32bits(v) != math.Float32bits(r.out.Data[i*per+j]) {
							t.Fatalf("%s weights %s threads=%d: item %d element %d is %v in InferBatch, %v in InferOne", c.name, wt.name, threads, i, j, v, r.out.Data[i*per+j])
						}
					}
				}
			}
		}
	}
}

// BenchmarkHalfWeights measures InferOne on the MLP at batch 1 and 64
// and on the CNN with float32, float16 and bfloat16 weights, on one
// thread.
func BenchmarkHalfWeights(b *testing.B) {
	for _, c := range cases() {
		if c.name != "mlp_784_512_512_10_b1" && c.name != "mlp_784_512_512_10_b64" && c.name != "cnn_32x32_b1" {
			continue
		}
		for _, wt := range weightTypes {
			b.Run(fmt.Sprintf("%s/weights=%s", c.name, wt.name), func(b *testing.B) {
				r := loadLintelWith(b, c, compute.Options{Threads: 1, WeightType: wt.dt})
				r.inferOne(b)
				b.ReportAllocs()
				for b.Loop() {
					r.inferOne(b)
				}
			})
		}
	}
}
