//go:build amd64 && !purego

package cpu

import "testing"

// forPoolWidths runs f once with the AVX2 pooling kernels and once with
// the AVX-512 ones (poolAVX512, with the sixteen-lane kernels taking
// every row of sixteen or more, every 2×2 row of eight or more), skipping
// the latter where the CPU has no AVX-512.
func forPoolWidths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer func(v bool, w, m int) {
		poolAVX512, poolRows512Min, maxPool512Min = v, w, m
	}(poolAVX512, poolRows512Min, maxPool512Min)
	for _, tc := range []struct {
		name string
		wide bool
	}{{"avx2", false}, {"avx512", true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wide && !hasAVX512 {
				t.Skip("this CPU has no AVX-512: only the AVX2 pooling kernels run here")
			}
			poolAVX512, poolRows512Min, maxPool512Min = tc.wide, 16, 8
			f(t)
		})
	}
}

// benchPoolWidths runs f as sub-benchmarks with the AVX2 and, where the
// CPU has AVX-512, the AVX-512 pooling kernels (taking every row they
// can, to time them where the wrappers do not pick them).
func benchPoolWidths(b *testing.B, f func(b *testing.B)) {
	defer func(v bool, w, m int) {
		poolAVX512, poolRows512Min, maxPool512Min = v, w, m
	}(poolAVX512, poolRows512Min, maxPool512Min)
	for _, wide := range []bool{false, true} {
		if wide && !hasAVX512 {
			continue
		}
		name := "avx2"
		if wide {
			name = "avx512"
		}
		b.Run(name, func(b *testing.B) {
			poolAVX512, poolRows512Min, maxPool512Min = wide, 16, 8
			f(b)
		})
	}
}
