//go:build amd64 && !purego

#include "textflag.h"

// func qScaleRowAVX2(y *float32, acc *int32, mult, bias *float32, n, multStep int)
//
// y[j] = float32(acc[j])·mult[j] (+ bias[j] when bias is not nil), the
// multiply and the add rounded apart, for n a multiple of 8. mult
// advances multStep bytes every eight columns: 32 for one multiplier a
// column, 0 for eight copies of one.
TEXT ·qScaleRowAVX2(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ mult+16(FP), R8
	MOVQ bias+24(FP), R10
	MOVQ n+32(FP), CX
	MOVQ multStep+40(FP), R9
	SHRQ $3, CX
	JEQ qs_done
	TESTQ R10, R10
	JNE qs_bias
qs_plain:
	VCVTDQ2PS (SI), Y0
	VMULPS (R8), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ R9, R8
	DECQ CX
	JNE qs_plain
	JMP qs_done
qs_bias:
	VCVTDQ2PS (SI), Y0
	VMULPS (R8), Y0, Y0
	VADDPS (R10), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, R10
	ADDQ R9, R8
	DECQ CX
	JNE qs_bias
qs_done:
	VZEROUPPER
	RET

// func qScaleRowsAVX2(y *float32, acc *int32, ld, rows int, mult, bias *float32, n, multStep int)
//
// qScaleRowAVX2 on rows rows, y and acc both ld elements a row (they may
// be the same memory: each vector is read before it is written).
TEXT ·qScaleRowsAVX2(SB), NOSPLIT, $0-64
	MOVQ y+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ ld+16(FP), R11
	SHLQ $2, R11
	MOVQ rows+24(FP), DX
	MOVQ mult+32(FP), R12
	MOVQ bias+40(FP), R13
	MOVQ n+48(FP), R14
	SHRQ $3, R14
	MOVQ multStep+56(FP), R9
	TESTQ DX, DX
	JEQ qsr_done
	TESTQ R14, R14
	JEQ qsr_done
qsr_row:
	MOVQ DI, AX
	MOVQ SI, BX
	MOVQ R12, R8
	MOVQ R13, R10
	MOVQ R14, CX
	TESTQ R10, R10
	JNE qsr_bias
qsr_plain:
	VCVTDQ2PS (BX), Y0
	VMULPS (R8), Y0, Y0
	VMOVUPS Y0, (AX)
	ADDQ $32, BX
	ADDQ $32, AX
	ADDQ R9, R8
	DECQ CX
	JNE qsr_plain
	JMP qsr_next
qsr_bias:
	VCVTDQ2PS (BX), Y0
	VMULPS (R8), Y0, Y0
	VADDPS (R10), Y0, Y0
	VMOVUPS Y0, (AX)
	ADDQ $32, BX
	ADDQ $32, AX
	ADDQ $32, R10
	ADDQ R9, R8
	DECQ CX
	JNE qsr_bias
qsr_next:
	ADDQ R11, DI
	ADDQ R11, SI
	DECQ DX
	JNE qsr_row
qsr_done:
	VZEROUPPER
	RET
