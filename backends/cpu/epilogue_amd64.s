//go:build amd64 && !purego

#include "textflag.h"

// The activations of epilogue.go on n floats (n a multiple of 8), in
// place, with the same roundings and the same NaN and signed-zero results
// as their Go loops. In Go's operand order, VMAXPS b, a, d sets
// d = a > b ? a : b (b when either is NaN), and VMINPS likewise with <.

DATA ·actConsts+0(SB)/4, $0x40400000  // 3
DATA ·actConsts+4(SB)/4, $0x40c00000  // 6
DATA ·actConsts+8(SB)/4, $0x3f800000  // 1
DATA ·actConsts+12(SB)/4, $0x3e2aaaab // float32(1.0/6)
DATA ·actConsts+16(SB)/4, $0x3f000000 // 0.5
GLOBL ·actConsts(SB), RODATA|NOPTR, $20

// func actReluAVX(d *float32, n int)
TEXT ·actReluAVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JEQ relu_done
	VXORPS Y1, Y1, Y1

relu_loop:
	VMOVUPS (DI), Y0
	VMAXPS Y1, Y0, Y0 // v > 0 ? v : 0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE relu_loop

relu_done:
	VZEROUPPER
	RET

// func actClipAVX(d *float32, n int, lo, hi, z float32)
//
// min(max(v, lo) + z, hi), for lo and hi that are not NaN or -0, where z
// is +0 when lo is +0 (turning max(-0, +0) into Go's +0) and -0 otherwise
// (changing nothing).
TEXT ·actClipAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS lo+16(FP), Y2
	VBROADCASTSS hi+20(FP), Y3
	VBROADCASTSS z+24(FP), Y4
	SHRQ $3, CX
	JEQ clip_done

clip_loop:
	VMOVUPS (DI), Y0
	VMAXPS Y0, Y2, Y0 // lo > v ? lo : v
	VADDPS Y4, Y0, Y0
	VMINPS Y0, Y3, Y0 // hi < t ? hi : t
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE clip_loop

clip_done:
	VZEROUPPER
	RET

// func reluToAVX(d, x *float32, n int)
//
// d[i] = actReluAVX's value of x[i] for i < n (n a multiple of 8), two
// vectors a step where n allows; d may be x.
TEXT ·reluToAVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ reluto_done
	VXORPS Y1, Y1, Y1

reluto_loop2:
	CMPQ CX, $2
	JLT reluto_loop
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y2
	VMAXPS Y1, Y0, Y0
	VMAXPS Y1, Y2, Y2
	VMOVUPS Y0, (DI)
	VMOVUPS Y2, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $2, CX
	JNE reluto_loop2
	JMP reluto_done

reluto_loop:
	VMOVUPS (SI), Y0
	VMAXPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)

reluto_done:
	VZEROUPPER
	RET

// func clipToAVX(d, x *float32, n int, lo, hi, z float32)
//
// d[i] = actClipAVX's value of x[i] for i < n (n a multiple of 8), two
// vectors a step where n allows; d may be x.
TEXT ·clipToAVX(SB), NOSPLIT, $0-36
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS lo+24(FP), Y2
	VBROADCASTSS hi+28(FP), Y3
	VBROADCASTSS z+32(FP), Y4
	SHRQ $3, CX
	JEQ clipto_done

clipto_loop2:
	CMPQ CX, $2
	JLT clipto_loop
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMAXPS Y0, Y2, Y0
	VMAXPS Y1, Y2, Y1
	VADDPS Y4, Y0, Y0
	VADDPS Y4, Y1, Y1
	VMINPS Y0, Y3, Y0
	VMINPS Y1, Y3, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $2, CX
	JNE clipto_loop2
	JMP clipto_done

clipto_loop:
	VMOVUPS (SI), Y0
	VMAXPS Y0, Y2, Y0
	VADDPS Y4, Y0, Y0
	VMINPS Y0, Y3, Y0
	VMOVUPS Y0, (DI)

clipto_done:
	VZEROUPPER
	RET

// func actHardSigmoidAVX(d *float32, n int, a, b float32)
//
// max(0, min(1, a*v+b)), the product rounded before the add.
TEXT ·actHardSigmoidAVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS a+16(FP), Y2
	VBROADCASTSS b+20(FP), Y3
	VBROADCASTSS ·actConsts+8(SB), Y5
	VXORPS Y4, Y4, Y4
	SHRQ $3, CX
	JEQ hsig_done

hsig_loop:
	VMOVUPS (DI), Y0
	VMULPS Y0, Y2, Y0
	VADDPS Y3, Y0, Y0
	VMINPS Y0, Y5, Y0 // 1 < t ? 1 : t
	VMAXPS Y0, Y4, Y0 // 0 > t ? 0 : t
	VADDPS Y4, Y0, Y0 // -0 becomes +0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE hsig_loop

hsig_done:
	VZEROUPPER
	RET

// func actHardSwishAVX(d *float32, n int)
//
// v * max(0, min(1, v*float32(1.0/6)+0.5)).
TEXT ·actHardSwishAVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS ·actConsts+12(SB), Y2
	VBROADCASTSS ·actConsts+16(SB), Y3
	VBROADCASTSS ·actConsts+8(SB), Y5
	VXORPS Y4, Y4, Y4
	SHRQ $3, CX
	JEQ hsw_done

hsw_loop:
	VMOVUPS (DI), Y1
	VMULPS Y1, Y2, Y0
	VADDPS Y3, Y0, Y0
	VMINPS Y0, Y5, Y0
	VMAXPS Y0, Y4, Y0
	VADDPS Y4, Y0, Y0
	VMULPS Y0, Y1, Y0 // v * t
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE hsw_loop

hsw_done:
	VZEROUPPER
	RET

// func actHardSwishDiv6AVX(d *float32, n int)
//
// (v * min(max(v+3, 0), 6)) / 6. v+3 is never -0, so max needs no fix.
TEXT ·actHardSwishDiv6AVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS ·actConsts+0(SB), Y2
	VBROADCASTSS ·actConsts+4(SB), Y3
	VXORPS Y4, Y4, Y4
	SHRQ $3, CX
	JEQ hsd_done

hsd_loop:
	VMOVUPS (DI), Y1
	VADDPS Y2, Y1, Y0
	VMAXPS Y0, Y4, Y0 // 0 > t ? 0 : t
	VMINPS Y0, Y3, Y0 // 6 < t ? 6 : t
	VMULPS Y0, Y1, Y0 // v * c
	VDIVPS Y3, Y0, Y0 // / 6
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE hsd_loop

hsd_done:
	VZEROUPPER
	RET

// func addVecAVX(d, b *float32, n int)
//
// d[i] += b[i] for i < n, n a multiple of 8.
TEXT ·addVecAVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ addv_done

addv_loop:
	VMOVUPS (DI), Y0
	VADDPS (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNE addv_loop

addv_done:
	VZEROUPPER
	RET

// func addConstAVX(d *float32, n int, c float32)
//
// d[i] += c for i < n, n a multiple of 8.
TEXT ·addConstAVX(SB), NOSPLIT, $0-20
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y1
	SHRQ $3, CX
	JEQ addc_done

addc_loop:
	VMOVUPS (DI), Y0
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE addc_loop

addc_done:
	VZEROUPPER
	RET

// func sumAVX(x *float32, n int) float64
//
// The sum of x[:n] (n a multiple of 8) in float64: two four-lane
// accumulators, added lane by lane at the end.
TEXT ·sumAVX(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	SHRQ $3, CX
	JEQ sum_done

sum_loop:
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	ADDQ $32, SI
	DECQ CX
	JNE sum_loop

sum_done:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, ret+16(FP)
	VZEROUPPER
	RET

// func normAVX(d, x, s, b *float32, n int, mu, den float32)
//
// d[i] = (x[i]-mu)/den*s[i] + b[i] for i < n (n a multiple of 8), each
// operation rounded in turn, as layerNormRun's loop.
TEXT ·normAVX(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ s+16(FP), R8
	MOVQ b+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTSS mu+40(FP), Y14
	VBROADCASTSS den+44(FP), Y15
	SHRQ $3, CX
	JEQ norm_done

norm_loop:
	VMOVUPS (SI), Y0
	VSUBPS Y14, Y0, Y0
	VDIVPS Y15, Y0, Y0
	VMULPS (R8), Y0, Y0
	VADDPS (R9), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, DI
	DECQ CX
	JNE norm_loop

norm_done:
	VZEROUPPER
	RET

// func addVecReluAVX(d, b *float32, n int)
//
// d[i] = relu(d[i] + b[i]) for i < n, n a multiple of 8: addVecAVX then
// actReluAVX in one pass.
TEXT ·addVecReluAVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ addvr_done
	VXORPS Y2, Y2, Y2

addvr_loop:
	VMOVUPS (DI), Y0
	VADDPS (SI), Y0, Y0
	VMAXPS Y2, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNE addvr_loop

addvr_done:
	VZEROUPPER
	RET

// func addConstReluAVX(d *float32, n int, c float32)
//
// d[i] = relu(d[i] + c) for i < n, n a multiple of 8: addConstAVX then
// actReluAVX in one pass.
TEXT ·addConstReluAVX(SB), NOSPLIT, $0-20
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y1
	SHRQ $3, CX
	JEQ addcr_done
	VXORPS Y2, Y2, Y2

addcr_loop:
	VMOVUPS (DI), Y0
	VADDPS Y1, Y0, Y0
	VMAXPS Y2, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE addcr_loop

addcr_done:
	VZEROUPPER
	RET
