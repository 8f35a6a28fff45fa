//go:build amd64 && !purego

#include "textflag.h"

// func narrowF16(dst *uint16, src *float32, n int)
//
// dst[i] = src[i] rounded to nearest even float16, for i < n rounded down
// to 8 (F16C).
TEXT ·narrowF16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ nf_done
nf_loop:
	VMOVUPS (SI), Y0
	VCVTPS2PH $0, Y0, X1
	VMOVDQU X1, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNE nf_loop
nf_done:
	VZEROUPPER
	RET
