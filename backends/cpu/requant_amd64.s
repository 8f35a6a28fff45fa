//go:build amd64 && !purego

#include "textflag.h"

// func requantAVX512(dst *byte, acc *int32, n int, m, zp, lo, hi float32)
//
// dst[i] = the low byte of int32(clamp(roundeven(float32(acc[i])·m) +
// zp, lo, hi)) for n a multiple of 16, in float32 throughout: for a
// finite m this equals requantRunGo (see requantRun).
TEXT ·requantAVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Z1
	VBROADCASTSS zp+28(FP), Z2
	VBROADCASTSS lo+32(FP), Z3
	VBROADCASTSS hi+36(FP), Z4
	SHRQ $4, CX
	JEQ rq_done
rq_loop:
	VCVTDQ2PS (SI), Z0
	VMULPS Z1, Z0, Z0
	VRNDSCALEPS $8, Z0, Z0
	VADDPS Z2, Z0, Z0
	VMAXPS Z3, Z0, Z0
	VMINPS Z4, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMOVDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNE rq_loop
rq_done:
	VZEROUPPER
	RET
