//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// The half-weight micro-kernels of sgemm_kern_half_amd64.s (written by
// sgemm_kern_gen.go): the float32 kernels of sgemm_kern_amd64.s reading B
// panels of float16 (F16C's VCVTPH2PS) or bfloat16 (VPMOVZXWD, VPSLLD
// $16), with pstride and bstride in 16-bit elements; see microKernelOf.

//go:noescape
func sgemmR6Q1F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR5Q1F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR4Q1F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR3Q2F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR2Q3F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR1Q6F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR3Q1F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR2Q1F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR1Q1F16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR6Q1DF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int, lda int)

//go:noescape
func sgemvR1B4F16(kc int, a *float32, b *uint16, bstride int, dst *float32)

//go:noescape
func sgemmR6Q1BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR5Q1BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR4Q1BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR3Q2BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR2Q3BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR1Q6BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR3Q1BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR2Q1BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR1Q1BF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR6Q1DBF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int, lda int)

//go:noescape
func sgemvR1B4BF16(kc int, a *float32, b *uint16, bstride int, dst *float32)

// hasF16C reports whether the float16 assembly kernels can run here.
var hasF16C = hasAVX2FMA && cpu.X86.HasF16C

// asmHalfKernels returns the assembly kernels for panels in format k.
func asmHalfKernels(k halfKind) halfSet {
	if k == halfF16 {
		return halfSet{rows: [gemmMR]kernelRowOf[uint16]{
			{q: 6, wide: sgemmR1Q6F16, one: sgemmR1Q1F16},
			{q: 3, wide: sgemmR2Q3F16, one: sgemmR2Q1F16},
			{q: 2, wide: sgemmR3Q2F16, one: sgemmR3Q1F16},
			{q: 1, wide: sgemmR4Q1F16, one: sgemmR4Q1F16},
			{q: 1, wide: sgemmR5Q1F16, one: sgemmR5Q1F16},
			{q: 1, wide: sgemmR6Q1F16, one: sgemmR6Q1F16, direct: sgemmR6Q1DF16},
		}, rowBlocks4: sgemvR1B4F16, name: "avx2-fma-f16c"}
	}
	return halfSet{rows: [gemmMR]kernelRowOf[uint16]{
		{q: 6, wide: sgemmR1Q6BF16, one: sgemmR1Q1BF16},
		{q: 3, wide: sgemmR2Q3BF16, one: sgemmR2Q1BF16},
		{q: 2, wide: sgemmR3Q2BF16, one: sgemmR3Q1BF16},
		{q: 1, wide: sgemmR4Q1BF16, one: sgemmR4Q1BF16},
		{q: 1, wide: sgemmR5Q1BF16, one: sgemmR5Q1BF16},
		{q: 1, wide: sgemmR6Q1BF16, one: sgemmR6Q1BF16, direct: sgemmR6Q1DBF16},
	}, rowBlocks4: sgemvR1B4BF16, name: "avx2-fma"}
}

// hasHalfAsm reports whether the assembly kernels for k can run here.
func hasHalfAsm(k halfKind) bool {
	if k == halfF16 {
		return hasF16C
	}
	return hasAVX2FMA
}

func init() {
	for _, k := range []halfKind{halfF16, halfBF16} {
		if hasHalfAsm(k) {
			halfKernels[k] = asmHalfKernels(k)
			if hasAVX512 {
				halfKernels[k].rows[gemmMR-1].tall = avx512HalfTall(k)
				halfKernels[k].name = "avx512+" + halfKernels[k].name
			}
		} else {
			halfKernels[k] = goHalfKernels(k)
		}
	}
}
