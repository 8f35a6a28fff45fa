//go:build amd64 && !purego

#include "textflag.h"

// func dwTile16AVX512(dst *float32, n, rows, dstride int, src *float32, sstride, step int, offs *int, w *float32, taps int, bias *float32)
//
// For rows r < rows, pixels i < n (n >= 8) and channels c < 16:
// dst[r*dstride+i*16+c] = bias[c] + Σ_t w[t*16+c]*src[r*sstride+offs[t]+i*step+c],
// summed in increasing t with one rounding per FMA, as dwTileAVX on
// eight lanes: eight pixels a block (eight FMA chains of 16 lanes), the
// last n mod 8 as one more block ending at n, which recomputes some of
// the previous block's pixels.
TEXT ·dwTile16AVX512(SB), NOSPLIT, $0-88
	MOVQ offs+56(FP), R8
	MOVQ w+64(FP), R9
	MOVQ taps+72(FP), R10
	MOVQ bias+80(FP), R11
	VMOVUPS (R11), Z9
	MOVQ step+48(FP), R12
	SHLQ $2, R12
	LEAQ (R12)(R12*2), R13
	MOVQ dst+0(FP), R14
	MOVQ src+32(FP), R15

dz_row:
	MOVQ rows+16(FP), AX
	TESTQ AX, AX
	JEQ dz_done
	DECQ AX
	MOVQ AX, rows+16(FP)
	MOVQ R14, DI
	MOVQ R15, SI
	MOVQ n+8(FP), CX

dz_block:
	VMOVAPS Z9, Z0
	VMOVAPS Z9, Z1
	VMOVAPS Z9, Z2
	VMOVAPS Z9, Z3
	VMOVAPS Z9, Z4
	VMOVAPS Z9, Z5
	VMOVAPS Z9, Z6
	VMOVAPS Z9, Z7
	XORQ BX, BX
	MOVQ R9, R11

dz_tap:
	MOVQ (R8)(BX*8), AX
	LEAQ (SI)(AX*4), AX
	LEAQ (AX)(R12*4), DX
	VMOVUPS (R11), Z8
	VFMADD231PS (AX), Z8, Z0
	VFMADD231PS (AX)(R12*1), Z8, Z1
	VFMADD231PS (AX)(R12*2), Z8, Z2
	VFMADD231PS (AX)(R13*1), Z8, Z3
	VFMADD231PS (DX), Z8, Z4
	VFMADD231PS (DX)(R12*1), Z8, Z5
	VFMADD231PS (DX)(R12*2), Z8, Z6
	VFMADD231PS (DX)(R13*1), Z8, Z7
	ADDQ $64, R11
	INCQ BX
	CMPQ BX, R10
	JLT dz_tap
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	ADDQ $512, DI
	LEAQ (SI)(R12*8), SI
	SUBQ $8, CX
	JEQ dz_next
	CMPQ CX, $8
	JGE dz_block
	// The last CX < 8 pixels: back up 8-CX pixels, one more block.
	MOVQ $8, AX
	SUBQ CX, AX
	MOVQ AX, DX
	SHLQ $6, DX
	SUBQ DX, DI
	IMULQ R12, AX
	SUBQ AX, SI
	MOVQ $8, CX
	JMP dz_block

dz_next:
	MOVQ dstride+24(FP), AX
	LEAQ (R14)(AX*4), R14
	MOVQ sstride+40(FP), AX
	LEAQ (R15)(AX*4), R15
	JMP dz_row

dz_done:
	VZEROUPPER
	RET
