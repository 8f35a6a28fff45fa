//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// The int8 GEMM micro-kernels of qgemm_amd64.s.

//go:noescape
func qkernVNNI(a *byte, lda int, b *byte, kg int, c *int32, ldc int, q *qCorr, s *qTileScale)

//go:noescape
func qkernVNNITaps(a *byte, lda int, b *byte, taps *int, ntaps int, kgt int, bstep int, c *int32, ldc int, q *qCorr)

//go:noescape
func interleave4AVX2(dst *byte, src *byte, ld int, n int, mask uint32)

//go:noescape
func qpackVNNI(dst *byte, src *byte, ld int, kg int, mask uint32, cs *int32)

//go:noescape
func qpackVNNIAVX2(dst *byte, src *byte, ld int, kg int, mask uint32, cs *int32)

//go:noescape
func qpackRowAVX2(dst *byte, src *byte, n int, mask uint32) int32

//go:noescape
func qpackPairsAVX2(dst *byte, src *byte, ld int, kg int, mask uint32, cs *int32)

//go:noescape
func qpackRowWideAVX2(dst *byte, src *byte, n int, mask uint32) int32

//go:noescape
func qpackRowVNNI(dst *byte, src *byte, n int, mask uint32) int32

//go:noescape
func qkern1VNNI(a *byte, b *byte, kg int, c *int32, q *qCorr)

//go:noescape
func qkernAVXVNNIQuarter(a *byte, lda int, b *byte, kg int, c *int32, ldc int, cb *int32, za *int32)

//go:noescape
func qkern1AVXVNNI(a *byte, b *byte, kg int, c *int32, q *qCorr)

//go:noescape
func qkernAVX2Half(a *byte, lda int, b *byte, kg int, c *int32, ldc int, cb *int32, za *int32)

// qLayoutVNNI and qLayoutAVX2 are the layouts the assembly kernels read.
var (
	qLayoutVNNI = qLayout{g: 4}
	qLayoutAVX2 = qLayout{g: 2, wide: true}
)

// qkernAsm lists the assembly kernels this CPU runs, best first.
var qkernAsm = func() []qKernel {
	var ks []qKernel
	if hasAVX512 && cpu.X86.HasAVX512VNNI {
		ks = append(ks, qKernel{name: "avx512vnni", l: qLayoutVNNI, run: qrunVNNI, runF: qrunVNNIF, run1: qrun1VNNI, runTaps: qrunTapsVNNI, pack: qpackRunVNNI})
	}
	if hasAVX2FMA && cpu.X86.HasAVXVNNI {
		ks = append(ks, qKernel{name: "avxvnni", l: qLayoutVNNI, run: qrunAVXVNNI, run1: qrun1AVXVNNI, pack: qpackRunVNNIAVX2})
	}
	if hasAVX2FMA {
		ks = append(ks, qKernel{name: "avx2", l: qLayoutAVX2, run: qrunAVX2, pack: qpackRunPairsAVX2})
	}
	return ks
}()

// qpackRowAsm lists the assembly A-row packers this CPU runs, best
// first: each packs the first n bytes (a multiple of 64) of an A row in
// the 4-group layout, each xor mask, and returns their sum as int8.
var qpackRowAsm = func() []func(dst, src []byte, n int, mask byte) int32 {
	var ps []func(dst, src []byte, n int, mask byte) int32
	if hasAVX512 && cpu.X86.HasAVX512VNNI {
		ps = append(ps, qpackRowRun)
	}
	if hasAVX2FMA {
		ps = append(ps, qpackRowRunAVX2)
	}
	return ps
}()

// qpackRowWide packs the first n bytes (a multiple of 16) of an A row
// for the AVX2 kernel, each xor mask and widened to int16, and returns
// their sum as int8; nil where the CPU lacks AVX2.
var qpackRowWide = func() func(dst, src []byte, n int, mask byte) int32 {
	if hasAVX2FMA {
		return qpackRowWideRun
	}
	return nil
}()

// qpackRowWideRun runs qpackRowWideAVX2.
func qpackRowWideRun(dst, src []byte, n int, mask byte) int32 {
	if n == 0 {
		return 0
	}
	_, _ = dst[2*n-1], src[n-1]
	return qpackRowWideAVX2(&dst[0], &src[0], n, uint32(mask)*0x01010101)
}

// qpackRow is the best of qpackRowAsm, nil where there is none.
var qpackRow = func() func(dst, src []byte, n int, mask byte) int32 {
	if len(qpackRowAsm) > 0 {
		return qpackRowAsm[0]
	}
	return nil
}()

// qpackRowRun runs qpackRowVNNI.
func qpackRowRun(dst, src []byte, n int, mask byte) int32 {
	if n == 0 {
		return 0
	}
	_, _ = dst[n-1], src[n-1]
	return qpackRowVNNI(&dst[0], &src[0], n, uint32(mask)*0x01010101)
}

// qpackRowRunAVX2 runs qpackRowAVX2.
func qpackRowRunAVX2(dst, src []byte, n int, mask byte) int32 {
	if n == 0 {
		return 0
	}
	_, _ = dst[n-1], src[n-1]
	return qpackRowAVX2(&dst[0], &src[0], n, uint32(mask)*0x01010101)
}

// qkernBest is the kernel the int8 GEMM uses, chosen once.
var qkernBest = func() qKernel {
	if len(qkernAsm) > 0 {
		return qkernAsm[0]
	}
	return qKernel{name: "go", l: qLayoutVNNI, run: qrunGo4, runTaps: qkernTapsGo}
}()

// qrunVNNI runs the VNNI kernel; the caller checked the operands' sizes.
func qrunVNNI(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr) {
	if kg == 0 {
		qkernGo(qLayoutVNNI, a, lda, b, kg, c, ldc, q)
		return
	}
	_ = a[7*lda+4*kg-1]
	_ = b[kg*128-1]
	_ = c[7*ldc+qNR-1]
	qkernVNNI(&a[0], lda, &b[0], kg, &c[0], ldc, q, nil)
}

// qrunVNNIF runs the VNNI kernel that stores float32 values scaled by
// s; the caller checked the operands' sizes.
func qrunVNNIF(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr, s *qTileScale) {
	if kg == 0 {
		qkernGo(qLayoutVNNI, a, lda, b, kg, c, ldc, q)
		s.apply(c, ldc, qMR)
		return
	}
	_ = a[7*lda+4*kg-1]
	_ = b[kg*128-1]
	_ = c[7*ldc+qNR-1]
	qkernVNNI(&a[0], lda, &b[0], kg, &c[0], ldc, q, s)
}

// qrunTapsVNNI runs the in-place VNNI kernel, checking that every step
// it reads lies in b.
func qrunTapsVNNI(a []byte, lda int, b []byte, taps []int, kgt, bstep int, c []int32, ldc int, q *qCorr) {
	if kgt == 0 || len(taps) == 0 {
		qkernTapsGo(a, lda, b, taps, kgt, bstep, c, ldc, q)
		return
	}
	_ = a[7*lda+4*kgt*len(taps)-1]
	_ = c[7*ldc+qNR-1]
	lo, hi := taps[0], taps[0]
	for _, off := range taps {
		lo, hi = min(lo, off), max(hi, off)
	}
	_ = b[lo]
	_ = b[hi+(kgt-1)*bstep+4*qNR-1]
	qkernVNNITaps(&a[0], lda, &b[0], &taps[0], len(taps), kgt, bstep, &c[0], ldc, q) // q may be nil
}

// qrun1VNNI runs the one-row VNNI kernel; the caller checked the
// operands' sizes.
func qrun1VNNI(a []byte, b []byte, kg int, c []int32, q *qCorr) {
	if kg == 0 {
		var t [qMR * qNR]int32
		qkernGo(qLayoutVNNI, a, 0, b, kg, t[:], qNR, q)
		copy(c[:qNR], t[:qNR])
		return
	}
	_ = a[4*kg-1]
	_ = b[kg*128-1]
	_ = c[qNR-1]
	qkern1VNNI(&a[0], &b[0], kg, &c[0], q)
}

// qrun1AVXVNNI runs the one-row AVX-VNNI kernel; the caller checked the
// operands' sizes.
func qrun1AVXVNNI(a []byte, b []byte, kg int, c []int32, q *qCorr) {
	if kg == 0 {
		var t [qMR * qNR]int32
		qkernGo(qLayoutVNNI, a, 0, b, kg, t[:], qNR, q)
		copy(c[:qNR], t[:qNR])
		return
	}
	_ = a[4*kg-1]
	_ = b[kg*128-1]
	_ = c[qNR-1]
	qkern1AVXVNNI(&a[0], &b[0], kg, &c[0], q)
}

// qrunAVX2 runs the AVX2 half kernel on the four quarters of the tile,
// each adding its part of the correction.
func qrunAVX2(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr) {
	if kg == 0 {
		qkernGo(qLayoutAVX2, a, lda, b, kg, c, ldc, q)
		return
	}
	_ = a[7*lda+4*kg-1]
	_ = b[kg*64-1]
	_ = c[7*ldc+qNR-1]
	qkernAVX2Half(&a[0], lda, &b[0], kg, &c[0], ldc, &q.cb[0], &q.za[0])
	qkernAVX2Half(&a[0], lda, &b[32], kg, &c[16], ldc, &q.cb[16], &q.za[0])
	qkernAVX2Half(&a[4*lda], lda, &b[0], kg, &c[4*ldc], ldc, &q.cb[0], &q.za[4])
	qkernAVX2Half(&a[4*lda], lda, &b[32], kg, &c[4*ldc+16], ldc, &q.cb[16], &q.za[4])
}

// qrunAVXVNNI runs the AVX-VNNI quarter kernel on the four quarters of
// the tile, each adding its part of the correction; the caller checked
// the operands' sizes.
func qrunAVXVNNI(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr) {
	if kg == 0 {
		qkernGo(qLayoutVNNI, a, lda, b, kg, c, ldc, q)
		return
	}
	_ = a[7*lda+4*kg-1]
	_ = b[kg*128-1]
	_ = c[7*ldc+qNR-1]
	qkernAVXVNNIQuarter(&a[0], lda, &b[0], kg, &c[0], ldc, &q.cb[0], &q.za[0])
	qkernAVXVNNIQuarter(&a[0], lda, &b[64], kg, &c[16], ldc, &q.cb[16], &q.za[0])
	qkernAVXVNNIQuarter(&a[4*lda], lda, &b[0], kg, &c[4*ldc], ldc, &q.cb[0], &q.za[4])
	qkernAVXVNNIQuarter(&a[4*lda], lda, &b[64], kg, &c[4*ldc+16], ldc, &q.cb[16], &q.za[4])
}

// qpackSized checks a panel packer's operands, kg groups of g rows of
// qNR bytes, and reports whether there is anything to pack; with nothing
// it clears the column sums.
func qpackSized(dst, src []byte, ld, kg, g int, cs []int32) bool {
	if kg == 0 {
		clear(cs[:qNR])
		return false
	}
	_ = dst[kg*g*qNR-1]
	_ = src[(g*kg-1)*ld+qNR-1]
	_ = cs[qNR-1]
	return true
}

// qpackRunVNNI runs qpackVNNI.
func qpackRunVNNI(dst, src []byte, ld, kg int, mask byte, cs []int32) {
	if qpackSized(dst, src, ld, kg, 4, cs) {
		qpackVNNI(&dst[0], &src[0], ld, kg, uint32(mask)*0x01010101, &cs[0])
	}
}

// qpackRunVNNIAVX2 runs qpackVNNIAVX2.
func qpackRunVNNIAVX2(dst, src []byte, ld, kg int, mask byte, cs []int32) {
	if qpackSized(dst, src, ld, kg, 4, cs) {
		qpackVNNIAVX2(&dst[0], &src[0], ld, kg, uint32(mask)*0x01010101, &cs[0])
	}
}

// qpackRunPairsAVX2 runs qpackPairsAVX2.
func qpackRunPairsAVX2(dst, src []byte, ld, kg int, mask byte, cs []int32) {
	if qpackSized(dst, src, ld, kg, 2, cs) {
		qpackPairsAVX2(&dst[0], &src[0], ld, kg, uint32(mask)*0x01010101, &cs[0])
	}
}

// interleave4 is interleave4Go, in AVX2 32 pixels at a time where the
// CPU has it.
func interleave4(dst, src []byte, ld, n int, mask byte) {
	if !hasAVX2FMA || n < qNR {
		interleave4Go(dst, src, ld, n, mask)
		return
	}
	_, _ = dst[4*n-1], src[3*ld+n-1]
	m32 := uint32(mask) * 0x01010101
	whole := n &^ (qNR - 1)
	interleave4AVX2(&dst[0], &src[0], ld, whole, m32)
	if whole < n {
		// The last 32 pixels again, overlapping.
		interleave4AVX2(&dst[4*(n-qNR)], &src[n-qNR], ld, qNR, m32)
	}
}
