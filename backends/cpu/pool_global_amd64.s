//go:build amd64 && !purego

#include "textflag.h"

// func avgPlanesAVX(y, x *float32, planes, size int)
//
// y[p] = float32(s/size) for p < planes, where s is the float64 sum of
// plane p, x[p*size:(p+1)*size], in sum32's order: sumAVX's two
// four-lane accumulators over the whole eights, folded as sumAVX folds
// them, plus the tail summed on its own from zero, as sumGo does. One
// loop over the planes, so that the short sums of consecutive planes
// overlap. size > 0.
TEXT ·avgPlanesAVX(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ planes+16(FP), R8
	MOVQ size+24(FP), R9
	VCVTSI2SDQ R9, X7, X7
	MOVQ R9, R10
	SHRQ $3, R10 // whole eights
	MOVQ R9, R11
	ANDQ $7, R11 // tail
	TESTQ R8, R8
	JEQ avgp_done

avgp_plane:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ R10, CX
	TESTQ CX, CX
	JEQ avgp_fold

avgp_loop:
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	ADDQ $32, SI
	DECQ CX
	JNE avgp_loop

avgp_fold:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VXORPD X5, X5, X5
	MOVQ R11, CX
	TESTQ CX, CX
	JEQ avgp_div

avgp_tail:
	VCVTSS2SD (SI), X6, X6
	VADDSD X6, X5, X5
	ADDQ $4, SI
	DECQ CX
	JNE avgp_tail

avgp_div:
	VADDSD X5, X0, X0
	VDIVSD X7, X0, X0
	VCVTSD2SS X0, X0, X0
	VMOVSS X0, (DI)
	ADDQ $4, DI
	DECQ R8
	JNE avgp_plane

avgp_done:
	VZEROUPPER
	RET
