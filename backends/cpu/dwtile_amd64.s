//go:build amd64 && !purego

#include "textflag.h"

#include "transpose_amd64.h"

// func transpose8AVX(dst, src *float32, stride, n, lanes int)
//
// dst[j*lanes+c] = src[c*stride+j] for j < n, c < 8: eight pixels a
// block, the last n mod 8 in a block overlapping the previous one when
// n >= 8, else one by one.
TEXT ·transpose8AVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $2, R8
	MOVQ n+24(FP), CX
	MOVQ lanes+32(FP), R12
	SHLQ $2, R12
	LEAQ (R12)(R12*2), R13
	LEAQ (R8)(R8*2), R9
	LEAQ (SI)(R8*4), R10
	MOVQ CX, R11

tr_vec:
	CMPQ CX, $8
	JLT tr_tail
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VMOVUPS (SI)(R8*2), Y2
	VMOVUPS (SI)(R9*1), Y3
	VMOVUPS (R10), Y4
	VMOVUPS (R10)(R8*1), Y5
	VMOVUPS (R10)(R8*2), Y6
	VMOVUPS (R10)(R9*1), Y7
	TRANSPOSE8
	LEAQ (DI)(R12*4), DX
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, (DI)(R12*1)
	VMOVUPS Y2, (DI)(R12*2)
	VMOVUPS Y3, (DI)(R13*1)
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, (DX)(R12*1)
	VMOVUPS Y6, (DX)(R12*2)
	VMOVUPS Y7, (DX)(R13*1)
	ADDQ $32, SI
	ADDQ $32, R10
	LEAQ (DI)(R12*8), DI
	SUBQ $8, CX
	JMP tr_vec

tr_tail:
	TESTQ CX, CX
	JEQ tr_done
	// With n >= 8, the last n mod 8 go as one more block ending at n,
	// rewriting some of the previous one's values.
	CMPQ R11, $8
	JLT tr_one
	MOVQ $8, AX
	SUBQ CX, AX
	MOVQ AX, DX
	SHLQ $2, DX
	SUBQ DX, SI
	SUBQ DX, R10
	IMULQ R12, AX
	SUBQ AX, DI
	MOVQ $8, CX
	MOVQ $0, R11
	JMP tr_vec

tr_one:
	TESTQ CX, CX
	JEQ tr_done
	MOVL (SI), AX
	MOVL AX, (DI)
	MOVL (SI)(R8*1), AX
	MOVL AX, 4(DI)
	MOVL (SI)(R8*2), AX
	MOVL AX, 8(DI)
	MOVL (SI)(R9*1), AX
	MOVL AX, 12(DI)
	MOVL (R10), AX
	MOVL AX, 16(DI)
	MOVL (R10)(R8*1), AX
	MOVL AX, 20(DI)
	MOVL (R10)(R8*2), AX
	MOVL AX, 24(DI)
	MOVL (R10)(R9*1), AX
	MOVL AX, 28(DI)
	ADDQ $4, SI
	ADDQ $4, R10
	ADDQ R12, DI
	DECQ CX
	JMP tr_one

tr_done:
	VZEROUPPER
	RET

// func untranspose8AVX(dst *float32, stride int, src *float32, n, lanes int)
//
// dst[c*stride+j] = src[j*lanes+c] for j < n, c < 8, in blocks as
// transpose8AVX.
TEXT ·untranspose8AVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ stride+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ lanes+32(FP), R12
	SHLQ $2, R12
	LEAQ (R12)(R12*2), R13
	LEAQ (R8)(R8*2), R9
	LEAQ (DI)(R8*4), R10
	MOVQ CX, R11

ut_vec:
	CMPQ CX, $8
	JLT ut_tail
	LEAQ (SI)(R12*4), DX
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R12*1), Y1
	VMOVUPS (SI)(R12*2), Y2
	VMOVUPS (SI)(R13*1), Y3
	VMOVUPS (DX), Y4
	VMOVUPS (DX)(R12*1), Y5
	VMOVUPS (DX)(R12*2), Y6
	VMOVUPS (DX)(R13*1), Y7
	TRANSPOSE8
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, (DI)(R8*1)
	VMOVUPS Y2, (DI)(R8*2)
	VMOVUPS Y3, (DI)(R9*1)
	VMOVUPS Y4, (R10)
	VMOVUPS Y5, (R10)(R8*1)
	VMOVUPS Y6, (R10)(R8*2)
	VMOVUPS Y7, (R10)(R9*1)
	LEAQ (SI)(R12*8), SI
	ADDQ $32, DI
	ADDQ $32, R10
	SUBQ $8, CX
	JMP ut_vec

ut_tail:
	TESTQ CX, CX
	JEQ ut_done
	// With n >= 8, the last n mod 8 go as one more block ending at n,
	// rewriting some of the previous one's values.
	CMPQ R11, $8
	JLT ut_one
	MOVQ $8, AX
	SUBQ CX, AX
	MOVQ AX, DX
	SHLQ $2, DX
	SUBQ DX, DI
	SUBQ DX, R10
	IMULQ R12, AX
	SUBQ AX, SI
	MOVQ $8, CX
	MOVQ $0, R11
	JMP ut_vec

ut_one:
	TESTQ CX, CX
	JEQ ut_done
	MOVL (SI), AX
	MOVL AX, (DI)
	MOVL 4(SI), AX
	MOVL AX, (DI)(R8*1)
	MOVL 8(SI), AX
	MOVL AX, (DI)(R8*2)
	MOVL 12(SI), AX
	MOVL AX, (DI)(R9*1)
	MOVL 16(SI), AX
	MOVL AX, (R10)
	MOVL 20(SI), AX
	MOVL AX, (R10)(R8*1)
	MOVL 24(SI), AX
	MOVL AX, (R10)(R8*2)
	MOVL 28(SI), AX
	MOVL AX, (R10)(R9*1)
	ADDQ R12, SI
	ADDQ $4, DI
	ADDQ $4, R10
	DECQ CX
	JMP ut_one

ut_done:
	VZEROUPPER
	RET

// func dwTileAVX(dst *float32, n, rows, dstride int, src *float32, sstride, step int, offs *int, w *float32, taps int, bias *float32)
//
// For rows r < rows, pixels i < n (n >= 8) and channels c < 8:
// dst[r*dstride+i*8+c] = bias[c] + Σ_t w[t*8+c]*src[r*sstride+offs[t]+i*step+c],
// summed in increasing t with one rounding per FMA; eight pixels a
// block (eight FMA chains), the last n mod 8 as one more block ending at
// n, which recomputes some of the previous block's pixels.
TEXT ·dwTileAVX(SB), NOSPLIT, $0-88
	MOVQ offs+56(FP), R8
	MOVQ w+64(FP), R9
	MOVQ taps+72(FP), R10
	MOVQ bias+80(FP), R11
	VMOVUPS (R11), Y9
	MOVQ step+48(FP), R12
	SHLQ $2, R12
	LEAQ (R12)(R12*2), R13

dt_row:
	MOVQ rows+16(FP), AX
	TESTQ AX, AX
	JEQ dt_done
	DECQ AX
	MOVQ AX, rows+16(FP)
	MOVQ dst+0(FP), DI
	MOVQ src+32(FP), SI
	MOVQ n+8(FP), CX

dt_block:
	VMOVAPS Y9, Y0
	VMOVAPS Y9, Y1
	VMOVAPS Y9, Y2
	VMOVAPS Y9, Y3
	VMOVAPS Y9, Y4
	VMOVAPS Y9, Y5
	VMOVAPS Y9, Y6
	VMOVAPS Y9, Y7
	XORQ BX, BX
	MOVQ R9, R11

dt_tap:
	MOVQ (R8)(BX*8), AX
	LEAQ (SI)(AX*4), AX
	LEAQ (AX)(R12*4), DX
	VMOVUPS (R11), Y8
	VFMADD231PS (AX), Y8, Y0
	VFMADD231PS (AX)(R12*1), Y8, Y1
	VFMADD231PS (AX)(R12*2), Y8, Y2
	VFMADD231PS (AX)(R13*1), Y8, Y3
	VFMADD231PS (DX), Y8, Y4
	VFMADD231PS (DX)(R12*1), Y8, Y5
	VFMADD231PS (DX)(R12*2), Y8, Y6
	VFMADD231PS (DX)(R13*1), Y8, Y7
	ADDQ $32, R11
	INCQ BX
	CMPQ BX, R10
	JLT dt_tap
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	ADDQ $256, DI
	LEAQ (SI)(R12*8), SI
	SUBQ $8, CX
	JEQ dt_next
	CMPQ CX, $8
	JGE dt_block
	// The last CX < 8 pixels: back up 8-CX pixels, one more block.
	MOVQ $8, AX
	SUBQ CX, AX
	MOVQ AX, DX
	SHLQ $5, DX
	SUBQ DX, DI
	IMULQ R12, AX
	SUBQ AX, SI
	MOVQ $8, CX
	JMP dt_block

dt_next:
	MOVQ dstride+24(FP), AX
	SHLQ $2, AX
	ADDQ AX, dst+0(FP)
	MOVQ sstride+40(FP), AX
	SHLQ $2, AX
	ADDQ AX, src+32(FP)
	JMP dt_row

dt_done:
	VZEROUPPER
	RET
