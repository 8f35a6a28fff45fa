package cpu

import "testing"

func BenchmarkTmpRows(b *testing.B) {
	const planes, rows, w, vw = 256, 26, 28, 30
	src := make([]float32, planes*w*w+64)
	dst := make([]float32, planes*rows*vw+64)
	offs := []int{0, 28, 56}
	for i := range src { src[i] = float32(i%17) }
	b.Run("sum", func(b *testing.B) {
		for b.Loop() {
			poolRowsSum(dst, src, offs, w, rows, vw, w, planes, rows*vw, w*w, false)
		}
	})
	b.Run("max", func(b *testing.B) {
		for b.Loop() {
			poolRowsMax(dst, src, offs, w, rows, vw, w, planes, rows*vw, w*w, 0, false)
		}
	})
	b.Run("copy", func(b *testing.B) {
		for b.Loop() {
			copy(dst, src)
		}
	})
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			poolRowsSumGo(dst, src, offs, w, rows, vw, w, planes, rows*vw, w*w)
		}
	})
}
