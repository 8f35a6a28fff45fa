//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 twins of the AVX-512 requantization kernels (requant_amd64.s,
// q8cvt_amd64.s), eight values a step, for CPUs without AVX-512: the
// same float32 operations in the same order (VROUNDPS $8 is VRNDSCALEPS
// $8's rounding to nearest even, VMAXPS and VMINPS take the same
// operand order), so the same bytes. AVX2 has no VPMOVDB: RQ8_STORE
// keeps each int32's low byte (VPSHUFB within each 128-bit lane, then
// VPERMD joins the two lanes' four bytes) and stores the eight as one
// quadword, as byte(int32(v)) does in Go.

// rq8Shuf gathers bytes 0, 4, 8 and 12 of each lane into its first
// dword; rq8Perm puts the second lane's first dword after the first's.
// Package symbols: dynquant_amd64.s's quantU8AVX2 reads them too.
DATA ·rq8Shuf+0(SB)/8, $0x808080800c080400
DATA ·rq8Shuf+8(SB)/8, $0x8080808080808080
DATA ·rq8Shuf+16(SB)/8, $0x808080800c080400
DATA ·rq8Shuf+24(SB)/8, $0x8080808080808080
GLOBL ·rq8Shuf(SB), RODATA|NOPTR, $32
DATA ·rq8Perm+0(SB)/8, $0x0000000400000000
DATA ·rq8Perm+8(SB)/8, $0x0000000000000000
DATA ·rq8Perm+16(SB)/8, $0x0000000000000000
DATA ·rq8Perm+24(SB)/8, $0x0000000000000000
GLOBL ·rq8Perm(SB), RODATA|NOPTR, $32

// RQ8_CONSTS loads the byte gather's two index vectors into Y5 and Y6.
#define RQ8_CONSTS \
	VMOVDQU ·rq8Shuf(SB), Y5 \
	VMOVDQU ·rq8Perm(SB), Y6

// RQ8_FINISH rounds Y0 to nearest even, adds the zero point (Y2),
// clamps to [lo, hi] (Y3, Y4), converts to int32 and stores the eight
// low bytes at DI.
#define RQ8_FINISH \
	VROUNDPS $8, Y0, Y0 \
	VADDPS Y2, Y0, Y0 \
	VMAXPS Y3, Y0, Y0 \
	VMINPS Y4, Y0, Y0 \
	VCVTPS2DQ Y0, Y0 \
	VPSHUFB Y5, Y0, Y0 \
	VPERMD Y0, Y6, Y0 \
	MOVQ X0, (DI)

// func requantAVX2(dst *byte, acc *int32, n int, m, zp, lo, hi float32)
//
// requantAVX512 eight at a time; n is a multiple of 8.
TEXT ·requantAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Y1
	VBROADCASTSS zp+28(FP), Y2
	VBROADCASTSS lo+32(FP), Y3
	VBROADCASTSS hi+36(FP), Y4
	RQ8_CONSTS
	SHRQ $3, CX
	JEQ rq2_done
rq2_loop:
	VCVTDQ2PS (SI), Y0
	VMULPS Y1, Y0, Y0
	RQ8_FINISH
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNE rq2_loop
rq2_done:
	VZEROUPPER
	RET

// func requantBiasAVX2(dst *byte, acc *int32, n int, bias int32, m, zp, lo, hi float32)
//
// requantBiasAVX512 eight at a time; n is a multiple of 8.
TEXT ·requantBiasAVX2(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL bias+24(FP), AX
	MOVL AX, X7
	VPBROADCASTD X7, Y7
	VBROADCASTSS m+28(FP), Y1
	VBROADCASTSS zp+32(FP), Y2
	VBROADCASTSS lo+36(FP), Y3
	VBROADCASTSS hi+40(FP), Y4
	RQ8_CONSTS
	SHRQ $3, CX
	JEQ rqb2_done
rqb2_loop:
	VPADDD (SI), Y7, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS Y1, Y0, Y0
	RQ8_FINISH
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNE rqb2_loop
rqb2_done:
	VZEROUPPER
	RET

// func requantColsAVX2(dst *byte, acc, bias *int32, mult *float32, n int, zp, lo, hi float32)
//
// requantColsAVX512 eight at a time; n is a multiple of 8.
TEXT ·requantColsAVX2(SB), NOSPLIT, $0-52
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ bias+16(FP), BX
	MOVQ mult+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSS zp+40(FP), Y2
	VBROADCASTSS lo+44(FP), Y3
	VBROADCASTSS hi+48(FP), Y4
	RQ8_CONSTS
	SHRQ $3, CX
	JEQ rqc2_done
rqc2_loop:
	VMOVDQU (SI), Y0
	VPADDD (BX), Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS (R8), Y0, Y0
	RQ8_FINISH
	ADDQ $32, SI
	ADDQ $32, BX
	ADDQ $32, R8
	ADDQ $8, DI
	DECQ CX
	JNE rqc2_loop
rqc2_done:
	VZEROUPPER
	RET

// func requantF32AVX2(dst *byte, acc *float32, n int, m, zp, lo, hi float32)
//
// requantF32AVX512 eight at a time; n is a multiple of 8.
TEXT ·requantF32AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Y1
	VBROADCASTSS zp+28(FP), Y2
	VBROADCASTSS lo+32(FP), Y3
	VBROADCASTSS hi+36(FP), Y4
	RQ8_CONSTS
	SHRQ $3, CX
	JEQ rqf2_done
rqf2_loop:
	VMULPS (SI), Y1, Y0
	RQ8_FINISH
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNE rqf2_loop
rqf2_done:
	VZEROUPPER
	RET
