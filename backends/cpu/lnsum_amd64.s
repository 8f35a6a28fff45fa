//go:build amd64 && !purego

#include "textflag.h"

// func lnSums8AVX(x *float32, n, stride int, sum, sq *[8]float32)
//
// For the eight rows x[r·stride:][:n], r < 8, sum[r] and sq[r] are the
// row's sum and sum of squares in float32, each row's values added in
// order as layerNormRun's loop adds them (v·v rounded, then added): lane
// r of one vector runs row r, fed by a gather.
TEXT ·lnSums8AVX(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ stride+16(FP), DX
	// Y7 = [0, stride, ..., 7·stride] as int32.
	MOVL DX, X7
	VPBROADCASTD X7, Y7
	VPMULLD ·lnLanes(SB), Y7, Y7
	VXORPS Y0, Y0, Y0 // sums
	VXORPS Y1, Y1, Y1 // sums of squares
	VPCMPEQD Y6, Y6, Y6
	TESTQ CX, CX
	JEQ lns_done

lns_loop:
	VMOVDQA Y6, Y5
	VXORPS Y2, Y2, Y2
	VGATHERDPS Y5, (SI)(Y7*4), Y2
	VADDPS Y2, Y0, Y0
	VMULPS Y2, Y2, Y3
	VADDPS Y3, Y1, Y1
	ADDQ $4, SI
	DECQ CX
	JNE lns_loop

lns_done:
	MOVQ sum+24(FP), AX
	VMOVUPS Y0, (AX)
	MOVQ sq+32(FP), AX
	VMOVUPS Y1, (AX)
	VZEROUPPER
	RET

DATA ·lnLanes+0(SB)/4, $0
DATA ·lnLanes+4(SB)/4, $1
DATA ·lnLanes+8(SB)/4, $2
DATA ·lnLanes+12(SB)/4, $3
DATA ·lnLanes+16(SB)/4, $4
DATA ·lnLanes+20(SB)/4, $5
DATA ·lnLanes+24(SB)/4, $6
DATA ·lnLanes+28(SB)/4, $7
GLOBL ·lnLanes(SB), RODATA|NOPTR, $32
