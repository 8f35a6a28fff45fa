//go:build amd64 && !purego

#include "textflag.h"

// The int8 GEMM micro-kernels (qgemm.go, ADR 0029). Both compute an
// exact int32 tile of signed A (broadcast) times unsigned B (panel).

// The 8×32 VNNI tile's parts, shared by its kernels: zero the 16
// accumulators Z0-Z15; one step of 4 values of k (A at SI, rows R8 bytes
// apart with R9 = 3, R10 = 5, R11 = 7 rows; B's 128 bytes at DI); add
// the zero point correction q at BX; store to C at DX, R8 = ldc int32s.
#define VNNI_ZERO \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	VPXORD Z4, Z4, Z4; \
	VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; \
	VPXORD Z7, Z7, Z7; \
	VPXORD Z8, Z8, Z8; \
	VPXORD Z9, Z9, Z9; \
	VPXORD Z10, Z10, Z10; \
	VPXORD Z11, Z11, Z11; \
	VPXORD Z12, Z12, Z12; \
	VPXORD Z13, Z13, Z13; \
	VPXORD Z14, Z14, Z14; \
	VPXORD Z15, Z15, Z15

#define VNNI_STEP \
	VMOVDQU32 (DI), Z30; \
	VMOVDQU32 64(DI), Z31; \
	VPBROADCASTD (SI), Z20; \
	VPDPBUSD Z20, Z30, Z0; \
	VPDPBUSD Z20, Z31, Z1; \
	VPBROADCASTD (SI)(R8*1), Z21; \
	VPDPBUSD Z21, Z30, Z2; \
	VPDPBUSD Z21, Z31, Z3; \
	VPBROADCASTD (SI)(R8*2), Z22; \
	VPDPBUSD Z22, Z30, Z4; \
	VPDPBUSD Z22, Z31, Z5; \
	VPBROADCASTD (SI)(R9*1), Z23; \
	VPDPBUSD Z23, Z30, Z6; \
	VPDPBUSD Z23, Z31, Z7; \
	VPBROADCASTD (SI)(R8*4), Z20; \
	VPDPBUSD Z20, Z30, Z8; \
	VPDPBUSD Z20, Z31, Z9; \
	VPBROADCASTD (SI)(R10*1), Z21; \
	VPDPBUSD Z21, Z30, Z10; \
	VPDPBUSD Z21, Z31, Z11; \
	VPBROADCASTD (SI)(R9*2), Z22; \
	VPDPBUSD Z22, Z30, Z12; \
	VPDPBUSD Z22, Z31, Z13; \
	VPBROADCASTD (SI)(R11*1), Z23; \
	VPDPBUSD Z23, Z30, Z14; \
	VPDPBUSD Z23, Z31, Z15

#define VNNI_CORR \
	VMOVDQU32 (BX), Z20; \
	VMOVDQU32 64(BX), Z21; \
	VMOVDQU32 128(BX), Z22; \
	VMOVDQU32 192(BX), Z23; \
	VPMULLD.BCST 256(BX), Z20, Z24; \
	VPMULLD.BCST 256(BX), Z21, Z25; \
	VPMULLD.BCST 288(BX), Z22, Z26; \
	VPMULLD.BCST 288(BX), Z23, Z27; \
	VPADDD Z24, Z0, Z0; \
	VPADDD Z25, Z1, Z1; \
	VPADDD Z26, Z0, Z0; \
	VPADDD Z27, Z1, Z1; \
	VPMULLD.BCST 260(BX), Z20, Z24; \
	VPMULLD.BCST 260(BX), Z21, Z25; \
	VPMULLD.BCST 292(BX), Z22, Z26; \
	VPMULLD.BCST 292(BX), Z23, Z27; \
	VPADDD Z24, Z2, Z2; \
	VPADDD Z25, Z3, Z3; \
	VPADDD Z26, Z2, Z2; \
	VPADDD Z27, Z3, Z3; \
	VPMULLD.BCST 264(BX), Z20, Z24; \
	VPMULLD.BCST 264(BX), Z21, Z25; \
	VPMULLD.BCST 296(BX), Z22, Z26; \
	VPMULLD.BCST 296(BX), Z23, Z27; \
	VPADDD Z24, Z4, Z4; \
	VPADDD Z25, Z5, Z5; \
	VPADDD Z26, Z4, Z4; \
	VPADDD Z27, Z5, Z5; \
	VPMULLD.BCST 268(BX), Z20, Z24; \
	VPMULLD.BCST 268(BX), Z21, Z25; \
	VPMULLD.BCST 300(BX), Z22, Z26; \
	VPMULLD.BCST 300(BX), Z23, Z27; \
	VPADDD Z24, Z6, Z6; \
	VPADDD Z25, Z7, Z7; \
	VPADDD Z26, Z6, Z6; \
	VPADDD Z27, Z7, Z7; \
	VPMULLD.BCST 272(BX), Z20, Z24; \
	VPMULLD.BCST 272(BX), Z21, Z25; \
	VPMULLD.BCST 304(BX), Z22, Z26; \
	VPMULLD.BCST 304(BX), Z23, Z27; \
	VPADDD Z24, Z8, Z8; \
	VPADDD Z25, Z9, Z9; \
	VPADDD Z26, Z8, Z8; \
	VPADDD Z27, Z9, Z9; \
	VPMULLD.BCST 276(BX), Z20, Z24; \
	VPMULLD.BCST 276(BX), Z21, Z25; \
	VPMULLD.BCST 308(BX), Z22, Z26; \
	VPMULLD.BCST 308(BX), Z23, Z27; \
	VPADDD Z24, Z10, Z10; \
	VPADDD Z25, Z11, Z11; \
	VPADDD Z26, Z10, Z10; \
	VPADDD Z27, Z11, Z11; \
	VPMULLD.BCST 280(BX), Z20, Z24; \
	VPMULLD.BCST 280(BX), Z21, Z25; \
	VPMULLD.BCST 312(BX), Z22, Z26; \
	VPMULLD.BCST 312(BX), Z23, Z27; \
	VPADDD Z24, Z12, Z12; \
	VPADDD Z25, Z13, Z13; \
	VPADDD Z26, Z12, Z12; \
	VPADDD Z27, Z13, Z13; \
	VPMULLD.BCST 284(BX), Z20, Z24; \
	VPMULLD.BCST 284(BX), Z21, Z25; \
	VPMULLD.BCST 316(BX), Z22, Z26; \
	VPMULLD.BCST 316(BX), Z23, Z27; \
	VPADDD Z24, Z14, Z14; \
	VPADDD Z25, Z15, Z15; \
	VPADDD Z26, Z14, Z14; \
	VPADDD Z27, Z15, Z15

#define VNNI_STORE \
	SHLQ $2, R8; \
	LEAQ (R8)(R8*2), R9; \
	LEAQ (R8)(R8*4), R10; \
	LEAQ (R9)(R8*4), R11; \
	VMOVDQU32 Z0, (DX); \
	VMOVDQU32 Z1, 64(DX); \
	VMOVDQU32 Z2, (DX)(R8*1); \
	VMOVDQU32 Z3, 64(DX)(R8*1); \
	VMOVDQU32 Z4, (DX)(R8*2); \
	VMOVDQU32 Z5, 64(DX)(R8*2); \
	VMOVDQU32 Z6, (DX)(R9*1); \
	VMOVDQU32 Z7, 64(DX)(R9*1); \
	VMOVDQU32 Z8, (DX)(R8*4); \
	VMOVDQU32 Z9, 64(DX)(R8*4); \
	VMOVDQU32 Z10, (DX)(R10*1); \
	VMOVDQU32 Z11, 64(DX)(R10*1); \
	VMOVDQU32 Z12, (DX)(R9*2); \
	VMOVDQU32 Z13, 64(DX)(R9*2); \
	VMOVDQU32 Z14, (DX)(R11*1); \
	VMOVDQU32 Z15, 64(DX)(R11*1)


// VNNI_FLOAT turns the 16 accumulators into float32 values scaled by the
// qTileScale at BX: float32(sum)·mult[j], then + bias[j] when its flag
// is set, rounded apart as qScaleRowGo rounds them.
#define VNNI_FLOAT \
	VMOVUPS (BX), Z20; \
	VMOVUPS 64(BX), Z21; \
	VCVTDQ2PS Z0, Z0; \
	VCVTDQ2PS Z1, Z1; \
	VCVTDQ2PS Z2, Z2; \
	VCVTDQ2PS Z3, Z3; \
	VCVTDQ2PS Z4, Z4; \
	VCVTDQ2PS Z5, Z5; \
	VCVTDQ2PS Z6, Z6; \
	VCVTDQ2PS Z7, Z7; \
	VCVTDQ2PS Z8, Z8; \
	VCVTDQ2PS Z9, Z9; \
	VCVTDQ2PS Z10, Z10; \
	VCVTDQ2PS Z11, Z11; \
	VCVTDQ2PS Z12, Z12; \
	VCVTDQ2PS Z13, Z13; \
	VCVTDQ2PS Z14, Z14; \
	VCVTDQ2PS Z15, Z15; \
	VMULPS Z20, Z0, Z0; \
	VMULPS Z21, Z1, Z1; \
	VMULPS Z20, Z2, Z2; \
	VMULPS Z21, Z3, Z3; \
	VMULPS Z20, Z4, Z4; \
	VMULPS Z21, Z5, Z5; \
	VMULPS Z20, Z6, Z6; \
	VMULPS Z21, Z7, Z7; \
	VMULPS Z20, Z8, Z8; \
	VMULPS Z21, Z9, Z9; \
	VMULPS Z20, Z10, Z10; \
	VMULPS Z21, Z11, Z11; \
	VMULPS Z20, Z12, Z12; \
	VMULPS Z21, Z13, Z13; \
	VMULPS Z20, Z14, Z14; \
	VMULPS Z21, Z15, Z15

#define VNNI_BIAS \
	VMOVUPS 128(BX), Z22; \
	VMOVUPS 192(BX), Z23; \
	VADDPS Z22, Z0, Z0; \
	VADDPS Z23, Z1, Z1; \
	VADDPS Z22, Z2, Z2; \
	VADDPS Z23, Z3, Z3; \
	VADDPS Z22, Z4, Z4; \
	VADDPS Z23, Z5, Z5; \
	VADDPS Z22, Z6, Z6; \
	VADDPS Z23, Z7, Z7; \
	VADDPS Z22, Z8, Z8; \
	VADDPS Z23, Z9, Z9; \
	VADDPS Z22, Z10, Z10; \
	VADDPS Z23, Z11, Z11; \
	VADDPS Z22, Z12, Z12; \
	VADDPS Z23, Z13, Z13; \
	VADDPS Z22, Z14, Z14; \
	VADDPS Z23, Z15, Z15

// func qkernVNNI(a *byte, lda int, b *byte, kg int, c *int32, ldc int, q *qCorr, s *qTileScale)
//
// An 8×32 tile by AVX-512 VNNI: each step of 4 values of k, VPDPBUSD
// adds the four products of a row's 4 int8 A values (broadcast) with a
// column's 4 uint8 B values into the column's int32 lane; products and
// sums wrap as int32, nothing saturates. The store adds the zero point
// correction q: za[r]·cb[j] + rs[r]·zb[j] (VPMULLD, wrapping). With s
// set the tile is stored as float32 values scaled by s (VNNI_FLOAT; the
// bytes of C hold float32s after it), else as int32 sums.
TEXT ·qkernVNNI(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ kg+24(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R8)(R8*4), R10
	LEAQ (R9)(R8*4), R11
	VNNI_ZERO
	TESTQ CX, CX
	JEQ vnni_corr
vnni_loop:
	VNNI_STEP
	ADDQ $4, SI
	ADDQ $128, DI
	DECQ CX
	JNE vnni_loop
vnni_corr:
	MOVQ q+48(FP), BX
	VNNI_CORR
	MOVQ s+56(FP), BX
	TESTQ BX, BX
	JEQ vnni_store
	VNNI_FLOAT
	MOVQ 256(BX), AX
	TESTQ AX, AX
	JEQ vnni_store
	VNNI_BIAS
vnni_store:
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	VNNI_STORE
	VZEROUPPER
	RET

// func qkernVNNITaps(a *byte, lda int, b *byte, taps *int, ntaps int, kgt int, bstep int, c *int32, ldc int, q *qCorr)
//
// qkernVNNI with B read in place from a convolution's padded input
// (op_qconv_wide.go): B's step s of tap t is the 128 bytes at
// b+taps[t]+s·bstep, kgt steps a tap; A runs on through the taps. A nil
// q adds no correction.
TEXT ·qkernVNNITaps(SB), NOSPLIT, $0-80
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), AX
	MOVQ taps+24(FP), BX
	MOVQ ntaps+32(FP), DX
	MOVQ kgt+40(FP), R12
	MOVQ bstep+48(FP), R13
	LEAQ (R8)(R8*2), R9
	LEAQ (R8)(R8*4), R10
	LEAQ (R9)(R8*4), R11
	VNNI_ZERO
	TESTQ DX, DX
	JEQ taps_store
taps_tap:
	MOVQ (BX), DI
	ADDQ AX, DI
	MOVQ R12, CX
	TESTQ CX, CX
	JEQ taps_next
taps_loop:
	VNNI_STEP
	ADDQ $4, SI
	ADDQ R13, DI
	DECQ CX
	JNE taps_loop
taps_next:
	ADDQ $8, BX
	DECQ DX
	JNE taps_tap
taps_store:
	MOVQ q+72(FP), BX
	TESTQ BX, BX
	JEQ taps_nocorr
	VNNI_CORR
taps_nocorr:
	MOVQ c+56(FP), DX
	MOVQ ldc+64(FP), R8
	VNNI_STORE
	VZEROUPPER
	RET


// QCORR_YMM adds row off/4's zero point correction to its two ymm
// accumulators (16 columns): za at off(R10), rs at 32+off(R10), cb in Y0
// and Y1, zb in Y2 and Y3 (qkernAVX2Half, qkernAVXVNNIQuarter).
#define QCORR_YMM(off, lo, hi) \
	VPBROADCASTD off(R10), Y4 \
	VPBROADCASTD 32+off(R10), Y5 \
	VPMULLD Y0, Y4, Y6 \
	VPMULLD Y2, Y5, Y7 \
	VPADDD Y6, Y7, Y6 \
	VPADDD Y6, lo, lo \
	VPMULLD Y1, Y4, Y6 \
	VPMULLD Y3, Y5, Y7 \
	VPADDD Y6, Y7, Y6 \
	VPADDD Y6, hi, hi

// QTILE4X16_STORE ends qkernAVX2Half and qkernAVXVNNIQuarter: it adds the
// quarter's correction (BX at its columns' sums, R10 at its rows') to the
// 4×16 tile in Y8..Y15, two ymm a row, and stores the tile at DX, R8
// int32 a row.
#define QTILE4X16_STORE \
	VMOVDQU (BX), Y0 \
	VMOVDQU 32(BX), Y1 \
	VMOVDQU 128(BX), Y2 \
	VMOVDQU 160(BX), Y3 \
	QCORR_YMM(0, Y8, Y9) \
	QCORR_YMM(4, Y10, Y11) \
	QCORR_YMM(8, Y12, Y13) \
	QCORR_YMM(12, Y14, Y15) \
	SHLQ $2, R8 \
	LEAQ (R8)(R8*2), R9 \
	VMOVDQU Y8, (DX) \
	VMOVDQU Y9, 32(DX) \
	VMOVDQU Y10, (DX)(R8*1) \
	VMOVDQU Y11, 32(DX)(R8*1) \
	VMOVDQU Y12, (DX)(R8*2) \
	VMOVDQU Y13, 32(DX)(R8*2) \
	VMOVDQU Y14, (DX)(R9*1) \
	VMOVDQU Y15, 32(DX)(R9*1)

// func qkernAVX2Half(a *byte, lda int, b *byte, kg int, c *int32, ldc int, cb *int32, za *int32)
//
// A 4×16 tile by AVX2 (half of an 8×32 tile): A packed as int16 pairs,
// B panels of 2 values of k a column, 64 bytes a step (this kernel
// reads 32 of them). VPMOVZXBW widens B's uint8 to int16 and VPMADDWD
// adds each column's two int16 products into int32: |product| ≤
// 128·255, so the pair sum fits and nothing saturates (VPMADDUBSW's
// int16 sum of two u8·s8 products could, and is not used). Before the
// store it adds the tile's share of the zero point correction, as
// qkernAVXVNNIQuarter does (cb at the half's column sums, za at the
// quarter's rows).
TEXT ·qkernAVX2Half(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ kg+24(FP), CX
	LEAQ (R8)(R8*2), R9
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15
	TESTQ CX, CX
	JEQ avx2_store
avx2_loop:
	VPMOVZXBW (DI), Y0
	VPMOVZXBW 16(DI), Y1
	VPBROADCASTD (SI), Y2
	VPMADDWD Y0, Y2, Y3
	VPMADDWD Y1, Y2, Y4
	VPADDD Y3, Y8, Y8
	VPADDD Y4, Y9, Y9
	VPBROADCASTD (SI)(R8*1), Y5
	VPMADDWD Y0, Y5, Y6
	VPMADDWD Y1, Y5, Y7
	VPADDD Y6, Y10, Y10
	VPADDD Y7, Y11, Y11
	VPBROADCASTD (SI)(R8*2), Y2
	VPMADDWD Y0, Y2, Y3
	VPMADDWD Y1, Y2, Y4
	VPADDD Y3, Y12, Y12
	VPADDD Y4, Y13, Y13
	VPBROADCASTD (SI)(R9*1), Y5
	VPMADDWD Y0, Y5, Y6
	VPMADDWD Y1, Y5, Y7
	VPADDD Y6, Y14, Y14
	VPADDD Y7, Y15, Y15
	ADDQ $4, SI
	ADDQ $64, DI
	DECQ CX
	JNE avx2_loop
avx2_store:
	MOVQ cb+48(FP), BX
	MOVQ za+56(FP), R10
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	QTILE4X16_STORE
	VZEROUPPER
	RET

// func qkernAVXVNNIQuarter(a *byte, lda int, b *byte, kg int, c *int32, ldc int, cb *int32, za *int32)
//
// A 4×16 tile (a quarter of an 8×32 tile) by AVX-VNNI, the VEX form of
// VPDPBUSD on ymm that CPUs without AVX-512 (Intel's client cores since
// Alder Lake) have: the VNNI layout of qkernVNNI, A's rows of signed
// bytes 4 a step, B's panels of 32 columns of 4 unsigned bytes, 128
// bytes a step, of which this kernel reads 64 (b points at the half).
// Each step broadcasts 4 bytes of a row (VPBROADCASTD) and adds its
// four products with each column's 4 bytes into the column's int32
// lane, wrapping: the same exact sums as qkernVNNI. The Go assembler has
// no VEX encoding of VPDPBUSD (its VPDPBUSD is the EVEX one, which needs
// AVX-512), so the eight instructions are spelled as bytes (C4 map 0F38,
// pp 66, W0, L1, opcode 50): ymm(8+2r+h) += ymm(h) unsigned · ymm(2+r%2)
// signed, for row r and half h of the tile. Before the store it adds the
// quarter's zero point correction, za[r]·cb[j] + rs[r]·zb[j] (qCorr:
// cb points at the half's 16 column sums, zb lies 128 bytes on; za at
// the quarter's 4 rows, rs 32 bytes on), by VPMULLD, wrapping.
TEXT ·qkernAVXVNNIQuarter(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ kg+24(FP), CX
	LEAQ (R8)(R8*2), R9
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15
	TESTQ CX, CX
	JEQ avxvnni_store
avxvnni_loop:
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VPBROADCASTD (SI), Y2
	VPBROADCASTD (SI)(R8*1), Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xc2 // VPDPBUSD Y8 += Y0·Y2
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xca // VPDPBUSD Y9 += Y1·Y2
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xd3 // VPDPBUSD Y10 += Y0·Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xdb // VPDPBUSD Y11 += Y1·Y3
	VPBROADCASTD (SI)(R8*2), Y2
	VPBROADCASTD (SI)(R9*1), Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xe2 // VPDPBUSD Y12 += Y0·Y2
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xea // VPDPBUSD Y13 += Y1·Y2
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xf3 // VPDPBUSD Y14 += Y0·Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xfb // VPDPBUSD Y15 += Y1·Y3
	ADDQ $4, SI
	ADDQ $128, DI
	DECQ CX
	JNE avxvnni_loop
avxvnni_store:
	MOVQ cb+48(FP), BX
	MOVQ za+56(FP), R10
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	QTILE4X16_STORE
	VZEROUPPER
	RET

// func qpackVNNI(dst *byte, src *byte, ld int, kg int, mask uint32, cs *int32)
//
// Packs kg groups of 4 rows of 32 bytes (row stride ld) into the VNNI
// panel layout, each byte xor mask, and writes each column's sum of the
// packed bytes into cs[0:32]: VPDPBUSD of the packed bytes with int8
// ones.
TEXT ·qpackVNNI(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), R8
	MOVQ kg+24(FP), CX
	LEAQ (R8)(R8*2), R9
	MOVL mask+32(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, Y15
	MOVL $0x01010101, AX
	MOVL AX, X14
	VPBROADCASTD X14, Y14
	VPXORD Y16, Y16, Y16
	VPXORD Y17, Y17, Y17
	VPXORD Y18, Y18, Y18
	VPXORD Y19, Y19, Y19
	TESTQ CX, CX
	JEQ pack_done
pack_loop:
	VPXOR (SI), Y15, Y0
	VPXOR (SI)(R8*1), Y15, Y1
	VPXOR (SI)(R8*2), Y15, Y2
	VPXOR (SI)(R9*1), Y15, Y3
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y6
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y8
	VPUNPCKHWD Y6, Y4, Y9
	VPUNPCKLWD Y7, Y5, Y10
	VPUNPCKHWD Y7, Y5, Y11
	VPERM2I128 $0x20, Y9, Y8, Y0
	VPERM2I128 $0x20, Y11, Y10, Y1
	VPERM2I128 $0x31, Y9, Y8, Y2
	VPERM2I128 $0x31, Y11, Y10, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VPDPBUSD Y14, Y0, Y16
	VPDPBUSD Y14, Y1, Y17
	VPDPBUSD Y14, Y2, Y18
	VPDPBUSD Y14, Y3, Y19
	LEAQ (SI)(R8*4), SI
	ADDQ $128, DI
	DECQ CX
	JNE pack_loop
pack_done:
	MOVQ cs+40(FP), DX
	VMOVDQU32 Y16, (DX)
	VMOVDQU32 Y17, 32(DX)
	VMOVDQU32 Y18, 64(DX)
	VMOVDQU32 Y19, 96(DX)
	VZEROUPPER
	RET

// func qpackVNNIAVX2(dst *byte, src *byte, ld int, kg int, mask uint32, cs *int32)
//
// qpackVNNI for CPUs without AVX-512: the same panel bytes by the same
// unpacks, in fewer registers, and the same column sums by AVX2 —
// VPMADDUBSW of the packed (unsigned) bytes with int8 ones adds each
// column's pairs into int16 (at most 510: no saturation) and VPMADDWD
// with int16 ones adds the two pairs into the column's int32.
TEXT ·qpackVNNIAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), R8
	MOVQ kg+24(FP), CX
	LEAQ (R8)(R8*2), R9
	MOVL mask+32(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, Y15
	MOVL $0x01010101, AX
	MOVL AX, X14
	VPBROADCASTD X14, Y14
	MOVL $0x00010001, AX
	MOVL AX, X13
	VPBROADCASTD X13, Y13
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	TESTQ CX, CX
	JEQ pack2_done
pack2_loop:
	VPXOR (SI), Y15, Y0
	VPXOR (SI)(R8*1), Y15, Y1
	VPXOR (SI)(R8*2), Y15, Y2
	VPXOR (SI)(R9*1), Y15, Y3
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y0
	VPUNPCKHBW Y3, Y2, Y1
	VPUNPCKLWD Y0, Y4, Y2
	VPUNPCKHWD Y0, Y4, Y3
	VPUNPCKLWD Y1, Y5, Y4
	VPUNPCKHWD Y1, Y5, Y5
	VPERM2I128 $0x20, Y3, Y2, Y0
	VPERM2I128 $0x20, Y5, Y4, Y1
	VPERM2I128 $0x31, Y3, Y2, Y2
	VPERM2I128 $0x31, Y5, Y4, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VPMADDUBSW Y14, Y0, Y0
	VPMADDUBSW Y14, Y1, Y1
	VPMADDUBSW Y14, Y2, Y2
	VPMADDUBSW Y14, Y3, Y3
	VPMADDWD Y13, Y0, Y0
	VPMADDWD Y13, Y1, Y1
	VPMADDWD Y13, Y2, Y2
	VPMADDWD Y13, Y3, Y3
	VPADDD Y0, Y8, Y8
	VPADDD Y1, Y9, Y9
	VPADDD Y2, Y10, Y10
	VPADDD Y3, Y11, Y11
	LEAQ (SI)(R8*4), SI
	ADDQ $128, DI
	DECQ CX
	JNE pack2_loop
pack2_done:
	MOVQ cs+40(FP), DX
	VMOVDQU Y8, (DX)
	VMOVDQU Y9, 32(DX)
	VMOVDQU Y10, 64(DX)
	VMOVDQU Y11, 96(DX)
	VZEROUPPER
	RET

// func qpackRowAVX2(dst *byte, src *byte, n int, mask uint32) int32
//
// qpackRowVNNI for CPUs without AVX-512: copies n bytes (a multiple of
// 32) of an A row, each xor mask, and returns the sum of the copied
// bytes as int8. VPSADBW adds each quadword's bytes xor 0x80 (as uint8,
// into the quadword) and the total less 128·n is the int8 sum.
TEXT ·qpackRowAVX2(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ CX, DX
	MOVL mask+24(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, Y15
	MOVL $0x80808080, AX
	MOVL AX, X14
	VPBROADCASTD X14, Y14
	VPXOR Y13, Y13, Y13
	VPXOR Y0, Y0, Y0
	SHRQ $5, CX
	JEQ row2_sum
row2_loop:
	VPXOR (SI), Y15, Y1
	VMOVDQU Y1, (DI)
	VPXOR Y14, Y1, Y2
	VPSADBW Y13, Y2, Y2
	VPADDQ Y2, Y0, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE row2_loop
row2_sum:
	VEXTRACTI128 $1, Y0, X1
	VPADDQ X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDQ X1, X0, X0
	MOVQ X0, AX
	SHLQ $7, DX
	SUBQ DX, AX
	MOVL AX, ret+32(FP)
	VZEROUPPER
	RET

// func qpackPairsAVX2(dst *byte, src *byte, ld int, kg int, mask uint32, cs *int32)
//
// Packs kg pairs of rows of 32 bytes (row stride ld) into the AVX2
// kernel's panel layout, each column's two bytes side by side, 64 bytes
// a pair, each byte xor mask, and writes each column's sum of the packed
// bytes (as uint8) into cs[0:32]: VPMADDUBSW with int8 ones adds each
// column's two bytes into a word (at most 510), widened to int32 by
// VPMOVZXWD before it is added.
TEXT ·qpackPairsAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), R8
	MOVQ kg+24(FP), CX
	MOVL mask+32(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, Y15
	MOVL $0x01010101, AX
	MOVL AX, X14
	VPBROADCASTD X14, Y14
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	TESTQ CX, CX
	JEQ pairs_done
pairs_loop:
	VPXOR (SI), Y15, Y0
	VPXOR (SI)(R8*1), Y15, Y1
	VPUNPCKLBW Y1, Y0, Y2
	VPUNPCKHBW Y1, Y0, Y3
	VPERM2I128 $0x20, Y3, Y2, Y4
	VPERM2I128 $0x31, Y3, Y2, Y5
	VMOVDQU Y4, (DI)
	VMOVDQU Y5, 32(DI)
	VPMADDUBSW Y14, Y4, Y6
	VPMOVZXWD X6, Y7
	VPADDD Y7, Y8, Y8
	VEXTRACTI128 $1, Y6, X6
	VPMOVZXWD X6, Y7
	VPADDD Y7, Y9, Y9
	VPMADDUBSW Y14, Y5, Y6
	VPMOVZXWD X6, Y7
	VPADDD Y7, Y10, Y10
	VEXTRACTI128 $1, Y6, X6
	VPMOVZXWD X6, Y7
	VPADDD Y7, Y11, Y11
	LEAQ (SI)(R8*2), SI
	ADDQ $64, DI
	DECQ CX
	JNE pairs_loop
pairs_done:
	MOVQ cs+40(FP), DX
	VMOVDQU Y8, (DX)
	VMOVDQU Y9, 32(DX)
	VMOVDQU Y10, 64(DX)
	VMOVDQU Y11, 96(DX)
	VZEROUPPER
	RET

// func qpackRowWideAVX2(dst *byte, src *byte, n int, mask uint32) int32
//
// Packs n bytes (a multiple of 16) of an A row for the AVX2 kernel: each
// byte xor mask, sign-extended to int16 (VPMOVSXBW), and returns the
// sum of the bytes as int8 (VPSADBW of the bytes xor 0x80, less 128 a
// byte).
TEXT ·qpackRowWideAVX2(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ CX, DX
	MOVL mask+24(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, X15
	MOVL $0x80808080, AX
	MOVL AX, X14
	VPBROADCASTD X14, X14
	VPXOR X13, X13, X13
	VPXOR X3, X3, X3
	SHRQ $4, CX
	JEQ wide_sum
wide_loop:
	VPXOR (SI), X15, X0
	VPMOVSXBW X0, Y1
	VMOVDQU Y1, (DI)
	VPXOR X14, X0, X2
	VPSADBW X13, X2, X2
	VPADDQ X2, X3, X3
	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNE wide_loop
wide_sum:
	VPSHUFD $0x4e, X3, X1
	VPADDQ X1, X3, X3
	MOVQ X3, AX
	SHLQ $7, DX
	SUBQ DX, AX
	MOVL AX, ret+32(FP)
	VZEROUPPER
	RET

// func qpackRowVNNI(dst *byte, src *byte, n int, mask uint32) int32
//
// Copies n bytes (a multiple of 64) of an A row, each xor mask, and
// returns the sum of the copied bytes as int8: VPDPBUSD of uint8 ones
// with them.
TEXT ·qpackRowVNNI(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL mask+24(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, Z15
	MOVL $0x01010101, AX
	MOVL AX, X14
	VPBROADCASTD X14, Z14
	VPXORD Z0, Z0, Z0
	SHRQ $6, CX
	JEQ row_sum
row_loop:
	VPXORD (SI), Z15, Z1
	VMOVDQU32 Z1, (DI)
	VPDPBUSD Z1, Z14, Z0
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNE row_loop
row_sum:
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	MOVL X0, ret+32(FP)
	VZEROUPPER
	RET

// QCORR1_YMM adds row 0's correction to the accumulator of columns
// 8h..8h+7: cb at off(BX), zb at 128+off(BX), za[0] in Y4, rs[0] in Y5.
#define QCORR1_YMM(off, acc) \
	VMOVDQU off(BX), Y0 \
	VMOVDQU 128+off(BX), Y1 \
	VPMULLD Y0, Y4, Y0 \
	VPMULLD Y1, Y5, Y1 \
	VPADDD Y0, Y1, Y0 \
	VPADDD Y0, acc, acc

// func qkern1AVXVNNI(a *byte, b *byte, kg int, c *int32, q *qCorr)
//
// qkern1VNNI by AVX-VNNI: one row of the 8×32 tile (row 0 of q's
// correction), for a GEMM of one row, two steps of k at a time into two
// sets of four ymm sums (the VEX VPDPBUSD spelled as bytes, as in
// qkernAVXVNNIQuarter), added together before the correction.
TEXT ·qkern1AVXVNNI(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ kg+16(FP), CX
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15
	CMPQ CX, $2
	JLT avxvnni1_one
avxvnni1_loop2:
	VPBROADCASTD (SI), Y4
	VPBROADCASTD 4(SI), Y5
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xc4 // VPDPBUSD Y8 += Y0·Y4
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xcc // VPDPBUSD Y9 += Y1·Y4
	BYTE $0xc4; BYTE $0x62; BYTE $0x6d; BYTE $0x50; BYTE $0xd4 // VPDPBUSD Y10 += Y2·Y4
	BYTE $0xc4; BYTE $0x62; BYTE $0x65; BYTE $0x50; BYTE $0xdc // VPDPBUSD Y11 += Y3·Y4
	VMOVDQU 128(DI), Y0
	VMOVDQU 160(DI), Y1
	VMOVDQU 192(DI), Y2
	VMOVDQU 224(DI), Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xe5 // VPDPBUSD Y12 += Y0·Y5
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xed // VPDPBUSD Y13 += Y1·Y5
	BYTE $0xc4; BYTE $0x62; BYTE $0x6d; BYTE $0x50; BYTE $0xf5 // VPDPBUSD Y14 += Y2·Y5
	BYTE $0xc4; BYTE $0x62; BYTE $0x65; BYTE $0x50; BYTE $0xfd // VPDPBUSD Y15 += Y3·Y5
	ADDQ $8, SI
	ADDQ $256, DI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE avxvnni1_loop2
avxvnni1_one:
	TESTQ CX, CX
	JEQ avxvnni1_store
	VPBROADCASTD (SI), Y4
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	BYTE $0xc4; BYTE $0x62; BYTE $0x7d; BYTE $0x50; BYTE $0xc4 // VPDPBUSD Y8 += Y0·Y4
	BYTE $0xc4; BYTE $0x62; BYTE $0x75; BYTE $0x50; BYTE $0xcc // VPDPBUSD Y9 += Y1·Y4
	BYTE $0xc4; BYTE $0x62; BYTE $0x6d; BYTE $0x50; BYTE $0xd4 // VPDPBUSD Y10 += Y2·Y4
	BYTE $0xc4; BYTE $0x62; BYTE $0x65; BYTE $0x50; BYTE $0xdc // VPDPBUSD Y11 += Y3·Y4
avxvnni1_store:
	VPADDD Y12, Y8, Y8
	VPADDD Y13, Y9, Y9
	VPADDD Y14, Y10, Y10
	VPADDD Y15, Y11, Y11
	MOVQ q+32(FP), BX
	VPBROADCASTD 256(BX), Y4
	VPBROADCASTD 288(BX), Y5
	QCORR1_YMM(0, Y8)
	QCORR1_YMM(32, Y9)
	QCORR1_YMM(64, Y10)
	QCORR1_YMM(96, Y11)
	MOVQ c+24(FP), DX
	VMOVDQU Y8, (DX)
	VMOVDQU Y9, 32(DX)
	VMOVDQU Y10, 64(DX)
	VMOVDQU Y11, 96(DX)
	VZEROUPPER
	RET

// func qkern1VNNI(a *byte, b *byte, kg int, c *int32, q *qCorr)
//
// One row of qkernVNNI's tile (a 1×32 tile, row 0 of q's correction),
// for a GEMM of one row: four steps of k at a time into eight
// independent sums, added together before the correction.
TEXT ·qkern1VNNI(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ kg+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	CMPQ CX, $4
	JLT vnni1_one
vnni1_loop4:
	VMOVDQU32 (DI), Z24
	VMOVDQU32 64(DI), Z25
	VMOVDQU32 128(DI), Z26
	VMOVDQU32 192(DI), Z27
	VMOVDQU32 256(DI), Z28
	VMOVDQU32 320(DI), Z29
	VMOVDQU32 384(DI), Z30
	VMOVDQU32 448(DI), Z31
	VPDPBUSD.BCST (SI), Z24, Z0
	VPDPBUSD.BCST (SI), Z25, Z1
	VPDPBUSD.BCST 4(SI), Z26, Z2
	VPDPBUSD.BCST 4(SI), Z27, Z3
	VPDPBUSD.BCST 8(SI), Z28, Z4
	VPDPBUSD.BCST 8(SI), Z29, Z5
	VPDPBUSD.BCST 12(SI), Z30, Z6
	VPDPBUSD.BCST 12(SI), Z31, Z7
	ADDQ $16, SI
	ADDQ $512, DI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE vnni1_loop4
vnni1_one:
	TESTQ CX, CX
	JEQ vnni1_store
	VMOVDQU32 (DI), Z24
	VMOVDQU32 64(DI), Z25
	VPDPBUSD.BCST (SI), Z24, Z0
	VPDPBUSD.BCST (SI), Z25, Z1
	ADDQ $4, SI
	ADDQ $128, DI
	DECQ CX
	JMP vnni1_one
vnni1_store:
	VPADDD Z2, Z0, Z0
	VPADDD Z3, Z1, Z1
	VPADDD Z6, Z4, Z4
	VPADDD Z7, Z5, Z5
	VPADDD Z4, Z0, Z0
	VPADDD Z5, Z1, Z1
	MOVQ q+32(FP), BX
	VMOVDQU32 (BX), Z20
	VMOVDQU32 64(BX), Z21
	VMOVDQU32 128(BX), Z22
	VMOVDQU32 192(BX), Z23
	VPMULLD.BCST 256(BX), Z20, Z24
	VPMULLD.BCST 256(BX), Z21, Z25
	VPMULLD.BCST 288(BX), Z22, Z26
	VPMULLD.BCST 288(BX), Z23, Z27
	VPADDD Z24, Z0, Z0
	VPADDD Z25, Z1, Z1
	VPADDD Z26, Z0, Z0
	VPADDD Z27, Z1, Z1
	MOVQ c+24(FP), DX
	VMOVDQU32 Z0, (DX)
	VMOVDQU32 Z1, 64(DX)
	VZEROUPPER
	RET

// func interleave4AVX2(dst *byte, src *byte, ld int, n int, mask uint32)
//
// Writes n pixels (a multiple of 32) of four rows, ld bytes apart, as 4
// bytes a pixel, each byte xor mask: qpackVNNI's shuffle, 32 pixels a
// step, without the sums.
TEXT ·interleave4AVX2(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), R8
	MOVQ n+24(FP), CX
	LEAQ (R8)(R8*2), R9
	MOVL mask+32(FP), AX
	MOVL AX, X15
	VPBROADCASTD X15, Y15
	SHRQ $5, CX
	JEQ il4_done
il4_loop:
	VPXOR (SI), Y15, Y0
	VPXOR (SI)(R8*1), Y15, Y1
	VPXOR (SI)(R8*2), Y15, Y2
	VPXOR (SI)(R9*1), Y15, Y3
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y6
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y8
	VPUNPCKHWD Y6, Y4, Y9
	VPUNPCKLWD Y7, Y5, Y10
	VPUNPCKHWD Y7, Y5, Y11
	VPERM2I128 $0x20, Y9, Y8, Y0
	VPERM2I128 $0x20, Y11, Y10, Y1
	VPERM2I128 $0x31, Y9, Y8, Y2
	VPERM2I128 $0x31, Y11, Y10, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	DECQ CX
	JNE il4_loop
il4_done:
	VZEROUPPER
	RET
