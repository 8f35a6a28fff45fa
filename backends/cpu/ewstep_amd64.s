//go:build amd64 && !purego

#include "textflag.h"

// The elementwise steps of ewprog.go on n floats (n a multiple of 8), in
// place, with the same roundings and NaN results as their Go twins in
// ewstep.go. In Go's operand order, VMAXPS b, a, d sets d = a > b ? a : b
// (b when either is NaN), VMINPS likewise with <, VCMPPS $p, b, a, m sets
// m = a cmp b, and VBLENDVPS m, b, a, d sets d = m ? b : a.

// sigVec holds sigmoid32's constants, each in a 32-byte vector.
DATA ·sigVec+0(SB)/4, $0x2e403551  // a9
DATA ·sigVec+4(SB)/4, $0x2e403551
DATA ·sigVec+8(SB)/4, $0x2e403551
DATA ·sigVec+12(SB)/4, $0x2e403551
DATA ·sigVec+16(SB)/4, $0x2e403551
DATA ·sigVec+20(SB)/4, $0x2e403551
DATA ·sigVec+24(SB)/4, $0x2e403551
DATA ·sigVec+28(SB)/4, $0x2e403551
DATA ·sigVec+32(SB)/4, $0x33f84ecb  // a7
DATA ·sigVec+36(SB)/4, $0x33f84ecb
DATA ·sigVec+40(SB)/4, $0x33f84ecb
DATA ·sigVec+44(SB)/4, $0x33f84ecb
DATA ·sigVec+48(SB)/4, $0x33f84ecb
DATA ·sigVec+52(SB)/4, $0x33f84ecb
DATA ·sigVec+56(SB)/4, $0x33f84ecb
DATA ·sigVec+60(SB)/4, $0x33f84ecb
DATA ·sigVec+64(SB)/4, $0x387f413b  // a5
DATA ·sigVec+68(SB)/4, $0x387f413b
DATA ·sigVec+72(SB)/4, $0x387f413b
DATA ·sigVec+76(SB)/4, $0x387f413b
DATA ·sigVec+80(SB)/4, $0x387f413b
DATA ·sigVec+84(SB)/4, $0x387f413b
DATA ·sigVec+88(SB)/4, $0x387f413b
DATA ·sigVec+92(SB)/4, $0x387f413b
DATA ·sigVec+96(SB)/4, $0x3c0b7d58  // a3
DATA ·sigVec+100(SB)/4, $0x3c0b7d58
DATA ·sigVec+104(SB)/4, $0x3c0b7d58
DATA ·sigVec+108(SB)/4, $0x3c0b7d58
DATA ·sigVec+112(SB)/4, $0x3c0b7d58
DATA ·sigVec+116(SB)/4, $0x3c0b7d58
DATA ·sigVec+120(SB)/4, $0x3c0b7d58
DATA ·sigVec+124(SB)/4, $0x3c0b7d58
DATA ·sigVec+128(SB)/4, $0x3e7e3f32  // a1
DATA ·sigVec+132(SB)/4, $0x3e7e3f32
DATA ·sigVec+136(SB)/4, $0x3e7e3f32
DATA ·sigVec+140(SB)/4, $0x3e7e3f32
DATA ·sigVec+144(SB)/4, $0x3e7e3f32
DATA ·sigVec+148(SB)/4, $0x3e7e3f32
DATA ·sigVec+152(SB)/4, $0x3e7e3f32
DATA ·sigVec+156(SB)/4, $0x3e7e3f32
DATA ·sigVec+160(SB)/4, $0x2b2bc4f5  // b10
DATA ·sigVec+164(SB)/4, $0x2b2bc4f5
DATA ·sigVec+168(SB)/4, $0x2b2bc4f5
DATA ·sigVec+172(SB)/4, $0x2b2bc4f5
DATA ·sigVec+176(SB)/4, $0x2b2bc4f5
DATA ·sigVec+180(SB)/4, $0x2b2bc4f5
DATA ·sigVec+184(SB)/4, $0x2b2bc4f5
DATA ·sigVec+188(SB)/4, $0x2b2bc4f5
DATA ·sigVec+192(SB)/4, $0x31c5f27b  // b8
DATA ·sigVec+196(SB)/4, $0x31c5f27b
DATA ·sigVec+200(SB)/4, $0x31c5f27b
DATA ·sigVec+204(SB)/4, $0x31c5f27b
DATA ·sigVec+208(SB)/4, $0x31c5f27b
DATA ·sigVec+212(SB)/4, $0x31c5f27b
DATA ·sigVec+216(SB)/4, $0x31c5f27b
DATA ·sigVec+220(SB)/4, $0x31c5f27b
DATA ·sigVec+224(SB)/4, $0x36d317dd  // b6
DATA ·sigVec+228(SB)/4, $0x36d317dd
DATA ·sigVec+232(SB)/4, $0x36d317dd
DATA ·sigVec+236(SB)/4, $0x36d317dd
DATA ·sigVec+240(SB)/4, $0x36d317dd
DATA ·sigVec+244(SB)/4, $0x36d317dd
DATA ·sigVec+248(SB)/4, $0x36d317dd
DATA ·sigVec+252(SB)/4, $0x36d317dd
DATA ·sigVec+256(SB)/4, $0x3adf153f  // b4
DATA ·sigVec+260(SB)/4, $0x3adf153f
DATA ·sigVec+264(SB)/4, $0x3adf153f
DATA ·sigVec+268(SB)/4, $0x3adf153f
DATA ·sigVec+272(SB)/4, $0x3adf153f
DATA ·sigVec+276(SB)/4, $0x3adf153f
DATA ·sigVec+280(SB)/4, $0x3adf153f
DATA ·sigVec+284(SB)/4, $0x3adf153f
DATA ·sigVec+288(SB)/4, $0x3def3e18  // b2
DATA ·sigVec+292(SB)/4, $0x3def3e18
DATA ·sigVec+296(SB)/4, $0x3def3e18
DATA ·sigVec+300(SB)/4, $0x3def3e18
DATA ·sigVec+304(SB)/4, $0x3def3e18
DATA ·sigVec+308(SB)/4, $0x3def3e18
DATA ·sigVec+312(SB)/4, $0x3def3e18
DATA ·sigVec+316(SB)/4, $0x3def3e18
DATA ·sigVec+320(SB)/4, $0x3f7e3f34  // b0
DATA ·sigVec+324(SB)/4, $0x3f7e3f34
DATA ·sigVec+328(SB)/4, $0x3f7e3f34
DATA ·sigVec+332(SB)/4, $0x3f7e3f34
DATA ·sigVec+336(SB)/4, $0x3f7e3f34
DATA ·sigVec+340(SB)/4, $0x3f7e3f34
DATA ·sigVec+344(SB)/4, $0x3f7e3f34
DATA ·sigVec+348(SB)/4, $0x3f7e3f34
DATA ·sigVec+352(SB)/4, $0xc1900000  // lo
DATA ·sigVec+356(SB)/4, $0xc1900000
DATA ·sigVec+360(SB)/4, $0xc1900000
DATA ·sigVec+364(SB)/4, $0xc1900000
DATA ·sigVec+368(SB)/4, $0xc1900000
DATA ·sigVec+372(SB)/4, $0xc1900000
DATA ·sigVec+376(SB)/4, $0xc1900000
DATA ·sigVec+380(SB)/4, $0xc1900000
DATA ·sigVec+384(SB)/4, $0x41900000  // hi
DATA ·sigVec+388(SB)/4, $0x41900000
DATA ·sigVec+392(SB)/4, $0x41900000
DATA ·sigVec+396(SB)/4, $0x41900000
DATA ·sigVec+400(SB)/4, $0x41900000
DATA ·sigVec+404(SB)/4, $0x41900000
DATA ·sigVec+408(SB)/4, $0x41900000
DATA ·sigVec+412(SB)/4, $0x41900000
DATA ·sigVec+416(SB)/4, $0x3f000000  // half
DATA ·sigVec+420(SB)/4, $0x3f000000
DATA ·sigVec+424(SB)/4, $0x3f000000
DATA ·sigVec+428(SB)/4, $0x3f000000
DATA ·sigVec+432(SB)/4, $0x3f000000
DATA ·sigVec+436(SB)/4, $0x3f000000
DATA ·sigVec+440(SB)/4, $0x3f000000
DATA ·sigVec+444(SB)/4, $0x3f000000
DATA ·sigVec+448(SB)/4, $0x3f800000  // one
DATA ·sigVec+452(SB)/4, $0x3f800000
DATA ·sigVec+456(SB)/4, $0x3f800000
DATA ·sigVec+460(SB)/4, $0x3f800000
DATA ·sigVec+464(SB)/4, $0x3f800000
DATA ·sigVec+468(SB)/4, $0x3f800000
DATA ·sigVec+472(SB)/4, $0x3f800000
DATA ·sigVec+476(SB)/4, $0x3f800000
GLOBL ·sigVec(SB), RODATA|NOPTR, $480

// func leakyReluAVX(d *float32, n int, a float32)
//
// d[i] = d[i] < 0 ? d[i]*a : d[i].
TEXT ·leakyReluAVX(SB), NOSPLIT, $0-20
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS a+16(FP), Y15
	VXORPS Y14, Y14, Y14
	SHRQ $3, CX
	JEQ leaky_done

leaky_loop:
	VMOVUPS (DI), Y0
	VMULPS Y15, Y0, Y1
	VCMPPS $1, Y14, Y0, Y2 // v < 0
	VBLENDVPS Y2, Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE leaky_loop

leaky_done:
	VZEROUPPER
	RET

// func sigmoidAVX(d *float32, n int)
//
// d[i] = sigmoid32(d[i]): p(x)/q(x) + 0.5 on x clamped to [-18, 18],
// each polynomial step one FMA, clamped to [0, 1]; NaN stays NaN.
TEXT ·sigmoidAVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VMOVUPS ·sigVec+352(SB), Y10
	VMOVUPS ·sigVec+384(SB), Y11
	VMOVUPS ·sigVec+416(SB), Y12
	VMOVUPS ·sigVec+448(SB), Y13
	VXORPS Y14, Y14, Y14
	SHRQ $3, CX
	JEQ sig_done

sig_loop:
	VMOVUPS (DI), Y0
	VMAXPS Y0, Y10, Y0 // lo > v ? lo : v
	VMINPS Y0, Y11, Y0 // hi < x ? hi : x
	VMULPS Y0, Y0, Y1  // x2
	VMOVUPS ·sigVec+0(SB), Y2
	VFMADD213PS ·sigVec+32(SB), Y1, Y2
	VFMADD213PS ·sigVec+64(SB), Y1, Y2
	VFMADD213PS ·sigVec+96(SB), Y1, Y2
	VFMADD213PS ·sigVec+128(SB), Y1, Y2
	VMULPS Y0, Y2, Y2  // p *= x
	VMOVUPS ·sigVec+160(SB), Y3
	VFMADD213PS ·sigVec+192(SB), Y1, Y3
	VFMADD213PS ·sigVec+224(SB), Y1, Y3
	VFMADD213PS ·sigVec+256(SB), Y1, Y3
	VFMADD213PS ·sigVec+288(SB), Y1, Y3
	VFMADD213PS ·sigVec+320(SB), Y1, Y3
	VDIVPS Y3, Y2, Y2  // p / q
	VADDPS Y12, Y2, Y2
	VMAXPS Y2, Y14, Y2 // 0 > r ? 0 : r
	VMINPS Y2, Y13, Y2 // 1 < r ? 1 : r
	VMOVUPS Y2, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE sig_loop

sig_done:
	VZEROUPPER
	RET

// func binConstAVX(op int, d, x *float32, n int, c float32)
//
// d[i] = x[i] op c for op 0 (Sub), 2 (Div), 4 (Add) and 5 (Mul), and
// c op x[i] for op 1 (Sub) and 3 (Div).
TEXT ·binConstAVX(SB), NOSPLIT, $0-36
	MOVQ op+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	VBROADCASTSS c+32(FP), Y15
	SHRQ $3, CX
	JEQ bc_done
	CMPQ AX, $0
	JEQ bc_sub
	CMPQ AX, $1
	JEQ bc_rsub
	CMPQ AX, $2
	JEQ bc_div
	CMPQ AX, $3
	JEQ bc_rdiv
	CMPQ AX, $4
	JEQ bc_add

bc_mul:
	VMOVUPS (SI), Y0
	VMULPS Y15, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE bc_mul
	JMP bc_done

bc_add:
	VMOVUPS (SI), Y0
	VADDPS Y15, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE bc_add
	JMP bc_done

bc_sub:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0 // x - c
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE bc_sub
	JMP bc_done

bc_rsub:
	VMOVUPS (SI), Y0
	VSUBPS Y0, Y15, Y0 // c - x
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE bc_rsub
	JMP bc_done

bc_div:
	VMOVUPS (SI), Y0
	VDIVPS Y15, Y0, Y0 // x / c
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE bc_div
	JMP bc_done

bc_rdiv:
	VMOVUPS (SI), Y0
	VDIVPS Y0, Y15, Y0 // c / x
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE bc_rdiv

bc_done:
	VZEROUPPER
	RET

// func binConstZ(op int, d, x *float32, n int, c float32)
//
// binConstAVX with AVX-512, n a multiple of 32: two vectors of 16 a
// step, the same IEEE operation on each element.
TEXT ·binConstZ(SB), NOSPLIT, $0-36
	MOVQ op+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	VBROADCASTSS c+32(FP), Z15
	SHRQ $5, CX
	JEQ bcz_done
	CMPQ AX, $0
	JEQ bcz_sub
	CMPQ AX, $1
	JEQ bcz_rsub
	CMPQ AX, $2
	JEQ bcz_div
	CMPQ AX, $3
	JEQ bcz_rdiv
	CMPQ AX, $4
	JEQ bcz_add
	CMPQ AX, $5
	JEQ bcz_mul
	JMP bcz_done

bcz_sub:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VSUBPS Z15, Z0, Z0
	VSUBPS Z15, Z1, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE bcz_sub
	JMP bcz_done

bcz_rsub:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VSUBPS Z0, Z15, Z0
	VSUBPS Z1, Z15, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE bcz_rsub
	JMP bcz_done

bcz_div:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VDIVPS Z15, Z0, Z0
	VDIVPS Z15, Z1, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE bcz_div
	JMP bcz_done

bcz_rdiv:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VDIVPS Z0, Z15, Z0
	VDIVPS Z1, Z15, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE bcz_rdiv
	JMP bcz_done

bcz_add:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VADDPS Z15, Z0, Z0
	VADDPS Z15, Z1, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE bcz_add
	JMP bcz_done

bcz_mul:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VMULPS Z15, Z0, Z0
	VMULPS Z15, Z1, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE bcz_mul
	JMP bcz_done

bcz_done:
	VZEROUPPER
	RET

// SIGZ sets r = sigmoidAVX's value of x (clobbered) in zmm registers,
// with t a temporary and the constants in Z16-Z30 (sigmoidZ's layout).
#define SIGZ(x, t, r) \
	VMAXPS x, Z26, x; \
	VMINPS x, Z27, x; \
	VMULPS x, x, t; \
	VMOVAPS Z16, r; \
	VFMADD213PS Z17, t, r; \
	VFMADD213PS Z18, t, r; \
	VFMADD213PS Z19, t, r; \
	VFMADD213PS Z20, t, r; \
	VMULPS x, r, r; \
	VMOVAPS Z21, x; \
	VFMADD213PS Z22, t, x; \
	VFMADD213PS Z23, t, x; \
	VFMADD213PS Z24, t, x; \
	VFMADD213PS Z25, t, x; \
	VFMADD213PS.BCST ·sigVec+320(SB), t, x; \
	VDIVPS x, r, r; \
	VADDPS Z28, r, r; \
	VMAXPS r, Z30, r; \
	VMINPS r, Z29, r

// func sigmoidZ(d, x *float32, n int)
//
// d[i] = sigmoidAVX's value of x[i] for i < n (n a multiple of 16) with
// AVX-512, the same operations on 16 lanes, two vectors a step where n
// allows; d may be x.
TEXT ·sigmoidZ(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JEQ sigz_done
	VBROADCASTSS ·sigVec+0(SB), Z16
	VBROADCASTSS ·sigVec+32(SB), Z17
	VBROADCASTSS ·sigVec+64(SB), Z18
	VBROADCASTSS ·sigVec+96(SB), Z19
	VBROADCASTSS ·sigVec+128(SB), Z20
	VBROADCASTSS ·sigVec+160(SB), Z21
	VBROADCASTSS ·sigVec+192(SB), Z22
	VBROADCASTSS ·sigVec+224(SB), Z23
	VBROADCASTSS ·sigVec+256(SB), Z24
	VBROADCASTSS ·sigVec+288(SB), Z25
	VBROADCASTSS ·sigVec+352(SB), Z26
	VBROADCASTSS ·sigVec+384(SB), Z27
	VBROADCASTSS ·sigVec+416(SB), Z28
	VBROADCASTSS ·sigVec+448(SB), Z29
	VPXORD Z30, Z30, Z30

sigz_loop2:
	CMPQ CX, $2
	JLT sigz_loop
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z3
	SIGZ(Z0, Z1, Z2)
	SIGZ(Z3, Z4, Z5)
	VMOVUPS Z2, (DI)
	VMOVUPS Z5, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $2, CX
	JNE sigz_loop2
	JMP sigz_done

sigz_loop:
	VMOVUPS (SI), Z0
	SIGZ(Z0, Z1, Z2)
	VMOVUPS Z2, (DI)

sigz_done:
	VZEROUPPER
	RET

// func leakyMaxAVX(d *float32, n int, a, lo, hi, z float32)
//
// leakyReluAVX then actClipAVX (lo, hi, z) on each vector in one pass,
// n a multiple of 8: the same instructions, the same bits.
TEXT ·leakyMaxAVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS a+16(FP), Y15
	VBROADCASTSS lo+20(FP), Y12
	VBROADCASTSS hi+24(FP), Y13
	VBROADCASTSS z+28(FP), Y11
	VXORPS Y14, Y14, Y14
	SHRQ $3, CX
	JEQ leakymax_done

leakymax_loop:
	VMOVUPS (DI), Y0
	VMULPS Y15, Y0, Y1
	VCMPPS $1, Y14, Y0, Y2 // v < 0
	VBLENDVPS Y2, Y1, Y0, Y0
	VMAXPS Y0, Y12, Y0 // lo > v ? lo : v
	VADDPS Y11, Y0, Y0
	VMINPS Y0, Y13, Y0 // hi < t ? hi : t
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE leakymax_loop

leakymax_done:
	VZEROUPPER
	RET
