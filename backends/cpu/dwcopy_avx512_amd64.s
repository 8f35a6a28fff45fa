//go:build amd64 && !purego

#include "textflag.h"

// Indices of the even and odd elements of a pair of 16-float vectors.
DATA dwEvenIdx<>+0(SB)/4, $0
DATA dwEvenIdx<>+4(SB)/4, $2
DATA dwEvenIdx<>+8(SB)/4, $4
DATA dwEvenIdx<>+12(SB)/4, $6
DATA dwEvenIdx<>+16(SB)/4, $8
DATA dwEvenIdx<>+20(SB)/4, $10
DATA dwEvenIdx<>+24(SB)/4, $12
DATA dwEvenIdx<>+28(SB)/4, $14
DATA dwEvenIdx<>+32(SB)/4, $16
DATA dwEvenIdx<>+36(SB)/4, $18
DATA dwEvenIdx<>+40(SB)/4, $20
DATA dwEvenIdx<>+44(SB)/4, $22
DATA dwEvenIdx<>+48(SB)/4, $24
DATA dwEvenIdx<>+52(SB)/4, $26
DATA dwEvenIdx<>+56(SB)/4, $28
DATA dwEvenIdx<>+60(SB)/4, $30
GLOBL dwEvenIdx<>(SB), RODATA|NOPTR, $64

DATA dwOddIdx<>+0(SB)/4, $1
DATA dwOddIdx<>+4(SB)/4, $3
DATA dwOddIdx<>+8(SB)/4, $5
DATA dwOddIdx<>+12(SB)/4, $7
DATA dwOddIdx<>+16(SB)/4, $9
DATA dwOddIdx<>+20(SB)/4, $11
DATA dwOddIdx<>+24(SB)/4, $13
DATA dwOddIdx<>+28(SB)/4, $15
DATA dwOddIdx<>+32(SB)/4, $17
DATA dwOddIdx<>+36(SB)/4, $19
DATA dwOddIdx<>+40(SB)/4, $21
DATA dwOddIdx<>+44(SB)/4, $23
DATA dwOddIdx<>+48(SB)/4, $25
DATA dwOddIdx<>+52(SB)/4, $27
DATA dwOddIdx<>+56(SB)/4, $29
DATA dwOddIdx<>+60(SB)/4, $31
GLOBL dwOddIdx<>(SB), RODATA|NOPTR, $64

// func copyStridedAVX512(dst *float32, dstride int, src *float32, sstride int, n, rows int)
//
// dst[r*dstride+i] = src[r*sstride+i] for i < n, r < rows: 16 floats a
// step, the row's last n mod 16 under a mask (no scalar tail).
TEXT ·copyStridedAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ dstride+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ sstride+24(FP), R10
	SHLQ $2, R10
	MOVQ n+32(FP), DX
	MOVQ rows+40(FP), R9
	TESTQ R9, R9
	JEQ cs5_done
	// K1: the tail's mask, (1 << (n mod 16)) - 1.
	MOVQ DX, CX
	ANDQ $15, CX
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	KMOVW BX, K1
	// R11: the whole vectors' floats.
	MOVQ DX, R11
	ANDQ $-16, R11

cs5_row:
	XORQ AX, AX

cs5_vec:
	CMPQ AX, R11
	JGE cs5_tail
	VMOVUPS (SI)(AX*4), Z0
	VMOVUPS Z0, (DI)(AX*4)
	ADDQ $16, AX
	JMP cs5_vec

cs5_tail:
	VMOVUPS.Z (SI)(AX*4), K1, Z0
	VMOVUPS Z0, K1, (DI)(AX*4)
	ADDQ R8, DI
	ADDQ R10, SI
	DECQ R9
	JNE cs5_row

cs5_done:
	VZEROUPPER
	RET

// func deinterleaveRowsAVX512(even, odd *float32, dstride int, src *float32, sstride int, n, rows int)
//
// For r < rows: even[r*dstride+j] = src[r*sstride+2j] for 2j < n and
// odd[r*dstride+j] = src[r*sstride+2j+1] for 2j+1 < n: 32 source floats
// a step, the row's last n mod 32 under masks (no scalar tail).
TEXT ·deinterleaveRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ even+0(FP), DI
	MOVQ odd+8(FP), R11
	MOVQ dstride+16(FP), R8
	SHLQ $2, R8
	MOVQ src+24(FP), SI
	MOVQ sstride+32(FP), R10
	SHLQ $2, R10
	MOVQ n+40(FP), DX
	MOVQ rows+48(FP), R9
	TESTQ R9, R9
	JEQ di5_done
	VMOVUPS dwEvenIdx<>(SB), Z30
	VMOVUPS dwOddIdx<>(SB), Z31
	// The tail's m = n mod 32 floats: K1 loads the first min(m, 16),
	// K2 the next max(m-16, 0); K3 stores (m+1)/2 even floats and K4
	// m/2 odd ones.
	MOVQ DX, R12
	ANDQ $31, R12
	MOVQ R12, CX
	CMPQ CX, $16
	JLE di5_k1
	MOVQ $16, CX

di5_k1:
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	KMOVW BX, K1
	MOVQ R12, CX
	SUBQ $16, CX
	JGE di5_k2
	XORQ CX, CX

di5_k2:
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	KMOVW BX, K2
	LEAQ 1(R12), CX
	SHRQ $1, CX
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	KMOVW BX, K3
	MOVQ R12, CX
	SHRQ $1, CX
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	KMOVW BX, K4
	// R13: the whole steps' source floats.
	MOVQ DX, R13
	ANDQ $-32, R13

di5_row:
	XORQ AX, AX

di5_vec:
	CMPQ AX, R13
	JGE di5_tail
	VMOVUPS (SI)(AX*4), Z0
	VMOVUPS 64(SI)(AX*4), Z1
	VMOVAPS Z0, Z2
	VPERMT2PS Z1, Z30, Z2
	VPERMT2PS Z1, Z31, Z0
	MOVQ AX, BX
	SHRQ $1, BX
	VMOVUPS Z2, (DI)(BX*4)
	VMOVUPS Z0, (R11)(BX*4)
	ADDQ $32, AX
	JMP di5_vec

di5_tail:
	TESTQ R12, R12
	JEQ di5_next
	VMOVUPS.Z (SI)(AX*4), K1, Z0
	VMOVUPS.Z 64(SI)(AX*4), K2, Z1
	VMOVAPS Z0, Z2
	VPERMT2PS Z1, Z30, Z2
	VPERMT2PS Z1, Z31, Z0
	MOVQ AX, BX
	SHRQ $1, BX
	VMOVUPS Z2, K3, (DI)(BX*4)
	VMOVUPS Z0, K4, (R11)(BX*4)

di5_next:
	ADDQ R8, DI
	ADDQ R8, R11
	ADDQ R10, SI
	DECQ R9
	JNE di5_row

di5_done:
	VZEROUPPER
	RET
