//go:build amd64 && !purego

#include "textflag.h"

// func skipSumAVX(y, x, skip, bias *float32, n int, sums *[2]float64)
//
// For n a multiple of 8: y[i] = x[i] + skip[i] (+ bias[i] when bias is
// not nil) in float32; sums[0] gets the float64 sum of y and sums[1] the
// float64 sum of the float32 squares y[i]·y[i], each over four
// interleaved partial sums of four lanes (element i in partial
// (i/4) mod 4, lane i mod 4), added lane by lane and partial by partial
// at the end.
TEXT ·skipSumAVX(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ skip+16(FP), DX
	MOVQ bias+24(FP), R8
	MOVQ n+32(FP), CX
	VXORPD Y0, Y0, Y0 // sums of elements 0-3 of each 8
	VXORPD Y1, Y1, Y1 // of elements 4-7
	VXORPD Y2, Y2, Y2 // squares 0-3
	VXORPD Y3, Y3, Y3 // squares 4-7
	XORQ AX, AX
	TESTQ R8, R8
	JEQ nobias

bias_loop:
	CMPQ AX, CX
	JGE done
	VMOVUPS (SI)(AX*4), Y4
	VADDPS (DX)(AX*4), Y4, Y4
	VADDPS (R8)(AX*4), Y4, Y4
	JMP store

nobias:
	CMPQ AX, CX
	JGE done
	VMOVUPS (SI)(AX*4), Y4
	VADDPS (DX)(AX*4), Y4, Y4

store:
	VMOVUPS Y4, (DI)(AX*4)
	VMULPS Y4, Y4, Y5
	VCVTPS2PD X4, Y6
	VEXTRACTF128 $1, Y4, X4
	VCVTPS2PD X4, Y7
	VADDPD Y6, Y0, Y0
	VADDPD Y7, Y1, Y1
	VCVTPS2PD X5, Y6
	VEXTRACTF128 $1, Y5, X5
	VCVTPS2PD X5, Y7
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ $8, AX
	TESTQ R8, R8
	JNE bias_loop
	JMP nobias

done:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VEXTRACTF128 $1, Y2, X3
	VADDPD X3, X2, X2
	VHADDPD X2, X2, X2
	MOVQ sums+40(FP), R9
	VMOVSD X0, (R9)
	VMOVSD X2, 8(R9)
	VZEROUPPER
	RET
