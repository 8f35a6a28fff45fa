//go:build amd64 && !purego

#include "textflag.h"

// func widenF16(dst *float32, src *uint16, n int)
//
// dst[i] = float16 src[i] widened, for i < n rounded down to 8 (F16C).
TEXT ·widenF16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ wf_done
wf_loop:
	VCVTPH2PS (SI), Y0
	VMOVUPS Y0, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNE wf_loop
wf_done:
	VZEROUPPER
	RET

// func widenBF16(dst *float32, src *uint16, n int)
//
// dst[i] = bfloat16 src[i] widened, for i < n rounded down to 8 (AVX2).
TEXT ·widenBF16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ wb_done
wb_loop:
	VPMOVZXWD (SI), Y0
	VPSLLD $16, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNE wb_loop
wb_done:
	VZEROUPPER
	RET
