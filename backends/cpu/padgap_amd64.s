//go:build amd64 && !purego

#include "textflag.h"

// func zeroGapsAVX512(p *float32, pitch, gap, rows int)
//
// Clears gap (1 to 16) floats at p, p+pitch, ... for rows rows, one
// masked store each.
TEXT ·zeroGapsAVX512(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), DI
	MOVQ pitch+8(FP), R8
	SHLQ $2, R8
	MOVQ gap+16(FP), CX
	MOVQ rows+24(FP), DX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1
	VPXORD Z0, Z0, Z0
	TESTQ DX, DX
	JEQ gaps_done

gaps_loop:
	VMOVUPS Z0, K1, (DI)
	ADDQ R8, DI
	DECQ DX
	JNE gaps_loop

gaps_done:
	VZEROUPPER
	RET
