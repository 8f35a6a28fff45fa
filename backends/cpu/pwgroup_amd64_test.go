//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math"
	"testing"
)

// TestPwGroupMatchesGo checks pwGroup's assembly kernels (AVX2, and
// AVX-512 where the CPU has it) against pwGroupGo on random inputs for
// every input channel count each kernel takes, several output counts
// and position counts around the vector widths (tails included), Relu
// or none, with
// guard cells around and between the output rows. The assembly fuses
// each product into its add, so the two agree to a few ulps, not bit
// for bit.
func TestPwGroupMatchesGo(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no AVX2 and FMA on this CPU: the kernel would be compared with itself")
	}
	defer func(v bool) { pwGroupAVX512 = v }(pwGroupAVX512)
	kernels := []struct {
		name  string
		z     bool
		minN  int
		maxCg int
	}{{"avx2", false, 8, 14}, {"avx512", true, 16, 16}}
	r := nnRng(21)
	const guard = 5
	for _, kn := range kernels {
		if kn.z && !hasAVX512 {
			continue
		}
		pwGroupAVX512 = kn.z
		for cg := 1; cg <= kn.maxCg; cg++ {
			for _, mg := range []int{1, 2, 3, 4, 7, 16, 32} {
				for _, n := range []int{kn.minN, kn.minN + 1, 2*kn.minN - 1, 2 * kn.minN, 2*kn.minN + 3, 100} {
					name := fmt.Sprintf("%s cg=%d mg=%d n=%d", kn.name, cg, mg, n)
					xs, ys := n+3, n+guard
					x, w, b := nnRand(r, (cg-1)*xs+n), nnRand(r, mg*cg), nnRand(r, mg)
					y0 := nnRand(r, guard+(mg-1)*ys+n+guard)
					relu := (cg+mg+n)%2 == 1
					name += fmt.Sprintf(" relu=%t", relu)
					got, want := append([]float32(nil), y0...), append([]float32(nil), y0...)
					pwGroup(x, xs, w, b, got[guard:], ys, n, cg, mg, relu)
					pwGroupGo(x, xs, w, b, want[guard:], ys, n, cg, mg, relu)
					for j := range got {
						o, p := (j-guard)/ys, (j-guard)%ys
						if j < guard || o >= mg || p >= n {
							if got[j] != y0[j] {
								t.Fatalf("%s: guard cell %d written", name, j-guard)
							}
							continue
						}
						if d := math.Abs(float64(got[j] - want[j])); d > 1e-6*float64(cg+1)*(1+math.Abs(float64(want[j]))) {
							t.Fatalf("%s: output %d at %d is %v, want %v", name, o, p, got[j], want[j])
						}
					}
				}
			}
		}
	}
}

// TestConvGroupedPointwiseAVX2 runs TestConvGroupedPointwise's checks on
// the AVX2 kernel where the AVX-512 one would run.
func TestConvGroupedPointwiseAVX2(t *testing.T) {
	if !pwGroupAVX512 || !hasAVX2FMA {
		t.Skip("TestConvGroupedPointwise runs the AVX2 kernel, or none, on this CPU")
	}
	defer func(v bool) { pwGroupAVX512 = v }(pwGroupAVX512)
	pwGroupAVX512 = false
	checkConvGroupedPointwise(t)
}
