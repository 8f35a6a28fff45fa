//go:build amd64 && !purego

#include "textflag.h"

// func maxPool2x2S2AVX(dst *float32, n int, r0, r1 *float32, lowest float32)
//
// dst[i] = the running maximum, from lowest, of r0[2i], r0[2i+1], r1[2i],
// r1[2i+1] in that order, a value replacing it only when greater (as
// maxPool2x2), for i < n, n a multiple of 8.
TEXT ·maxPool2x2S2AVX(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ r0+16(FP), SI
	MOVQ r1+24(FP), DX
	VBROADCASTSS lowest+32(FP), Y15
	SHRQ $3, CX
	JEQ mp_done

mp_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS (DX), Y2
	VMOVUPS 32(DX), Y3
	VSHUFPS $0x88, Y1, Y0, Y4 // r0 even, lanes mixed
	VSHUFPS $0xdd, Y1, Y0, Y5 // r0 odd
	VSHUFPS $0x88, Y3, Y2, Y6 // r1 even
	VSHUFPS $0xdd, Y3, Y2, Y7 // r1 odd
	VMAXPS Y15, Y4, Y8        // v > m ? v : m
	VMAXPS Y8, Y5, Y8
	VMAXPS Y8, Y6, Y8
	VMAXPS Y8, Y7, Y8
	VPERMPD $0xd8, Y8, Y8     // lanes back in order
	VMOVUPS Y8, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $32, DI
	DECQ CX
	JNE mp_loop

mp_done:
	VZEROUPPER
	RET

// func maxPool2x2S2RowsAVX(dst *float32, n, rows int, x *float32, iw int, lowest float32)
//
// maxPool2x2S2AVX on rows output rows: output row r, n floats at dst+r*n,
// takes input rows 2r and 2r+1 of x, iw floats apart; n a multiple of 8.
TEXT ·maxPool2x2S2RowsAVX(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), R8
	MOVQ rows+16(FP), R9
	MOVQ x+24(FP), R10
	MOVQ iw+32(FP), R11
	VBROADCASTSS lowest+40(FP), Y15
	SHLQ $2, R11              // iw in bytes
	SHRQ $3, R8
	JEQ mr_done
	TESTQ R9, R9
	JEQ mr_done

mr_row:
	MOVQ R10, SI
	LEAQ (R10)(R11*1), DX
	MOVQ R8, CX

mr_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS (DX), Y2
	VMOVUPS 32(DX), Y3
	VSHUFPS $0x88, Y1, Y0, Y4
	VSHUFPS $0xdd, Y1, Y0, Y5
	VSHUFPS $0x88, Y3, Y2, Y6
	VSHUFPS $0xdd, Y3, Y2, Y7
	VMAXPS Y15, Y4, Y8
	VMAXPS Y8, Y5, Y8
	VMAXPS Y8, Y6, Y8
	VMAXPS Y8, Y7, Y8
	VPERMPD $0xd8, Y8, Y8
	VMOVUPS Y8, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $32, DI
	DECQ CX
	JNE mr_loop

	LEAQ (R10)(R11*2), R10    // next pair of input rows
	DECQ R9
	JNE mr_row

mr_done:
	VZEROUPPER
	RET
