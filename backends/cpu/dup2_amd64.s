//go:build amd64 && !purego

#include "textflag.h"

// func dup2x32AVX(d, s unsafe.Pointer, n int)
//
// Writes each of the n 4-byte words of s (n a multiple of 8) twice in a
// row to d: eight words in, sixteen out a step. VUNPCKLPS and VUNPCKHPS
// pair each word with itself within 128-bit lanes; VPERM2F128 puts the
// lanes back in order.
TEXT ·dup2x32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ dup2_done

dup2_loop:
	VMOVUPS (SI), Y0
	VUNPCKLPS Y0, Y0, Y1 // s0 s0 s1 s1 | s4 s4 s5 s5
	VUNPCKHPS Y0, Y0, Y2 // s2 s2 s3 s3 | s6 s6 s7 s7
	VPERM2F128 $0x20, Y2, Y1, Y3 // s0 s0 s1 s1 s2 s2 s3 s3
	VPERM2F128 $0x31, Y2, Y1, Y4 // s4 s4 s5 s5 s6 s6 s7 s7
	VMOVUPS Y3, (DI)
	VMOVUPS Y4, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNE dup2_loop

dup2_done:
	VZEROUPPER
	RET

// func dup2Rows32ManyAVX(d, s unsafe.Pointer, rows, n int)
//
// dup2x32AVX on rows rows of s, n words each (n a multiple of 8), one
// after another, each step written to two rows: row r goes to rows 2r
// and 2r+1 of d, 2n words each, one after another.
TEXT ·dup2Rows32ManyAVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ n+24(FP), R9
	SHRQ $3, R9
	JEQ dup2m_done
	TESTQ R8, R8
	JEQ dup2m_done
	MOVQ R9, R10
	SHLQ $6, R10 // bytes of an output row

dup2m_row:
	LEAQ (DI)(R10*1), DX
	MOVQ R9, CX

dup2m_loop:
	VMOVUPS (SI), Y0
	VUNPCKLPS Y0, Y0, Y1
	VUNPCKHPS Y0, Y0, Y2
	VPERM2F128 $0x20, Y2, Y1, Y3
	VPERM2F128 $0x31, Y2, Y1, Y4
	VMOVUPS Y3, (DI)
	VMOVUPS Y4, 32(DI)
	VMOVUPS Y3, (DX)
	VMOVUPS Y4, 32(DX)
	ADDQ $32, SI
	ADDQ $64, DI
	ADDQ $64, DX
	DECQ CX
	JNE dup2m_loop
	MOVQ DX, DI
	DECQ R8
	JNE dup2m_row

dup2m_done:
	VZEROUPPER
	RET

// func interleave2AddAVX(d, a, b *float32, n int, bias float32)
//
// Sets d[2i] to a[i]+bias and d[2i+1] to b[i]+bias for i < n (n a
// multiple of 8): eight of each in, sixteen out a step, paired as by
// dup2x32AVX.
TEXT ·interleave2AddAVX(SB), NOSPLIT, $0-36
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS bias+32(FP), Y5
	SHRQ $3, CX
	JEQ il2_done

il2_loop:
	VADDPS (SI), Y5, Y0
	VADDPS (DX), Y5, Y6
	VUNPCKLPS Y6, Y0, Y1 // a0 b0 a1 b1 | a4 b4 a5 b5
	VUNPCKHPS Y6, Y0, Y2 // a2 b2 a3 b3 | a6 b6 a7 b7
	VPERM2F128 $0x20, Y2, Y1, Y3
	VPERM2F128 $0x31, Y2, Y1, Y4
	VMOVUPS Y3, (DI)
	VMOVUPS Y4, 32(DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $64, DI
	DECQ CX
	JNE il2_loop

il2_done:
	VZEROUPPER
	RET
