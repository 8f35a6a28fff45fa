//go:build amd64 && !purego

#include "textflag.h"

// BILSUM stores at (DI) the bilinear sum of the taps r1[x1] (Y3),
// r1[x2] (Y4), r2[x1] (Y5) and r2[x2] (Y6) with the column weights wx2
// (Y7) and wx1 (Y8) and the row weights dy2 (Y14) and dy1 (Y15): the
// combined weights each rounded, the four products each rounded, added
// left to right. It clobbers Y3-Y6 and Y9-Y12.
#define BILSUM \
	VMULPS Y14, Y7, Y9; \
	VMULPS Y14, Y8, Y10; \
	VMULPS Y15, Y7, Y11; \
	VMULPS Y15, Y8, Y12; \
	VMULPS Y9, Y3, Y3; \
	VMULPS Y10, Y4, Y4; \
	VMULPS Y11, Y5, Y5; \
	VMULPS Y12, Y6, Y6; \
	VADDPS Y4, Y3, Y3; \
	VADDPS Y5, Y3, Y3; \
	VADDPS Y6, Y3, Y3; \
	VMOVUPS Y3, (DI)

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
	BILSUM
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

// func bilinearRowPermAVX(row, r1, r2 *float32, b1, b2, p1, p2 *int32, wx2, wx1 *float32, groups int, dy2, dy1 float32)
//
// bilinearRowAVX's sums for groups of eight columns whose taps fall
// inside one window of eight input columns each: group g's first taps
// are r[b1[g] + p1[8g+l]] and its second r[b2[g] + p2[8g+l]], so that
// each tap vector is one permutation (VPERMPS) of a load instead of a
// gather. Every window lies inside its row.
TEXT ·bilinearRowPermAVX(SB), NOSPLIT, $0-88
	MOVQ row+0(FP), DI
	MOVQ r1+8(FP), SI
	MOVQ r2+16(FP), DX
	MOVQ b1+24(FP), R8
	MOVQ b2+32(FP), R9
	MOVQ p1+40(FP), R10
	MOVQ p2+48(FP), R11
	MOVQ wx2+56(FP), R12
	MOVQ wx1+64(FP), R13
	MOVQ groups+72(FP), CX
	VBROADCASTSS dy2+80(FP), Y14
	VBROADCASTSS dy1+84(FP), Y15
	TESTQ CX, CX
	JEQ bilp_done

bilp_loop:
	MOVLQSX (R8), AX
	MOVLQSX (R9), BX
	VMOVDQU (R10), Y0
	VMOVDQU (R11), Y1
	VPERMPS (SI)(AX*4), Y0, Y3 // r1[x1]
	VPERMPS (SI)(BX*4), Y1, Y4 // r1[x2]
	VPERMPS (DX)(AX*4), Y0, Y5 // r2[x1]
	VPERMPS (DX)(BX*4), Y1, Y6 // r2[x2]
	VMOVUPS (R12), Y7
	VMOVUPS (R13), Y8
	BILSUM
	ADDQ $32, DI
	ADDQ $4, R8
	ADDQ $4, R9
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	ADDQ $32, R13
	DECQ CX
	JNE bilp_loop

bilp_done:
	VZEROUPPER
	RET

// func bilinearRowPerm16AVX(row, r1, r2 *float32, b1, b2, p1, p2 *int32, wx2, wx1 *float32, groups int, dy2, dy1 float32)
//
// bilinearRowPermAVX over windows of sixteen input columns (a
// downsampling's taps): each tap vector is the permutations of the
// window's two halves, blended on the offsets past seven.
TEXT ·bilinearRowPerm16AVX(SB), NOSPLIT, $0-88
	MOVQ row+0(FP), DI
	MOVQ r1+8(FP), SI
	MOVQ r2+16(FP), DX
	MOVQ b1+24(FP), R8
	MOVQ b2+32(FP), R9
	MOVQ p1+40(FP), R10
	MOVQ p2+48(FP), R11
	MOVQ wx2+56(FP), R12
	MOVQ wx1+64(FP), R13
	MOVQ groups+72(FP), CX
	VBROADCASTSS dy2+80(FP), Y14
	VBROADCASTSS dy1+84(FP), Y15
	MOVL $7, AX
	MOVD AX, X13
	VPBROADCASTD X13, Y13
	TESTQ CX, CX
	JEQ bilq_done

bilq_loop:
	MOVLQSX (R8), AX
	MOVLQSX (R9), BX
	VMOVDQU (R10), Y0
	VMOVDQU (R11), Y1
	VPCMPGTD Y13, Y0, Y2 // p1 > 7: the upper half
	VPCMPGTD Y13, Y1, Y3
	VMOVUPS (R12), Y7
	VMOVUPS (R13), Y8

	VPERMPS (SI)(AX*4), Y0, Y4 // r1[x1]
	VPERMPS 32(SI)(AX*4), Y0, Y5
	VBLENDVPS Y2, Y5, Y4, Y4
	VMULPS Y14, Y7, Y9 // w11
	VMULPS Y9, Y4, Y4

	VPERMPS (SI)(BX*4), Y1, Y5 // r1[x2]
	VPERMPS 32(SI)(BX*4), Y1, Y6
	VBLENDVPS Y3, Y6, Y5, Y5
	VMULPS Y14, Y8, Y9 // w12
	VMULPS Y9, Y5, Y5
	VADDPS Y5, Y4, Y4

	VPERMPS (DX)(AX*4), Y0, Y5 // r2[x1]
	VPERMPS 32(DX)(AX*4), Y0, Y6
	VBLENDVPS Y2, Y6, Y5, Y5
	VMULPS Y15, Y7, Y9 // w21
	VMULPS Y9, Y5, Y5
	VADDPS Y5, Y4, Y4

	VPERMPS (DX)(BX*4), Y1, Y5 // r2[x2]
	VPERMPS 32(DX)(BX*4), Y1, Y6
	VBLENDVPS Y3, Y6, Y5, Y5
	VMULPS Y15, Y8, Y9 // w22
	VMULPS Y9, Y5, Y5
	VADDPS Y5, Y4, Y4

	VMOVUPS Y4, (DI)
	ADDQ $32, DI
	ADDQ $4, R8
	ADDQ $4, R9
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	ADDQ $32, R13
	DECQ CX
	JNE bilq_loop

bilq_done:
	VZEROUPPER
	RET
