//go:build amd64 && !purego

#include "textflag.h"

// The pairs of floats in their order after VSHUFPS splits two 16-float
// vectors into even and odd floats within each 128-bit lane: output pair
// k sits at qword mpPairIdx[k].
DATA mpPairIdx<>+0(SB)/8, $0
DATA mpPairIdx<>+8(SB)/8, $2
DATA mpPairIdx<>+16(SB)/8, $4
DATA mpPairIdx<>+24(SB)/8, $6
DATA mpPairIdx<>+32(SB)/8, $1
DATA mpPairIdx<>+40(SB)/8, $3
DATA mpPairIdx<>+48(SB)/8, $5
DATA mpPairIdx<>+56(SB)/8, $7
GLOBL mpPairIdx<>(SB), RODATA|NOPTR, $64

// MP16 sets Z8 to the sixteen outputs of the input floats in Z0, Z1 (row
// 0) and Z2, Z3 (row 1): the running maximum, from Z15, of r0[2i],
// r0[2i+1], r1[2i], r1[2i+1] in that order, a value replacing it only
// when greater. Z14 holds mpPairIdx.
#define MP16 \
	VSHUFPS $0x88, Z1, Z0, Z4 \
	VSHUFPS $0xdd, Z1, Z0, Z5 \
	VSHUFPS $0x88, Z3, Z2, Z6 \
	VSHUFPS $0xdd, Z3, Z2, Z7 \
	VMAXPS Z15, Z4, Z8 \
	VMAXPS Z8, Z5, Z8 \
	VMAXPS Z8, Z6, Z8 \
	VMAXPS Z8, Z7, Z8 \
	VPERMPD Z8, Z14, Z8

// MP8 is maxPool2x2S2AVX's step: eight outputs at DI from the sixteen
// floats at SI (row 0) and DX (row 1), the running maximum from Y15.
#define MP8 \
	VMOVUPS (SI), Y0 \
	VMOVUPS 32(SI), Y1 \
	VMOVUPS (DX), Y2 \
	VMOVUPS 32(DX), Y3 \
	VSHUFPS $0x88, Y1, Y0, Y4 \
	VSHUFPS $0xdd, Y1, Y0, Y5 \
	VSHUFPS $0x88, Y3, Y2, Y6 \
	VSHUFPS $0xdd, Y3, Y2, Y7 \
	VMAXPS Y15, Y4, Y8 \
	VMAXPS Y8, Y5, Y8 \
	VMAXPS Y8, Y6, Y8 \
	VMAXPS Y8, Y7, Y8 \
	VPERMPD $0xd8, Y8, Y8 \
	VMOVUPS Y8, (DI)

// func maxPool2x2S2AVX512(dst *float32, n int, r0, r1 *float32, lowest float32)
//
// maxPool2x2S2AVX sixteen outputs a step, then eight where n mod 16 is 8;
// n a multiple of 8. No masks: masked loads and stores ran slower than
// the AVX2 step on the CPUs measured.
TEXT ·maxPool2x2S2AVX512(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), R8
	MOVQ r0+16(FP), SI
	MOVQ r1+24(FP), DX
	VBROADCASTSS lowest+32(FP), Z15
	VMOVUPS mpPairIdx<>(SB), Z14
	MOVQ R8, R12
	ANDQ $8, R12
	SHRQ $4, R8
	JEQ mp5_tail

mp5_loop:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VMOVUPS (DX), Z2
	VMOVUPS 64(DX), Z3
	MP16
	VMOVUPS Z8, (DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $64, DI
	DECQ R8
	JNE mp5_loop

mp5_tail:
	TESTQ R12, R12
	JEQ mp5_done
	MP8

mp5_done:
	VZEROUPPER
	RET

// func maxPool2x2S2RowsAVX512(dst *float32, n, rows int, x *float32, iw int, lowest float32)
//
// maxPool2x2S2AVX512 on rows output rows: output row r, n floats at
// dst+r*n, takes input rows 2r and 2r+1 of x, iw floats apart; n a
// multiple of 8.
TEXT ·maxPool2x2S2RowsAVX512(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), R8
	MOVQ rows+16(FP), R9
	MOVQ x+24(FP), R10
	MOVQ iw+32(FP), R11
	VBROADCASTSS lowest+40(FP), Z15
	VMOVUPS mpPairIdx<>(SB), Z14
	SHLQ $2, R11 // iw in bytes
	MOVQ R8, R12
	ANDQ $8, R12
	SHRQ $4, R8
	TESTQ R9, R9
	JEQ mr5_done

mr5_row:
	MOVQ R10, SI
	LEAQ (R10)(R11*1), DX
	MOVQ R8, AX
	TESTQ AX, AX
	JEQ mr5_tail

mr5_loop:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VMOVUPS (DX), Z2
	VMOVUPS 64(DX), Z3
	MP16
	VMOVUPS Z8, (DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $64, DI
	DECQ AX
	JNE mr5_loop

mr5_tail:
	TESTQ R12, R12
	JEQ mr5_next
	MP8
	ADDQ $32, DI

mr5_next:
	LEAQ (R10)(R11*2), R10 // next pair of input rows
	DECQ R9
	JNE mr5_row

mr5_done:
	VZEROUPPER
	RET
