//go:build amd64 && !purego

#include "textflag.h"

// func bilinearRowAVX(row, r1, r2 *float32, x1, x2 *int32, wx2, wx1 *float32, n int, dy2, dy1 float32)
//
// row[i] = (w11·r1[x1[i]] + w12·r1[x2[i]]) + w21·r2[x1[i]] + w22·r2[x2[i]]
// for i < n (n a multiple of 8), where w11 = wx2[i]·dy2, w12 = wx1[i]·dy2,
// w21 = wx2[i]·dy1 and w22 = wx1[i]·dy1: bilinearRowGo's operations,
// each product and sum rounded on its own, the four taps gathered eight
// at a time.
TEXT ·bilinearRowAVX(SB), NOSPLIT, $0-72
	MOVQ row+0(FP), DI
	MOVQ r1+8(FP), SI
	MOVQ r2+16(FP), DX
	MOVQ x1+24(FP), R8
	MOVQ x2+32(FP), R9
	MOVQ wx2+40(FP), R10
	MOVQ wx1+48(FP), R11
	MOVQ n+56(FP), CX
	VBROADCASTSS dy2+64(FP), Y14
	VBROADCASTSS dy1+68(FP), Y15
	SHRQ $3, CX
	JEQ bil_done

bil_loop:
	VMOVDQU (R8), Y0
	VMOVDQU (R9), Y1
	VPCMPEQD Y2, Y2, Y2
	VGATHERDPS Y2, (SI)(Y0*4), Y3 // r1[x1]
	VPCMPEQD Y2, Y2, Y2
	VGATHERDPS Y2, (SI)(Y1*4), Y4 // r1[x2]
	VPCMPEQD Y2, Y2, Y2
	VGATHERDPS Y2, (DX)(Y0*4), Y5 // r2[x1]
	VPCMPEQD Y2, Y2, Y2
	VGATHERDPS Y2, (DX)(Y1*4), Y6 // r2[x2]
	VMOVUPS (R10), Y7
	VMOVUPS (R11), Y8
	VMULPS Y14, Y7, Y9  // w11
	VMULPS Y14, Y8, Y10 // w12
	VMULPS Y15, Y7, Y11 // w21
	VMULPS Y15, Y8, Y12 // w22
	VMULPS Y9, Y3, Y3
	VMULPS Y10, Y4, Y4
	VMULPS Y11, Y5, Y5
	VMULPS Y12, Y6, Y6
	VADDPS Y4, Y3, Y3
	VADDPS Y5, Y3, Y3
	VADDPS Y6, Y3, Y3
	VMOVUPS Y3, (DI)
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNE bil_loop

bil_done:
	VZEROUPPER
	RET
