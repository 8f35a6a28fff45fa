//go:build amd64 && !purego

#include "textflag.h"

// func qScaleRowsAVX2(y *float32, acc *int32, ld, rows int, mult, bias *float32, n, multStep int)
//
// y[r*ld+j] = float32(acc[r*ld+j])·mult[j] (+ bias[j] when bias is not
// nil), the multiply and the add rounded apart, for rows r < rows and
// columns j < n, n a multiple of 8; y and acc may be the same memory
// (each vector is read before it is written). mult advances multStep
// bytes every eight columns: 32 for one multiplier a column, 0 for eight
// copies of one. ld is in elements.
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
