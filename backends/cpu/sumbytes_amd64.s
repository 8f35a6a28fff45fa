//go:build amd64 && !purego

#include "textflag.h"

// func sumBytesAVX2(x *byte, n int, flip byte) uint64
//
// The sum of x[i] ^ flip over n bytes, n a multiple of 64: VPSADBW
// against zero sums each eight bytes into a 64-bit lane.
TEXT ·sumBytesAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVBLZX flip+16(FP), AX
	VMOVD AX, X15
	VPBROADCASTB X15, Y15
	VPXOR Y14, Y14, Y14
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	SHRQ $6, CX
	JEQ sb_done
sb_loop:
	VPXOR (SI), Y15, Y2
	VPXOR 32(SI), Y15, Y3
	VPSADBW Y14, Y2, Y2
	VPSADBW Y14, Y3, Y3
	VPADDQ Y2, Y0, Y0
	VPADDQ Y3, Y1, Y1
	ADDQ $64, SI
	DECQ CX
	JNE sb_loop
sb_done:
	VPADDQ Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
