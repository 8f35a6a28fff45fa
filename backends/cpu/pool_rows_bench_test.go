package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkPoolRows times the pooling's row kernels alone, with each
// width of kernels this build has, on about 2048 outputs (in L1) and
// 12288 (in L2, as the separable pooling's blocks): the three-tap max
// fold on rows of several widths (under eight packed, as the separable
// pooling lays them) and the whole-row 2×2 stride-2 MaxPool.
func BenchmarkPoolRows(b *testing.B) {
	r := rand.New(rand.NewPCG(53, 54))
	src := randF32s(r, 1<<17, 2)
	dst := make([]float32, 1<<16)
	offs := []int{0, 1, 2}
	for _, sz := range []int{2048, 12288} {
		for _, w := range []int{7, 28, 56, 112, 128, 192, 256} {
			rows := sz / w
			b.Run(fmt.Sprintf("max %d w%d", sz, w), func(b *testing.B) {
				benchPoolWidths(b, func(b *testing.B) {
					for b.Loop() {
						poolRowsMax(dst, src, offs, w, rows, w, w+2, 1, 0, 0, -math.MaxFloat32, true)
					}
				})
			})
		}
		for _, n := range []int{8, 24, 56, 112} {
			b.Run(fmt.Sprintf("maxpool2x2 %d n%d", sz, n), func(b *testing.B) {
				benchPoolWidths(b, func(b *testing.B) {
					for b.Loop() {
						maxPool2x2S2Rows(dst, src, n, sz/n, 2*n, -math.MaxFloat32)
					}
				})
			})
		}
	}
}
