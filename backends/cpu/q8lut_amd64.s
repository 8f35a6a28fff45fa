//go:build amd64 && !purego

#include "textflag.h"

// func lut8VBMI(dst, src *byte, n int, t *[256]byte)
//
// dst[i] = t[src[i]] for i < n: the table in four ZMM registers, 64
// bytes a step. VPERMI2B looks each byte's low seven bits up in the
// table's lower and upper halves; the byte's top bit (VPMOVB2M) picks
// which. The last n mod 64 bytes go under a mask.
TEXT ·lut8VBMI(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ t+24(FP), AX
	VMOVDQU8 (AX), Z4
	VMOVDQU8 64(AX), Z5
	VMOVDQU8 128(AX), Z6
	VMOVDQU8 192(AX), Z7
	CMPQ CX, $64
	JLT lut_tail
lut_loop:
	VMOVDQU8 (SI), Z0
	VMOVDQA64 Z0, Z1
	VMOVDQA64 Z0, Z2
	VPERMI2B Z5, Z4, Z1
	VPERMI2B Z7, Z6, Z2
	VPMOVB2M Z0, K1
	VMOVDQU8 Z2, K1, Z1
	VMOVDQU8 Z1, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	CMPQ CX, $64
	JGE lut_loop
lut_tail:
	TESTQ CX, CX
	JEQ lut_done
	MOVQ $-1, AX
	SHLXQ CX, AX, AX
	NOTQ AX
	KMOVQ AX, K2
	VMOVDQU8.Z (SI), K2, Z0
	VMOVDQA64 Z0, Z1
	VMOVDQA64 Z0, Z2
	VPERMI2B Z5, Z4, Z1
	VPERMI2B Z7, Z6, Z2
	VPMOVB2M Z0, K1
	VMOVDQU8 Z2, K1, Z1
	VMOVDQU8 Z1, K2, (DI)
lut_done:
	VZEROUPPER
	RET
