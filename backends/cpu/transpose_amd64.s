//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

// func transposeBlocksAVX(dst, src *float32, ldd, lds, rb, cb int)
//
// For the rb×cb blocks of 8×8 at the top left of src (rows lds floats
// apart), dst[j*ldd+i] = src[i*lds+j]: each block loaded as eight rows
// of src, transposed in registers and stored as eight rows of dst.
TEXT ·transposeBlocksAVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ldd+16(FP), R9
	SHLQ $2, R9
	MOVQ lds+24(FP), R8
	SHLQ $2, R8
	MOVQ rb+32(FP), CX
	LEAQ (R8)(R8*2), R10
	LEAQ (R9)(R9*2), R12

tb_rows:
	TESTQ CX, CX
	JEQ tb_done
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ cb+40(FP), DX

tb_block:
	TESTQ DX, DX
	JEQ tb_next
	LEAQ (AX)(R8*4), R11
	VMOVUPS (AX), Y0
	VMOVUPS (AX)(R8*1), Y1
	VMOVUPS (AX)(R8*2), Y2
	VMOVUPS (AX)(R10*1), Y3
	VMOVUPS (R11), Y4
	VMOVUPS (R11)(R8*1), Y5
	VMOVUPS (R11)(R8*2), Y6
	VMOVUPS (R11)(R10*1), Y7
	TRANSPOSE8
	LEAQ (BX)(R9*4), R13
	VMOVUPS Y0, (BX)
	VMOVUPS Y1, (BX)(R9*1)
	VMOVUPS Y2, (BX)(R9*2)
	VMOVUPS Y3, (BX)(R12*1)
	VMOVUPS Y4, (R13)
	VMOVUPS Y5, (R13)(R9*1)
	VMOVUPS Y6, (R13)(R9*2)
	VMOVUPS Y7, (R13)(R12*1)
	ADDQ $32, AX
	LEAQ (R13)(R9*4), BX
	DECQ DX
	JMP tb_block

tb_next:
	LEAQ (SI)(R8*8), SI
	ADDQ $32, DI
	DECQ CX
	JMP tb_rows

tb_done:
	VZEROUPPER
	RET
