//go:build amd64 && !purego

#include "textflag.h"

// func affineAVX(d, x *float32, n int, a, b float32)
//
// d[i] = x[i]*a + b for i < n (n a multiple of 8): VMULPS then VADDPS,
// each rounded as affineGo's loop, 32 floats a step while they last.
TEXT ·affineAVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS a+24(FP), Y4
	VBROADCASTSS b+28(FP), Y5
	MOVQ CX, DX
	SHRQ $5, DX
	JEQ aff_tail

aff_loop4:
	VMULPS (SI), Y4, Y0
	VMULPS 32(SI), Y4, Y1
	VMULPS 64(SI), Y4, Y2
	VMULPS 96(SI), Y4, Y3
	VADDPS Y5, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y5, Y2, Y2
	VADDPS Y5, Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ DX
	JNE aff_loop4

aff_tail:
	ANDQ $31, CX
	SHRQ $3, CX
	JEQ aff_done

aff_loop1:
	VMULPS (SI), Y4, Y0
	VADDPS Y5, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE aff_loop1

aff_done:
	VZEROUPPER
	RET
