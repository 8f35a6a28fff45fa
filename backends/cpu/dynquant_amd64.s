//go:build amd64 && !purego

#include "textflag.h"

// func minMaxAVX512(x *float32, n int, lo, hi *float32) (nan bool)
//
// Folds n floats (a multiple of 16) into *lo and *hi as DynamicQuantize
// Linear's Go loop does (a NaN never replaces them: VMINPS returns its
// second source, the running value, when either is NaN), and reports
// whether any was NaN.
TEXT ·minMaxAVX512(SB), NOSPLIT, $0-33
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ lo+16(FP), R8
	MOVQ hi+24(FP), R9
	VBROADCASTSS (R8), Z0
	VBROADCASTSS (R9), Z1
	KXORW K2, K2, K2
	SHRQ $4, CX
	JEQ mm_fold
mm_loop:
	VMOVUPS (SI), Z2
	VMINPS Z0, Z2, Z0
	VMAXPS Z1, Z2, Z1
	VCMPPS $3, Z2, Z2, K1
	KORW K1, K2, K2
	ADDQ $64, SI
	DECQ CX
	JNE mm_loop
mm_fold:
	VEXTRACTF64X4 $1, Z0, Y2
	VMINPS Y0, Y2, Y0
	VEXTRACTF128 $1, Y0, X2
	VMINPS X0, X2, X0
	VPSHUFD $0x4e, X0, X2
	VMINPS X0, X2, X0
	VPSHUFD $0xb1, X0, X2
	VMINPS X0, X2, X0
	VMOVSS X0, (R8)
	VEXTRACTF64X4 $1, Z1, Y2
	VMAXPS Y1, Y2, Y1
	VEXTRACTF128 $1, Y1, X2
	VMAXPS X1, X2, X1
	VPSHUFD $0x4e, X1, X2
	VMAXPS X1, X2, X1
	VPSHUFD $0xb1, X1, X2
	VMAXPS X1, X2, X1
	VMOVSS X1, (R9)
	KMOVW K2, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

// func quantU8AVX512(y *byte, x *float32, n int, scale, zp float32)
//
// y[i] = clamp(roundeven(x[i] / scale) + zp, 0, 255) for n a multiple
// of 16; the caller guarantees no NaN arises (finite x, a finite
// nonzero scale).
TEXT ·quantU8AVX512(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS scale+24(FP), Z1
	VBROADCASTSS zp+28(FP), Z2
	VXORPS Z3, Z3, Z3
	MOVL $0x437f0000, AX
	MOVL AX, X4
	VBROADCASTSS X4, Z4
	SHRQ $4, CX
	JEQ q_done
q_loop:
	VMOVUPS (SI), Z0
	VDIVPS Z1, Z0, Z0
	VRNDSCALEPS $8, Z0, Z0
	VADDPS Z2, Z0, Z0
	VMAXPS Z3, Z0, Z0
	VMINPS Z4, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMOVDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNE q_loop
q_done:
	VZEROUPPER
	RET

// func minMaxAVX2(x *float32, n int, lo, hi *float32) (nan bool)
//
// minMaxAVX512 eight floats a step, for CPUs without AVX-512 (n a
// multiple of 8): the same operand order, so the same values; NaNs are
// found by VCMPPS's unordered predicate, or'ed across steps.
TEXT ·minMaxAVX2(SB), NOSPLIT, $0-33
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ lo+16(FP), R8
	MOVQ hi+24(FP), R9
	VBROADCASTSS (R8), Y0
	VBROADCASTSS (R9), Y1
	VXORPS Y5, Y5, Y5
	SHRQ $3, CX
	JEQ mm2_fold
mm2_loop:
	VMOVUPS (SI), Y2
	VMINPS Y0, Y2, Y0
	VMAXPS Y1, Y2, Y1
	VCMPPS $3, Y2, Y2, Y3
	VORPS Y3, Y5, Y5
	ADDQ $32, SI
	DECQ CX
	JNE mm2_loop
mm2_fold:
	VEXTRACTF128 $1, Y0, X2
	VMINPS X0, X2, X0
	VPSHUFD $0x4e, X0, X2
	VMINPS X0, X2, X0
	VPSHUFD $0xb1, X0, X2
	VMINPS X0, X2, X0
	VMOVSS X0, (R8)
	VEXTRACTF128 $1, Y1, X2
	VMAXPS X1, X2, X1
	VPSHUFD $0x4e, X1, X2
	VMAXPS X1, X2, X1
	VPSHUFD $0xb1, X1, X2
	VMAXPS X1, X2, X1
	VMOVSS X1, (R9)
	VMOVMSKPS Y5, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET

// func quantU8AVX2(y *byte, x *float32, n int, scale, zp float32)
//
// quantU8AVX512 eight values a step, for CPUs without AVX-512 (n a
// multiple of 8); the low byte of each int32 is gathered by
// requant_avx2_amd64.s's rq8Shuf and rq8Perm and stored as there.
TEXT ·quantU8AVX2(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS scale+24(FP), Y1
	VBROADCASTSS zp+28(FP), Y2
	VXORPS Y3, Y3, Y3
	MOVL $0x437f0000, AX
	MOVL AX, X4
	VBROADCASTSS X4, Y4
	VMOVDQU ·rq8Shuf(SB), Y5
	VMOVDQU ·rq8Perm(SB), Y6
	SHRQ $3, CX
	JEQ q2_done
q2_loop:
	VMOVUPS (SI), Y0
	VDIVPS Y1, Y0, Y0
	VROUNDPS $8, Y0, Y0
	VADDPS Y2, Y0, Y0
	VMAXPS Y3, Y0, Y0
	VMINPS Y4, Y0, Y0
	VCVTPS2DQ Y0, Y0
	VPSHUFB Y5, Y0, Y0
	VPERMD Y0, Y6, Y0
	MOVQ X0, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNE q2_loop
q2_done:
	VZEROUPPER
	RET
