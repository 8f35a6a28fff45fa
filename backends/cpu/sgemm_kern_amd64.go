//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:generate go run sgemm_kern_gen.go

// The AVX2+FMA micro-kernels of sgemm_kern_amd64.s; see microKernelOf.

//go:noescape
func sgemmR6Q1(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR5Q1(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR4Q1(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR3Q2(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR3Q1(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR2Q3(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR2Q1(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR1Q6(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR1Q1(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

// hasAVX2FMA reports whether the assembly kernels can run here.
var hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX

// asmKernels returns the assembly micro-kernels.
func asmKernels() [gemmMR]kernelRow {
	return [gemmMR]kernelRow{
		{q: 6, wide: sgemmR1Q6, one: sgemmR1Q1},
		{q: 3, wide: sgemmR2Q3, one: sgemmR2Q1},
		{q: 2, wide: sgemmR3Q2, one: sgemmR3Q1},
		{q: 1, wide: sgemmR4Q1, one: sgemmR4Q1},
		{q: 1, wide: sgemmR5Q1, one: sgemmR5Q1},
		{q: 1, wide: sgemmR6Q1, one: sgemmR6Q1, direct: sgemmR6Q1D},
	}
}

func init() {
	if hasAVX2FMA {
		microKernels, kernelName = asmKernels(), "avx2-fma"
		switch {
		case wide512:
			microKernels[gemmMR-1] = avx512Six(microKernels[gemmMR-1])
			kernelName = "avx512+avx2-fma"
		case hasAVX512:
			microKernels[gemmMR-1].tall = avx512Tall()
			kernelName = "avx512-tall+avx2-fma"
		}
		return
	}
	microKernels, kernelName = goKernels(), "go"
}

// avx512Six returns the kernels for six rows with AVX-512: packed rows
// two panels at a time, tall tiles for rows read in place; k's direct
// kernel stays for the tiles the tall ones do not cover.
func avx512Six(k kernelRow) kernelRow {
	k.q, k.wide, k.one = 2, sgemmR6Q2Z, sgemmR6Q1Z
	k.tall = avx512Tall()
	return k
}
