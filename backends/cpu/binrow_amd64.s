//go:build amd64 && !purego

#include "textflag.h"

// func addMulVecAVX(mul bool, d, a, b *float32, n int)
//
// d[i] = a[i] + b[i] (or a[i] * b[i] when mul) for i < n, n a multiple
// of 8.
TEXT ·addMulVecAVX(SB), NOSPLIT, $0-40
	MOVBQZX mul+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	JEQ amv_done
	TESTQ AX, AX
	JNE amv_mul

amv_add:
	VMOVUPS (SI), Y0
	VADDPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE amv_add
	JMP amv_done

amv_mul:
	VMOVUPS (SI), Y0
	VMULPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE amv_mul

amv_done:
	VZEROUPPER
	RET

// func addMulScalarAVX(mul bool, d, a *float32, n int, c float32)
//
// d[i] = a[i] + c (or a[i] * c when mul) for i < n, n a multiple of 8.
TEXT ·addMulScalarAVX(SB), NOSPLIT, $0-36
	MOVBQZX mul+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	MOVQ n+24(FP), CX
	VBROADCASTSS c+32(FP), Y1
	SHRQ $3, CX
	JEQ ams_done
	TESTQ AX, AX
	JNE ams_mul

ams_add:
	VMOVUPS (SI), Y0
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE ams_add
	JMP ams_done

ams_mul:
	VMOVUPS (SI), Y0
	VMULPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE ams_mul

ams_done:
	VZEROUPPER
	RET
