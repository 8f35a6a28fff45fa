//go:build amd64 && !purego

#include "textflag.h"

// Constants of expSubAVX, each repeated in a 32-byte vector: log2(e),
// -ln2 split in a high part exact in float32 and a low part, the lower
// clamp, the Cephes expf polynomial p0..p5, and 1.
DATA ·expVec+0(SB)/4, $0x3fb8aa3b  // log2e
DATA ·expVec+4(SB)/4, $0x3fb8aa3b
DATA ·expVec+8(SB)/4, $0x3fb8aa3b
DATA ·expVec+12(SB)/4, $0x3fb8aa3b
DATA ·expVec+16(SB)/4, $0x3fb8aa3b
DATA ·expVec+20(SB)/4, $0x3fb8aa3b
DATA ·expVec+24(SB)/4, $0x3fb8aa3b
DATA ·expVec+28(SB)/4, $0x3fb8aa3b
DATA ·expVec+32(SB)/4, $0xbf318000  // negln2hi
DATA ·expVec+36(SB)/4, $0xbf318000
DATA ·expVec+40(SB)/4, $0xbf318000
DATA ·expVec+44(SB)/4, $0xbf318000
DATA ·expVec+48(SB)/4, $0xbf318000
DATA ·expVec+52(SB)/4, $0xbf318000
DATA ·expVec+56(SB)/4, $0xbf318000
DATA ·expVec+60(SB)/4, $0xbf318000
DATA ·expVec+64(SB)/4, $0x395e8083  // negln2lo
DATA ·expVec+68(SB)/4, $0x395e8083
DATA ·expVec+72(SB)/4, $0x395e8083
DATA ·expVec+76(SB)/4, $0x395e8083
DATA ·expVec+80(SB)/4, $0x395e8083
DATA ·expVec+84(SB)/4, $0x395e8083
DATA ·expVec+88(SB)/4, $0x395e8083
DATA ·expVec+92(SB)/4, $0x395e8083
DATA ·expVec+96(SB)/4, $0xc2ac0000  // lo
DATA ·expVec+100(SB)/4, $0xc2ac0000
DATA ·expVec+104(SB)/4, $0xc2ac0000
DATA ·expVec+108(SB)/4, $0xc2ac0000
DATA ·expVec+112(SB)/4, $0xc2ac0000
DATA ·expVec+116(SB)/4, $0xc2ac0000
DATA ·expVec+120(SB)/4, $0xc2ac0000
DATA ·expVec+124(SB)/4, $0xc2ac0000
DATA ·expVec+128(SB)/4, $0x39506967  // p0
DATA ·expVec+132(SB)/4, $0x39506967
DATA ·expVec+136(SB)/4, $0x39506967
DATA ·expVec+140(SB)/4, $0x39506967
DATA ·expVec+144(SB)/4, $0x39506967
DATA ·expVec+148(SB)/4, $0x39506967
DATA ·expVec+152(SB)/4, $0x39506967
DATA ·expVec+156(SB)/4, $0x39506967
DATA ·expVec+160(SB)/4, $0x3ab743ce  // p1
DATA ·expVec+164(SB)/4, $0x3ab743ce
DATA ·expVec+168(SB)/4, $0x3ab743ce
DATA ·expVec+172(SB)/4, $0x3ab743ce
DATA ·expVec+176(SB)/4, $0x3ab743ce
DATA ·expVec+180(SB)/4, $0x3ab743ce
DATA ·expVec+184(SB)/4, $0x3ab743ce
DATA ·expVec+188(SB)/4, $0x3ab743ce
DATA ·expVec+192(SB)/4, $0x3c088908  // p2
DATA ·expVec+196(SB)/4, $0x3c088908
DATA ·expVec+200(SB)/4, $0x3c088908
DATA ·expVec+204(SB)/4, $0x3c088908
DATA ·expVec+208(SB)/4, $0x3c088908
DATA ·expVec+212(SB)/4, $0x3c088908
DATA ·expVec+216(SB)/4, $0x3c088908
DATA ·expVec+220(SB)/4, $0x3c088908
DATA ·expVec+224(SB)/4, $0x3d2aa9c1  // p3
DATA ·expVec+228(SB)/4, $0x3d2aa9c1
DATA ·expVec+232(SB)/4, $0x3d2aa9c1
DATA ·expVec+236(SB)/4, $0x3d2aa9c1
DATA ·expVec+240(SB)/4, $0x3d2aa9c1
DATA ·expVec+244(SB)/4, $0x3d2aa9c1
DATA ·expVec+248(SB)/4, $0x3d2aa9c1
DATA ·expVec+252(SB)/4, $0x3d2aa9c1
DATA ·expVec+256(SB)/4, $0x3e2aaaaa  // p4
DATA ·expVec+260(SB)/4, $0x3e2aaaaa
DATA ·expVec+264(SB)/4, $0x3e2aaaaa
DATA ·expVec+268(SB)/4, $0x3e2aaaaa
DATA ·expVec+272(SB)/4, $0x3e2aaaaa
DATA ·expVec+276(SB)/4, $0x3e2aaaaa
DATA ·expVec+280(SB)/4, $0x3e2aaaaa
DATA ·expVec+284(SB)/4, $0x3e2aaaaa
DATA ·expVec+288(SB)/4, $0x3f000000  // p5
DATA ·expVec+292(SB)/4, $0x3f000000
DATA ·expVec+296(SB)/4, $0x3f000000
DATA ·expVec+300(SB)/4, $0x3f000000
DATA ·expVec+304(SB)/4, $0x3f000000
DATA ·expVec+308(SB)/4, $0x3f000000
DATA ·expVec+312(SB)/4, $0x3f000000
DATA ·expVec+316(SB)/4, $0x3f000000
DATA ·expVec+320(SB)/4, $0x3f800000  // one
DATA ·expVec+324(SB)/4, $0x3f800000
DATA ·expVec+328(SB)/4, $0x3f800000
DATA ·expVec+332(SB)/4, $0x3f800000
DATA ·expVec+336(SB)/4, $0x3f800000
DATA ·expVec+340(SB)/4, $0x3f800000
DATA ·expVec+344(SB)/4, $0x3f800000
DATA ·expVec+348(SB)/4, $0x3f800000
GLOBL ·expVec(SB), RODATA|NOPTR, $352

// func expSubAVX(d, x *float32, n int, m float32) float32
//
// d[i] = exp(x[i] - m) for i < n (n a multiple of 8), x[i] <= m and no
// NaN, and returns their sum (eight lanes, then lanes added pairwise).
// exp(r + k*ln2) = 2^k * (1 + r + r^2*P(r)), the Cephes expf scheme, with
// x - m clamped at -86 so 2^k stays normal.
TEXT ·expSubAVX(SB), NOSPLIT, $0-36
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Y15
	VXORPS Y9, Y9, Y9
	SHRQ $3, CX
	JEQ exp_sum

exp_loop:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0
	VMAXPS ·expVec+96(SB), Y0, Y0 // x > lo ? x : lo
	VMULPS ·expVec+0(SB), Y0, Y1
	VROUNDPS $0, Y1, Y1            // k, to nearest
	VFMADD231PS ·expVec+32(SB), Y1, Y0
	VFMADD231PS ·expVec+64(SB), Y1, Y0 // r = x - k*ln2
	VMOVUPS ·expVec+128(SB), Y2
	VFMADD213PS ·expVec+160(SB), Y0, Y2
	VFMADD213PS ·expVec+192(SB), Y0, Y2
	VFMADD213PS ·expVec+224(SB), Y0, Y2
	VFMADD213PS ·expVec+256(SB), Y0, Y2
	VFMADD213PS ·expVec+288(SB), Y0, Y2
	VMULPS Y0, Y0, Y3
	VFMADD213PS Y0, Y3, Y2         // P*r^2 + r
	VADDPS ·expVec+320(SB), Y2, Y2  // + 1
	VCVTPS2DQ Y1, Y1
	VPSLLD $23, Y1, Y1
	VPADDD Y1, Y2, Y2              // * 2^k
	VMOVUPS Y2, (DI)
	VADDPS Y2, Y9, Y9
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE exp_loop

exp_sum:
	VEXTRACTF128 $1, Y9, X1
	VADDPS X1, X9, X9
	VHADDPS X9, X9, X9
	VHADDPS X9, X9, X9
	VMOVSS X9, ret+32(FP)
	VZEROUPPER
	RET
