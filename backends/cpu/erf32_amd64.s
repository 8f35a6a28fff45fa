//go:build amd64 && !purego

#include "textflag.h"

// erf32 and Gelu's exact form on n floats (n a multiple of 8), in place,
// with the same roundings and NaN results as erf32s and gelu32s in
// erf32.go. In Go's operand order VMINPS b, a, d sets d = a < b ? a : b
// (b when either is NaN), VMAXPS likewise with >.

// erfVec holds erf32's constants, each in a 32-byte vector: the
// numerator's p13..p1, the denominator's q8..q0, the clamp bounds, 1/√2,
// 0.5 and 1.
DATA ·erfVec+0(SB)/4, $0xaf95df0b  // p13
DATA ·erfVec+4(SB)/4, $0xaf95df0b
DATA ·erfVec+8(SB)/4, $0xaf95df0b
DATA ·erfVec+12(SB)/4, $0xaf95df0b
DATA ·erfVec+16(SB)/4, $0xaf95df0b
DATA ·erfVec+20(SB)/4, $0xaf95df0b
DATA ·erfVec+24(SB)/4, $0xaf95df0b
DATA ·erfVec+28(SB)/4, $0xaf95df0b
DATA ·erfVec+32(SB)/4, $0x32edffee  // p11
DATA ·erfVec+36(SB)/4, $0x32edffee
DATA ·erfVec+40(SB)/4, $0x32edffee
DATA ·erfVec+44(SB)/4, $0x32edffee
DATA ·erfVec+48(SB)/4, $0x32edffee
DATA ·erfVec+52(SB)/4, $0x32edffee
DATA ·erfVec+56(SB)/4, $0x32edffee
DATA ·erfVec+60(SB)/4, $0x32edffee
DATA ·erfVec+64(SB)/4, $0xb60cff51  // p9
DATA ·erfVec+68(SB)/4, $0xb60cff51
DATA ·erfVec+72(SB)/4, $0xb60cff51
DATA ·erfVec+76(SB)/4, $0xb60cff51
DATA ·erfVec+80(SB)/4, $0xb60cff51
DATA ·erfVec+84(SB)/4, $0xb60cff51
DATA ·erfVec+88(SB)/4, $0xb60cff51
DATA ·erfVec+92(SB)/4, $0xb60cff51
DATA ·erfVec+96(SB)/4, $0xb86ec2d2  // p7
DATA ·erfVec+100(SB)/4, $0xb86ec2d2
DATA ·erfVec+104(SB)/4, $0xb86ec2d2
DATA ·erfVec+108(SB)/4, $0xb86ec2d2
DATA ·erfVec+112(SB)/4, $0xb86ec2d2
DATA ·erfVec+116(SB)/4, $0xb86ec2d2
DATA ·erfVec+120(SB)/4, $0xb86ec2d2
DATA ·erfVec+124(SB)/4, $0xb86ec2d2
DATA ·erfVec+128(SB)/4, $0xba40ac63  // p5
DATA ·erfVec+132(SB)/4, $0xba40ac63
DATA ·erfVec+136(SB)/4, $0xba40ac63
DATA ·erfVec+140(SB)/4, $0xba40ac63
DATA ·erfVec+144(SB)/4, $0xba40ac63
DATA ·erfVec+148(SB)/4, $0xba40ac63
DATA ·erfVec+152(SB)/4, $0xba40ac63
DATA ·erfVec+156(SB)/4, $0xba40ac63
DATA ·erfVec+160(SB)/4, $0xbb41a1f6  // p3
DATA ·erfVec+164(SB)/4, $0xbb41a1f6
DATA ·erfVec+168(SB)/4, $0xbb41a1f6
DATA ·erfVec+172(SB)/4, $0xbb41a1f6
DATA ·erfVec+176(SB)/4, $0xbb41a1f6
DATA ·erfVec+180(SB)/4, $0xbb41a1f6
DATA ·erfVec+184(SB)/4, $0xbb41a1f6
DATA ·erfVec+188(SB)/4, $0xbb41a1f6
DATA ·erfVec+192(SB)/4, $0xbc83dbd4  // p1
DATA ·erfVec+196(SB)/4, $0xbc83dbd4
DATA ·erfVec+200(SB)/4, $0xbc83dbd4
DATA ·erfVec+204(SB)/4, $0xbc83dbd4
DATA ·erfVec+208(SB)/4, $0xbc83dbd4
DATA ·erfVec+212(SB)/4, $0xbc83dbd4
DATA ·erfVec+216(SB)/4, $0xbc83dbd4
DATA ·erfVec+220(SB)/4, $0xbc83dbd4
DATA ·erfVec+224(SB)/4, $0xb77460cd  // q8
DATA ·erfVec+228(SB)/4, $0xb77460cd
DATA ·erfVec+232(SB)/4, $0xb77460cd
DATA ·erfVec+236(SB)/4, $0xb77460cd
DATA ·erfVec+240(SB)/4, $0xb77460cd
DATA ·erfVec+244(SB)/4, $0xb77460cd
DATA ·erfVec+248(SB)/4, $0xb77460cd
DATA ·erfVec+252(SB)/4, $0xb77460cd
DATA ·erfVec+256(SB)/4, $0xb95fbd29  // q6
DATA ·erfVec+260(SB)/4, $0xb95fbd29
DATA ·erfVec+264(SB)/4, $0xb95fbd29
DATA ·erfVec+268(SB)/4, $0xb95fbd29
DATA ·erfVec+272(SB)/4, $0xb95fbd29
DATA ·erfVec+276(SB)/4, $0xb95fbd29
DATA ·erfVec+280(SB)/4, $0xb95fbd29
DATA ·erfVec+284(SB)/4, $0xb95fbd29
DATA ·erfVec+288(SB)/4, $0xbadc924e  // q4
DATA ·erfVec+292(SB)/4, $0xbadc924e
DATA ·erfVec+296(SB)/4, $0xbadc924e
DATA ·erfVec+300(SB)/4, $0xbadc924e
DATA ·erfVec+304(SB)/4, $0xbadc924e
DATA ·erfVec+308(SB)/4, $0xbadc924e
DATA ·erfVec+312(SB)/4, $0xbadc924e
DATA ·erfVec+316(SB)/4, $0xbadc924e
DATA ·erfVec+320(SB)/4, $0xbbf19bf8  // q2
DATA ·erfVec+324(SB)/4, $0xbbf19bf8
DATA ·erfVec+328(SB)/4, $0xbbf19bf8
DATA ·erfVec+332(SB)/4, $0xbbf19bf8
DATA ·erfVec+336(SB)/4, $0xbbf19bf8
DATA ·erfVec+340(SB)/4, $0xbbf19bf8
DATA ·erfVec+344(SB)/4, $0xbbf19bf8
DATA ·erfVec+348(SB)/4, $0xbbf19bf8
DATA ·erfVec+352(SB)/4, $0xbc69b6a7  // q0
DATA ·erfVec+356(SB)/4, $0xbc69b6a7
DATA ·erfVec+360(SB)/4, $0xbc69b6a7
DATA ·erfVec+364(SB)/4, $0xbc69b6a7
DATA ·erfVec+368(SB)/4, $0xbc69b6a7
DATA ·erfVec+372(SB)/4, $0xbc69b6a7
DATA ·erfVec+376(SB)/4, $0xbc69b6a7
DATA ·erfVec+380(SB)/4, $0xbc69b6a7
DATA ·erfVec+384(SB)/4, $0xc0800000  // lo
DATA ·erfVec+388(SB)/4, $0xc0800000
DATA ·erfVec+392(SB)/4, $0xc0800000
DATA ·erfVec+396(SB)/4, $0xc0800000
DATA ·erfVec+400(SB)/4, $0xc0800000
DATA ·erfVec+404(SB)/4, $0xc0800000
DATA ·erfVec+408(SB)/4, $0xc0800000
DATA ·erfVec+412(SB)/4, $0xc0800000
DATA ·erfVec+416(SB)/4, $0x40800000  // hi
DATA ·erfVec+420(SB)/4, $0x40800000
DATA ·erfVec+424(SB)/4, $0x40800000
DATA ·erfVec+428(SB)/4, $0x40800000
DATA ·erfVec+432(SB)/4, $0x40800000
DATA ·erfVec+436(SB)/4, $0x40800000
DATA ·erfVec+440(SB)/4, $0x40800000
DATA ·erfVec+444(SB)/4, $0x40800000
DATA ·erfVec+448(SB)/4, $0x3f3504f3  // rsqrt2
DATA ·erfVec+452(SB)/4, $0x3f3504f3
DATA ·erfVec+456(SB)/4, $0x3f3504f3
DATA ·erfVec+460(SB)/4, $0x3f3504f3
DATA ·erfVec+464(SB)/4, $0x3f3504f3
DATA ·erfVec+468(SB)/4, $0x3f3504f3
DATA ·erfVec+472(SB)/4, $0x3f3504f3
DATA ·erfVec+476(SB)/4, $0x3f3504f3
DATA ·erfVec+480(SB)/4, $0x3f000000  // half
DATA ·erfVec+484(SB)/4, $0x3f000000
DATA ·erfVec+488(SB)/4, $0x3f000000
DATA ·erfVec+492(SB)/4, $0x3f000000
DATA ·erfVec+496(SB)/4, $0x3f000000
DATA ·erfVec+500(SB)/4, $0x3f000000
DATA ·erfVec+504(SB)/4, $0x3f000000
DATA ·erfVec+508(SB)/4, $0x3f000000
DATA ·erfVec+512(SB)/4, $0x3f800000  // one
DATA ·erfVec+516(SB)/4, $0x3f800000
DATA ·erfVec+520(SB)/4, $0x3f800000
DATA ·erfVec+524(SB)/4, $0x3f800000
DATA ·erfVec+528(SB)/4, $0x3f800000
DATA ·erfVec+532(SB)/4, $0x3f800000
DATA ·erfVec+536(SB)/4, $0x3f800000
DATA ·erfVec+540(SB)/4, $0x3f800000
GLOBL ·erfVec(SB), RODATA|NOPTR, $544

// ERF sets Y2 = erf32(Y0), clobbering Y0, Y1 and Y3; Y10 and Y11 hold
// the clamp bounds.
#define ERF \
	VMINPS Y0, Y11, Y0 \ // hi < x ? hi : x
	VMAXPS Y0, Y10, Y0 \ // lo > x ? lo : x
	VMULPS Y0, Y0, Y1 \
	VMOVUPS ·erfVec+0(SB), Y2 \
	VFMADD213PS ·erfVec+32(SB), Y1, Y2 \
	VFMADD213PS ·erfVec+64(SB), Y1, Y2 \
	VFMADD213PS ·erfVec+96(SB), Y1, Y2 \
	VFMADD213PS ·erfVec+128(SB), Y1, Y2 \
	VFMADD213PS ·erfVec+160(SB), Y1, Y2 \
	VFMADD213PS ·erfVec+192(SB), Y1, Y2 \
	VMULPS Y0, Y2, Y2 \
	VMOVUPS ·erfVec+224(SB), Y3 \
	VFMADD213PS ·erfVec+256(SB), Y1, Y3 \
	VFMADD213PS ·erfVec+288(SB), Y1, Y3 \
	VFMADD213PS ·erfVec+320(SB), Y1, Y3 \
	VFMADD213PS ·erfVec+352(SB), Y1, Y3 \
	VDIVPS Y3, Y2, Y2

// func erfAVX(d *float32, n int)
TEXT ·erfAVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VMOVUPS ·erfVec+384(SB), Y10
	VMOVUPS ·erfVec+416(SB), Y11
	SHRQ $3, CX
	JEQ erf_done

erf_loop:
	VMOVUPS (DI), Y0
	ERF
	VMOVUPS Y2, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE erf_loop

erf_done:
	VZEROUPPER
	RET

// func geluAVX(d *float32, n int)
//
// d[i] = 0.5·d[i]·(1 + erf32(d[i]·(1/√2))).
TEXT ·geluAVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VMOVUPS ·erfVec+384(SB), Y10
	VMOVUPS ·erfVec+416(SB), Y11
	VMOVUPS ·erfVec+448(SB), Y12
	VMOVUPS ·erfVec+480(SB), Y13
	VMOVUPS ·erfVec+512(SB), Y14
	SHRQ $3, CX
	JEQ gelu_done

gelu_loop:
	VMOVUPS (DI), Y4
	VMULPS Y12, Y4, Y0 // v·(1/√2)
	ERF
	VADDPS Y14, Y2, Y2 // 1 + erf
	VMULPS Y13, Y4, Y4 // 0.5·v
	VMULPS Y2, Y4, Y4
	VMOVUPS Y4, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE gelu_loop

gelu_done:
	VZEROUPPER
	RET

// ERFZ sets r = erf32(x) in zmm registers as ERF does, clobbering x, t
// and q; the constants are in Z13-Z31 (erfZ's layout).
#define ERFZ(x, t, r, q) \
	VMINPS x, Z28, x; \
	VMAXPS x, Z27, x; \
	VMULPS x, x, t; \
	VMOVAPS Z16, r; \
	VFMADD213PS Z17, t, r; \
	VFMADD213PS Z18, t, r; \
	VFMADD213PS Z19, t, r; \
	VFMADD213PS Z20, t, r; \
	VFMADD213PS Z21, t, r; \
	VFMADD213PS Z22, t, r; \
	VMULPS x, r, r; \
	VMOVAPS Z23, q; \
	VFMADD213PS Z24, t, q; \
	VFMADD213PS Z25, t, q; \
	VFMADD213PS Z26, t, q; \
	VFMADD213PS Z29, t, q; \
	VDIVPS q, r, r

// ERFZCONSTS broadcasts erfVec's constants: the numerator's into
// Z16-Z22, the denominator's into Z23-Z26 and Z29, the clamp bounds into
// Z27 and Z28, 1/√2, 0.5 and 1 into Z13-Z15.
#define ERFZCONSTS \
	VBROADCASTSS ·erfVec+0(SB), Z16; \
	VBROADCASTSS ·erfVec+32(SB), Z17; \
	VBROADCASTSS ·erfVec+64(SB), Z18; \
	VBROADCASTSS ·erfVec+96(SB), Z19; \
	VBROADCASTSS ·erfVec+128(SB), Z20; \
	VBROADCASTSS ·erfVec+160(SB), Z21; \
	VBROADCASTSS ·erfVec+192(SB), Z22; \
	VBROADCASTSS ·erfVec+224(SB), Z23; \
	VBROADCASTSS ·erfVec+256(SB), Z24; \
	VBROADCASTSS ·erfVec+288(SB), Z25; \
	VBROADCASTSS ·erfVec+320(SB), Z26; \
	VBROADCASTSS ·erfVec+352(SB), Z29; \
	VBROADCASTSS ·erfVec+384(SB), Z27; \
	VBROADCASTSS ·erfVec+416(SB), Z28; \
	VBROADCASTSS ·erfVec+448(SB), Z13; \
	VBROADCASTSS ·erfVec+480(SB), Z14; \
	VBROADCASTSS ·erfVec+512(SB), Z15

// func erfZ(d *float32, n int)
//
// erfAVX on 16 lanes with AVX-512 (n a multiple of 16), the same bits.
TEXT ·erfZ(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	JEQ erfz_done
	ERFZCONSTS

erfz_loop:
	VMOVUPS (DI), Z0
	ERFZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, (DI)
	ADDQ $64, DI
	DECQ CX
	JNE erfz_loop

erfz_done:
	VZEROUPPER
	RET

// func geluZ(d *float32, n int)
//
// geluAVX on 16 lanes with AVX-512 (n a multiple of 16), the same bits.
TEXT ·geluZ(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	JEQ geluz_done
	ERFZCONSTS

geluz_loop:
	VMOVUPS (DI), Z4
	VMULPS Z13, Z4, Z0 // v·(1/√2)
	ERFZ(Z0, Z1, Z2, Z3)
	VADDPS Z15, Z2, Z2 // 1 + erf
	VMULPS Z14, Z4, Z4 // 0.5·v
	VMULPS Z2, Z4, Z4
	VMOVUPS Z4, (DI)
	ADDQ $64, DI
	DECQ CX
	JNE geluz_loop

geluz_done:
	VZEROUPPER
	RET

// func geluErfAVX(d *float32, n int, c, k, h float32, f int)
//
// t = d[i]/c (f&1) or d[i]·c; a = erf32(t) + k; d[i] = (d[i]·a)·h, or
// (d[i]·h)·a (f&2): geluErfGo on a multiple of 8, the same bits.
TEXT ·geluErfAVX(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS c+16(FP), Y12
	VBROADCASTSS k+20(FP), Y14
	VBROADCASTSS h+24(FP), Y13
	MOVQ f+32(FP), DX
	VMOVUPS ·erfVec+384(SB), Y10
	VMOVUPS ·erfVec+416(SB), Y11
	SHRQ $3, CX
	JEQ geluerf_done

geluerf_loop:
	VMOVUPS (DI), Y4
	TESTQ $1, DX
	JNE geluerf_div
	VMULPS Y12, Y4, Y0
	JMP geluerf_erf

geluerf_div:
	VDIVPS Y12, Y4, Y0

geluerf_erf:
	ERF
	VADDPS Y14, Y2, Y2
	TESTQ $2, DX
	JNE geluerf_half
	VMULPS Y2, Y4, Y4
	VMULPS Y13, Y4, Y4
	JMP geluerf_store

geluerf_half:
	VMULPS Y13, Y4, Y4
	VMULPS Y2, Y4, Y4

geluerf_store:
	VMOVUPS Y4, (DI)
	ADDQ $32, DI
	DECQ CX
	JNE geluerf_loop

geluerf_done:
	VZEROUPPER
	RET

// func geluErfZ(d *float32, n int, c, k, h float32, f int)
//
// geluErfAVX on 16 lanes with AVX-512 (n a multiple of 16), the same
// bits.
TEXT ·geluErfZ(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	JEQ geluerfz_done
	ERFZCONSTS
	VBROADCASTSS c+16(FP), Z13
	VBROADCASTSS h+24(FP), Z14
	VBROADCASTSS k+20(FP), Z15
	MOVQ f+32(FP), DX

geluerfz_loop:
	VMOVUPS (DI), Z4
	TESTQ $1, DX
	JNE geluerfz_div
	VMULPS Z13, Z4, Z0
	JMP geluerfz_erf

geluerfz_div:
	VDIVPS Z13, Z4, Z0

geluerfz_erf:
	ERFZ(Z0, Z1, Z2, Z3)
	VADDPS Z15, Z2, Z2
	TESTQ $2, DX
	JNE geluerfz_half
	VMULPS Z2, Z4, Z4
	VMULPS Z14, Z4, Z4
	JMP geluerfz_store

geluerfz_half:
	VMULPS Z14, Z4, Z4
	VMULPS Z2, Z4, Z4

geluerfz_store:
	VMOVUPS Z4, (DI)
	ADDQ $64, DI
	DECQ CX
	JNE geluerfz_loop

geluerfz_done:
	VZEROUPPER
	RET
