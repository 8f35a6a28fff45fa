//go:build amd64 && !purego

#include "textflag.h"

// func attnRowMaxAVX(row *float32, n int) (m float32, flags int)
//
// m is the largest score of row[0:n] that is not NaN (-inf when none),
// n a multiple of 8; flags bit 0 is set when a score is NaN, bit 1 when
// one is below -MaxFloat32 (-inf), as attnRowMaxGo. In Go's operand
// order VMAXPS b, a, d sets d = a > b ? a : b (b when either is NaN), so
// a NaN score leaves the running maximum as it was.
TEXT ·attnRowMaxAVX(SB), NOSPLIT, $0-32
	MOVQ row+0(FP), SI
	MOVQ n+8(FP), CX
	MOVL $0xff800000, AX // -inf
	MOVL AX, X0
	VBROADCASTSS X0, Y0
	VMOVAPS Y0, Y4
	MOVL $0xff7fffff, AX // -MaxFloat32
	MOVL AX, X7
	VBROADCASTSS X7, Y7
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	SHRQ $3, CX
	JEQ rmax_done
	TESTQ $1, CX
	JEQ rmax_pairs
	VMOVUPS (SI), Y1
	VMAXPS Y0, Y1, Y0
	VCMPPS $3, Y1, Y1, Y2 // NaN
	VORPS Y2, Y5, Y5
	VCMPPS $0x11, Y7, Y1, Y3 // below -MaxFloat32
	VORPS Y3, Y6, Y6
	ADDQ $32, SI
	SHRQ $1, CX
	JEQ rmax_done
	JMP rmax_loop

rmax_pairs:
	SHRQ $1, CX

rmax_loop:
	VMOVUPS (SI), Y1
	VMOVUPS 32(SI), Y8
	VMAXPS Y0, Y1, Y0
	VMAXPS Y4, Y8, Y4
	VCMPPS $3, Y1, Y1, Y2
	VCMPPS $3, Y8, Y8, Y9
	VORPS Y2, Y5, Y5
	VORPS Y9, Y5, Y5
	VCMPPS $0x11, Y7, Y1, Y3
	VCMPPS $0x11, Y7, Y8, Y10
	VORPS Y3, Y6, Y6
	VORPS Y10, Y6, Y6
	ADDQ $64, SI
	DECQ CX
	JNE rmax_loop

rmax_done:
	VMAXPS Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	MOVSS X0, m+16(FP)
	VMOVMSKPS Y5, AX
	VMOVMSKPS Y6, BX
	XORQ DX, DX
	TESTL AX, AX
	SETNE DL
	TESTL BX, BX
	SETNE BL
	MOVBQZX BL, BX
	SHLQ $1, BX
	ORQ BX, DX
	MOVQ DX, flags+24(FP)
	VZEROUPPER
	RET
