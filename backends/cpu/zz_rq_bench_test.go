package cpu

import "testing"

func BenchmarkZZRequantF32(b *testing.B) {
	acc := make([]float32, 131072)
	for i := range acc {
		acc[i] = float32(i%5000 - 2500)
	}
	dst := make([]byte, len(acc))
	for b.Loop() {
		requantF32Run(dst, acc, 0.013, 3, 0, 255)
	}
}

func BenchmarkZZQ8ToF32(b *testing.B) {
	src := make([]byte, 131072)
	dst := make([]float32, len(src))
	for b.Loop() {
		q8ToF32(dst, src, 3, 1, false)
	}
}
