//go:build amd64 && !purego

#include "textflag.h"

// func dwTile16AVX512(dst *float32, n, rows, dstride int, src *float32, sstride, step int, offs *int, w *float32, taps int, bias *float32)
//
// For rows r < rows, pixels i < n (n >= 8) and channels c < 16:
// dst[r*dstride+i*16+c] = bias[c] + Σ_t w[t*16+c]*src[r*sstride+offs[t]+i*step+c],
// summed in increasing t with one rounding per FMA, as dwTileAVX on
// eight lanes: sixteen pixels a block (sixteen FMA chains of 16 lanes,
// enough to cover the FMA's latency at two a cycle) while sixteen are
// left, then eight, the last n mod 8 as one more block of eight ending
// at n, which recomputes some of the previous block's pixels.
TEXT ·dwTile16AVX512(SB), NOSPLIT, $0-88
	MOVQ offs+56(FP), R8
	MOVQ w+64(FP), R9
	MOVQ taps+72(FP), R10
	MOVQ bias+80(FP), R11
	VMOVUPS (R11), Z31
	MOVQ step+48(FP), R12
	SHLQ $2, R12
	LEAQ (R12)(R12*2), R13

dz_row:
	MOVQ rows+16(FP), AX
	TESTQ AX, AX
	JEQ dz_done
	DECQ AX
	MOVQ AX, rows+16(FP)
	MOVQ dst+0(FP), DI
	MOVQ src+32(FP), SI
	MOVQ n+8(FP), CX

dz_wide:
	CMPQ CX, $16
	JLT dz_block
	VMOVAPS Z31, Z0
	VMOVAPS Z31, Z1
	VMOVAPS Z31, Z2
	VMOVAPS Z31, Z3
	VMOVAPS Z31, Z4
	VMOVAPS Z31, Z5
	VMOVAPS Z31, Z6
	VMOVAPS Z31, Z7
	VMOVAPS Z31, Z8
	VMOVAPS Z31, Z9
	VMOVAPS Z31, Z10
	VMOVAPS Z31, Z11
	VMOVAPS Z31, Z12
	VMOVAPS Z31, Z13
	VMOVAPS Z31, Z14
	VMOVAPS Z31, Z15
	XORQ BX, BX
	MOVQ R9, R11

dz_wtap:
	MOVQ (R8)(BX*8), AX
	LEAQ (SI)(AX*4), AX
	LEAQ (AX)(R12*4), DX
	LEAQ (AX)(R12*8), R14
	LEAQ (DX)(R12*8), R15
	VMOVUPS (R11), Z30
	VFMADD231PS (AX), Z30, Z0
	VFMADD231PS (AX)(R12*1), Z30, Z1
	VFMADD231PS (AX)(R12*2), Z30, Z2
	VFMADD231PS (AX)(R13*1), Z30, Z3
	VFMADD231PS (DX), Z30, Z4
	VFMADD231PS (DX)(R12*1), Z30, Z5
	VFMADD231PS (DX)(R12*2), Z30, Z6
	VFMADD231PS (DX)(R13*1), Z30, Z7
	VFMADD231PS (R14), Z30, Z8
	VFMADD231PS (R14)(R12*1), Z30, Z9
	VFMADD231PS (R14)(R12*2), Z30, Z10
	VFMADD231PS (R14)(R13*1), Z30, Z11
	VFMADD231PS (R15), Z30, Z12
	VFMADD231PS (R15)(R12*1), Z30, Z13
	VFMADD231PS (R15)(R12*2), Z30, Z14
	VFMADD231PS (R15)(R13*1), Z30, Z15
	ADDQ $64, R11
	INCQ BX
	CMPQ BX, R10
	JLT dz_wtap
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VMOVUPS Z8, 512(DI)
	VMOVUPS Z9, 576(DI)
	VMOVUPS Z10, 640(DI)
	VMOVUPS Z11, 704(DI)
	VMOVUPS Z12, 768(DI)
	VMOVUPS Z13, 832(DI)
	VMOVUPS Z14, 896(DI)
	VMOVUPS Z15, 960(DI)
	ADDQ $1024, DI
	MOVQ R12, AX
	SHLQ $4, AX
	ADDQ AX, SI
	SUBQ $16, CX
	JEQ dz_next
	JMP dz_wide

dz_block:
	CMPQ CX, $8
	JGE dz_eight
	// The last CX < 8 pixels: back up 8-CX pixels, one more block.
	MOVQ $8, AX
	SUBQ CX, AX
	MOVQ AX, DX
	SHLQ $6, DX
	SUBQ DX, DI
	IMULQ R12, AX
	SUBQ AX, SI
	MOVQ $8, CX

dz_eight:
	VMOVAPS Z31, Z0
	VMOVAPS Z31, Z1
	VMOVAPS Z31, Z2
	VMOVAPS Z31, Z3
	VMOVAPS Z31, Z4
	VMOVAPS Z31, Z5
	VMOVAPS Z31, Z6
	VMOVAPS Z31, Z7
	XORQ BX, BX
	MOVQ R9, R11

dz_tap:
	MOVQ (R8)(BX*8), AX
	LEAQ (SI)(AX*4), AX
	LEAQ (AX)(R12*4), DX
	VMOVUPS (R11), Z30
	VFMADD231PS (AX), Z30, Z0
	VFMADD231PS (AX)(R12*1), Z30, Z1
	VFMADD231PS (AX)(R12*2), Z30, Z2
	VFMADD231PS (AX)(R13*1), Z30, Z3
	VFMADD231PS (DX), Z30, Z4
	VFMADD231PS (DX)(R12*1), Z30, Z5
	VFMADD231PS (DX)(R12*2), Z30, Z6
	VFMADD231PS (DX)(R13*1), Z30, Z7
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
	JNE dz_block

dz_next:
	MOVQ dstride+24(FP), AX
	SHLQ $2, AX
	ADDQ AX, dst+0(FP)
	MOVQ sstride+40(FP), AX
	SHLQ $2, AX
	ADDQ AX, src+32(FP)
	JMP dz_row

dz_done:
	VZEROUPPER
	RET
