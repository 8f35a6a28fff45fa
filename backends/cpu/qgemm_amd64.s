//go:build amd64 && !purego

#include "textflag.h"

// The int8 GEMM micro-kernels (qgemm.go, ADR 0029). Both compute an
// exact int32 tile of signed A (broadcast) times unsigned B (panel).

// func qkernVNNI(a *byte, lda int, b *byte, kg int, c *int32, ldc int)
//
// An 8×32 tile by AVX-512 VNNI: each step of 4 values of k, VPDPBUSD
// adds the four products of a row's 4 int8 A values (broadcast) with a
// column's 4 uint8 B values into the column's int32 lane; products and
// sums wrap as int32, nothing saturates.
TEXT ·qkernVNNI(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ kg+24(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R8)(R8*4), R10
	LEAQ (R9)(R8*4), R11
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	TESTQ CX, CX
	JEQ vnni_store
vnni_loop:
	VMOVDQU32 (DI), Z30
	VMOVDQU32 64(DI), Z31
	VPDPBUSD.BCST (SI), Z30, Z0
	VPDPBUSD.BCST (SI), Z31, Z1
	VPDPBUSD.BCST (SI)(R8*1), Z30, Z2
	VPDPBUSD.BCST (SI)(R8*1), Z31, Z3
	VPDPBUSD.BCST (SI)(R8*2), Z30, Z4
	VPDPBUSD.BCST (SI)(R8*2), Z31, Z5
	VPDPBUSD.BCST (SI)(R9*1), Z30, Z6
	VPDPBUSD.BCST (SI)(R9*1), Z31, Z7
	VPDPBUSD.BCST (SI)(R8*4), Z30, Z8
	VPDPBUSD.BCST (SI)(R8*4), Z31, Z9
	VPDPBUSD.BCST (SI)(R10*1), Z30, Z10
	VPDPBUSD.BCST (SI)(R10*1), Z31, Z11
	VPDPBUSD.BCST (SI)(R9*2), Z30, Z12
	VPDPBUSD.BCST (SI)(R9*2), Z31, Z13
	VPDPBUSD.BCST (SI)(R11*1), Z30, Z14
	VPDPBUSD.BCST (SI)(R11*1), Z31, Z15
	ADDQ $4, SI
	ADDQ $128, DI
	DECQ CX
	JNE vnni_loop
vnni_store:
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	LEAQ (R8)(R8*4), R10
	LEAQ (R9)(R8*4), R11
	VMOVDQU32 Z0, (DX)
	VMOVDQU32 Z1, 64(DX)
	VMOVDQU32 Z2, (DX)(R8*1)
	VMOVDQU32 Z3, 64(DX)(R8*1)
	VMOVDQU32 Z4, (DX)(R8*2)
	VMOVDQU32 Z5, 64(DX)(R8*2)
	VMOVDQU32 Z6, (DX)(R9*1)
	VMOVDQU32 Z7, 64(DX)(R9*1)
	VMOVDQU32 Z8, (DX)(R8*4)
	VMOVDQU32 Z9, 64(DX)(R8*4)
	VMOVDQU32 Z10, (DX)(R10*1)
	VMOVDQU32 Z11, 64(DX)(R10*1)
	VMOVDQU32 Z12, (DX)(R9*2)
	VMOVDQU32 Z13, 64(DX)(R9*2)
	VMOVDQU32 Z14, (DX)(R11*1)
	VMOVDQU32 Z15, 64(DX)(R11*1)
	VZEROUPPER
	RET

// func qkernAVX2Half(a *byte, lda int, b *byte, kg int, c *int32, ldc int)
//
// A 4×16 tile by AVX2 (half of an 8×32 tile): A packed as int16 pairs,
// B panels of 2 values of k a column, 64 bytes a step (this kernel
// reads 32 of them). VPMOVZXBW widens B's uint8 to int16 and VPMADDWD
// adds each column's two int16 products into int32: |product| ≤
// 128·255, so the pair sum fits and nothing saturates (VPMADDUBSW's
// int16 sum of two u8·s8 products could, and is not used).
TEXT ·qkernAVX2Half(SB), NOSPLIT, $0-48
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
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	VMOVDQU Y8, (DX)
	VMOVDQU Y9, 32(DX)
	VMOVDQU Y10, (DX)(R8*1)
	VMOVDQU Y11, 32(DX)(R8*1)
	VMOVDQU Y12, (DX)(R8*2)
	VMOVDQU Y13, 32(DX)(R8*2)
	VMOVDQU Y14, (DX)(R9*1)
	VMOVDQU Y15, 32(DX)(R9*1)
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
