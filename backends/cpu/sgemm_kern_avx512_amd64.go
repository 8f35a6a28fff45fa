//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// The AVX-512 micro-kernels of sgemm_kern_avx512_amd64.s, reading A in
// place; see tallKernels.

//go:noescape
func sgemmR8Q2DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR8Q1DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

// sgemmR8Q2DZP and sgemmR8Q1DZP are sgemmR8Q2DZ and sgemmR8Q1DZ that
// also prefetch their panels ahead (tallKernels.wideStream).
//
//go:noescape
func sgemmR8Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR8Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

// The shorter tiles (see tallKernels.short): sgemmRrQqDZ for r of 4 to
// 7 rows, and the prefetching forms sgemmRrQqDZP for r of 1 to 7.

//go:noescape
func sgemmR1Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR1Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR2Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR2Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR3Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR3Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR4Q2DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR4Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR4Q1DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR4Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR5Q2DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR5Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR5Q1DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR5Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR6Q2DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR6Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR6Q1DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR6Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR7Q2DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR7Q2DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR7Q1DZ(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR7Q1DZP(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR8Q2DZF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR8Q1DZF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR8Q2DZBF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

//go:noescape
func sgemmR8Q1DZBF16(kc int, a *float32, b *uint16, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

// The AVX-512 packed kernels for six rows (see microKernelOf): one and
// two panels.

//go:noescape
func sgemmR6Q1Z(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

//go:noescape
func sgemmR6Q2Z(kc int, a, b *float32, pstride int, c *float32, ldc int, add int)

// hasAVX512 reports whether the AVX-512 kernels can run here.
var hasAVX512 = hasAVX2FMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// avx512Tall returns the AVX-512 tall kernels.
func avx512Tall() tallKernels[float32] {
	t := tallKernels[float32]{rows: 8, q: 2, tallSet: tallSet[float32]{wide: sgemmR8Q2DZ, one: sgemmR8Q1DZ, wideStream: sgemmR8Q2DZP, oneStream: sgemmR8Q1DZP}}
	t.short[4] = tallSet[float32]{wide: sgemmR4Q2DZ, one: sgemmR4Q1DZ, wideStream: sgemmR4Q2DZP, oneStream: sgemmR4Q1DZP}
	t.short[5] = tallSet[float32]{wide: sgemmR5Q2DZ, one: sgemmR5Q1DZ, wideStream: sgemmR5Q2DZP, oneStream: sgemmR5Q1DZP}
	t.short[6] = tallSet[float32]{wide: sgemmR6Q2DZ, one: sgemmR6Q1DZ, wideStream: sgemmR6Q2DZP, oneStream: sgemmR6Q1DZP}
	t.short[7] = tallSet[float32]{wide: sgemmR7Q2DZ, one: sgemmR7Q1DZ, wideStream: sgemmR7Q2DZP, oneStream: sgemmR7Q1DZP}
	t.short[1] = tallSet[float32]{wide: sgemmR1Q2DZP, one: sgemmR1Q1DZP}
	t.short[2] = tallSet[float32]{wide: sgemmR2Q2DZP, one: sgemmR2Q1DZP}
	t.short[3] = tallSet[float32]{wide: sgemmR3Q2DZP, one: sgemmR3Q1DZP}
	t.minRows, t.fewRows = 4, 1
	return t
}

// avx512HalfTall returns the AVX-512 tall kernels for panels in format k.
func avx512HalfTall(k halfKind) tallKernels[uint16] {
	if k == halfF16 {
		return tallKernels[uint16]{rows: 8, q: 2, tallSet: tallSet[uint16]{wide: sgemmR8Q2DZF16, one: sgemmR8Q1DZF16}}
	}
	return tallKernels[uint16]{rows: 8, q: 2, tallSet: tallSet[uint16]{wide: sgemmR8Q2DZBF16, one: sgemmR8Q1DZBF16}}
}
