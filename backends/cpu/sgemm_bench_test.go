package cpu

import (
	"fmt"
	"testing"
)

// BenchmarkSgemm measures the packed SGEMM on square matrices (B packed
// per call, as for a product of two activations) and reports GFLOPS.
func BenchmarkSgemm(b *testing.B) {
	for _, sz := range []int{64, 256, 512, 1024} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/n%d/threads%d", kernelName, sz, threads), func(b *testing.B) {
				r := nnRng(1)
				x, y, z := nnRand(r, sz*sz), nnRand(r, sz*sz), make([]float32, sz*sz)
				pool := newWorkerPool(threads)
				defer pool.close()
				gc := newGemmCtx(pool)
				b.ReportAllocs()
				for b.Loop() {
					gc.sgemm(false, false, sz, sz, sz, 1, x, sz, y, sz, 0, z, sz)
				}
				b.ReportMetric(2*float64(sz*sz*sz)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}

// BenchmarkSgemmPrepacked measures products against a prepacked weight
// matrix, the shape of a dense layer: m rows by k inputs and n outputs.
func BenchmarkSgemmPrepacked(b *testing.B) {
	for _, s := range [][3]int{{1, 512, 784}, {64, 512, 784}, {256, 256, 256}} {
		m, n, k := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("m%d_n%d_k%d", m, n, k), func(b *testing.B) {
			r := nnRng(1)
			x, w, z := nnRand(r, m*k), nnRand(r, k*n), make([]float32, m*n)
			pw := prepackB(w, n, false, k, n)
			gc := newGemmCtx(nil)
			b.ReportAllocs()
			for b.Loop() {
				gc.run(m, n, k, 1, gemmA{data: x, ld: k}, gemmB{packed: pw}, 0, z, n)
			}
			b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
		for _, hk := range []halfKind{halfF16, halfBF16} {
			b.Run(fmt.Sprintf("m%d_n%d_k%d/%s", m, n, k, hk), func(b *testing.B) {
				r := nnRng(1)
				x, w, z := nnRand(r, m*k), nnRand(r, k*n), make([]float32, m*n)
				gb := gemmB{half: prepackBHalf(w, n, false, k, n, hk), hk: hk}
				gc := newGemmCtx(nil)
				b.ReportAllocs()
				for b.Loop() {
					gc.run(m, n, k, 1, gemmA{data: x, ld: k}, gb, 0, z, n)
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}

// BenchmarkMicroKernel measures the 6×16 micro-kernel alone on data in
// L1, the ceiling for the whole product.
func BenchmarkMicroKernel(b *testing.B) {
	for name, ks := range kernelSets() {
		b.Run(name, func(b *testing.B) {
			r := nnRng(1)
			a, p, c := nnRand(r, gemmKC*gemmMR), nnRand(r, gemmKC*gemmNR), make([]float32, gemmMR*gemmNR)
			k := ks[gemmMR-1].one
			for b.Loop() {
				k(gemmKC, &a[0], &p[0], gemmKC*gemmNR, &c[0], gemmNR, 1)
			}
			b.ReportMetric(2*float64(gemmKC*gemmMR*gemmNR)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// BenchmarkHalfMicroKernel measures the one-row wide kernel (the batch-1
// path) and the 6×16 kernel with float32, float16 and bfloat16 panels on
// data in L1: the cost of widening, apart from memory.
func BenchmarkHalfMicroKernel(b *testing.B) {
	r := nnRng(1)
	const q = 6
	a := nnRand(r, gemmKC*gemmMR)
	pf := nnRand(r, q*gemmKC*gemmNR)
	c := make([]float32, gemmMR*q*gemmNR)
	for _, rows := range []int{1, gemmMR} {
		qq := kernelPanels[rows-1]
		flops := 2 * float64(gemmKC*rows*qq*gemmNR)
		b.Run(fmt.Sprintf("r%d/f32", rows), func(b *testing.B) {
			k := microKernels[rows-1].wide
			for b.Loop() {
				k(gemmKC, &a[0], &pf[0], gemmKC*gemmNR, &c[0], qq*gemmNR, 1)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
		for _, hk := range []halfKind{halfF16, halfBF16} {
			ph := hk.narrowAll(pf)
			b.Run(fmt.Sprintf("r%d/%s", rows, hk), func(b *testing.B) {
				k := halfKernels[hk].rows[rows-1].wide
				for b.Loop() {
					k(gemmKC, &a[0], &ph[0], gemmKC*gemmNR, &c[0], qq*gemmNR, 1)
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}
