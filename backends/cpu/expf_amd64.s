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

// EXPSUB sets p = exp(x - m) for x - m <= 0, m in Y15, clobbering x, k
// and t: x - m clamped at -86 so 2^k stays normal, exp(r + k*ln2) = 2^k *
// (1 + r + r^2*P(r)), the Cephes expf scheme, 2^k added to the exponent.
#define EXPSUB(x, k, p, t) \
	VSUBPS Y15, x, x; \
	VMAXPS ·expVec+96(SB), x, x; \
	VMULPS ·expVec+0(SB), x, k; \
	VROUNDPS $0, k, k; \
	VFMADD231PS ·expVec+32(SB), k, x; \
	VFMADD231PS ·expVec+64(SB), k, x; \
	VMOVUPS ·expVec+128(SB), p; \
	VFMADD213PS ·expVec+160(SB), x, p; \
	VFMADD213PS ·expVec+192(SB), x, p; \
	VFMADD213PS ·expVec+224(SB), x, p; \
	VFMADD213PS ·expVec+256(SB), x, p; \
	VFMADD213PS ·expVec+288(SB), x, p; \
	VMULPS x, x, t; \
	VFMADD213PS x, t, p; \
	VADDPS ·expVec+320(SB), p, p; \
	VCVTPS2DQ k, k; \
	VPSLLD $23, k, k; \
	VPADDD k, p, p

// EXPSUB2 is EXPSUB on two vectors, interleaved instruction by
// instruction so that the scheduler sees both chains.
#define EXPSUB2(x, k, p, t, x2, k2, p2, t2) \
	VSUBPS Y15, x, x; \
	VSUBPS Y15, x2, x2; \
	VMAXPS ·expVec+96(SB), x, x; \
	VMAXPS ·expVec+96(SB), x2, x2; \
	VMULPS ·expVec+0(SB), x, k; \
	VMULPS ·expVec+0(SB), x2, k2; \
	VROUNDPS $0, k, k; \
	VROUNDPS $0, k2, k2; \
	VFMADD231PS ·expVec+32(SB), k, x; \
	VFMADD231PS ·expVec+32(SB), k2, x2; \
	VFMADD231PS ·expVec+64(SB), k, x; \
	VFMADD231PS ·expVec+64(SB), k2, x2; \
	VMOVUPS ·expVec+128(SB), p; \
	VMOVUPS ·expVec+128(SB), p2; \
	VFMADD213PS ·expVec+160(SB), x, p; \
	VFMADD213PS ·expVec+160(SB), x2, p2; \
	VFMADD213PS ·expVec+192(SB), x, p; \
	VFMADD213PS ·expVec+192(SB), x2, p2; \
	VFMADD213PS ·expVec+224(SB), x, p; \
	VFMADD213PS ·expVec+224(SB), x2, p2; \
	VFMADD213PS ·expVec+256(SB), x, p; \
	VFMADD213PS ·expVec+256(SB), x2, p2; \
	VFMADD213PS ·expVec+288(SB), x, p; \
	VFMADD213PS ·expVec+288(SB), x2, p2; \
	VMULPS x, x, t; \
	VMULPS x2, x2, t2; \
	VFMADD213PS x, t, p; \
	VFMADD213PS x2, t2, p2; \
	VADDPS ·expVec+320(SB), p, p; \
	VADDPS ·expVec+320(SB), p2, p2; \
	VCVTPS2DQ k, k; \
	VCVTPS2DQ k2, k2; \
	VPSLLD $23, k, k; \
	VPSLLD $23, k2, k2; \
	VPADDD k, p, p; \
	VPADDD k2, p2, p2

// func expSubAVX(d, x *float32, n int, m float32) float32
//
// d[i] = exp(x[i] - m) for i < n (n a multiple of 8), x[i] <= m and no
// NaN (EXPSUB), and returns their sum: an odd first vector, then pairs
// of vectors into two accumulators, whose lanes are added pairwise.
TEXT ·expSubAVX(SB), NOSPLIT, $0-36
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Y15
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	SHRQ $3, CX
	JEQ exp_sum
	TESTQ $1, CX
	JEQ exp_pairs
	VMOVUPS (SI), Y0
	EXPSUB(Y0, Y1, Y2, Y3)
	VMOVUPS Y2, (DI)
	VMOVAPS Y2, Y9
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX

exp_pairs:
	SHRQ $1, CX
	JEQ exp_sum

exp_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y4
	EXPSUB2(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVUPS Y2, (DI)
	VMOVUPS Y6, 32(DI)
	VADDPS Y2, Y9, Y9
	VADDPS Y6, Y10, Y10
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNE exp_loop

exp_sum:
	VADDPS Y10, Y9, Y9
	VEXTRACTF128 $1, Y9, X1
	VADDPS X1, X9, X9
	VHADDPS X9, X9, X9
	VHADDPS X9, X9, X9
	VMOVSS X9, ret+32(FP)
	VZEROUPPER
	RET

// EXPSUBZ is EXPSUB in zmm registers, m in Z15, each constant a
// broadcast of the first lane of its expVec vector: each lane's bits are
// EXPSUB's.
#define EXPSUBZ(x, k, p, t) \
	VSUBPS Z15, x, x; \
	VMAXPS.BCST ·expVec+96(SB), x, x; \
	VMULPS.BCST ·expVec+0(SB), x, k; \
	VRNDSCALEPS $0, k, k; \
	VFMADD231PS.BCST ·expVec+32(SB), k, x; \
	VFMADD231PS.BCST ·expVec+64(SB), k, x; \
	VBROADCASTSS ·expVec+128(SB), p; \
	VFMADD213PS.BCST ·expVec+160(SB), x, p; \
	VFMADD213PS.BCST ·expVec+192(SB), x, p; \
	VFMADD213PS.BCST ·expVec+224(SB), x, p; \
	VFMADD213PS.BCST ·expVec+256(SB), x, p; \
	VFMADD213PS.BCST ·expVec+288(SB), x, p; \
	VMULPS x, x, t; \
	VFMADD213PS x, t, p; \
	VADDPS.BCST ·expVec+320(SB), p, p; \
	VCVTPS2DQ k, k; \
	VPSLLD $23, k, k; \
	VPADDD k, p, p

// func expSubZ(d, x *float32, n int, m float32) float32
//
// expSubAVX with AVX-512 on a multiple of 16 elements: the same exp
// bits; the sum runs in two accumulators of 16 lanes (an odd first
// vector, then pairs), folded to 8 lanes and added as expSubAVX adds.
TEXT ·expSubZ(SB), NOSPLIT, $0-36
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Z15
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	SHRQ $4, CX
	JEQ expz_sum
	TESTQ $1, CX
	JEQ expz_pairs
	VMOVUPS (SI), Z0
	EXPSUBZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, (DI)
	VMOVAPS Z2, Z9
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX

expz_pairs:
	SHRQ $1, CX
	JEQ expz_sum

expz_loop:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z4
	EXPSUBZ(Z0, Z1, Z2, Z3)
	EXPSUBZ(Z4, Z5, Z6, Z7)
	VMOVUPS Z2, (DI)
	VMOVUPS Z6, 64(DI)
	VADDPS Z2, Z9, Z9
	VADDPS Z6, Z10, Z10
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNE expz_loop

expz_sum:
	VADDPS Z10, Z9, Z9
	VEXTRACTF64X4 $1, Z9, Y1
	VADDPS Y1, Y9, Y9
	VEXTRACTF128 $1, Y9, X1
	VADDPS X1, X9, X9
	VHADDPS X9, X9, X9
	VHADDPS X9, X9, X9
	VMOVSS X9, ret+32(FP)
	VZEROUPPER
	RET

DATA ·smxNegInf+0(SB)/4, $0xff800000
GLOBL ·smxNegInf(SB), RODATA|NOPTR, $4

// func softmaxRowZ(d, x *float32, n int) bool
//
// Softmax of the row x[:n] into d (n >= 16; d may be x) with AVX-512 in
// one call: the row's maximum m, exp(x - m) (EXPSUBZ) summed in one
// accumulator of 16 lanes, then each times 1/sum. The row's last vector
// is masked (K1). It reports false, with d unspecified, when the row
// holds a NaN or its maximum is infinite.
TEXT ·softmaxRowZ(SB), NOSPLIT, $0-25
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R8
	LEAQ -1(R8), CX
	ANDQ $15, CX
	INCQ CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1
	LEAQ -1(R8), R9
	SHRQ $4, R9

	// The maximum, and NaNs in K2.
	VBROADCASTSS ·smxNegInf(SB), Z0
	KXORW K2, K2, K2
	MOVQ SI, R10
	MOVQ R9, CX
	TESTQ CX, CX
	JEQ smx_max_last

smx_max_loop:
	VMOVUPS (R10), Z1
	VCMPPS $3, Z1, Z1, K3
	KORW K3, K2, K2
	VMAXPS Z1, Z0, Z0
	ADDQ $64, R10
	DECQ CX
	JNE smx_max_loop

smx_max_last:
	VBROADCASTSS ·smxNegInf(SB), Z1
	VMOVUPS (R10), K1, Z1
	VCMPPS $3, Z1, Z1, K3
	KORW K3, K2, K2
	VMAXPS Z1, Z0, Z0
	KORTESTW K2, K2
	JNE smx_fail
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VMOVD X0, AX
	ANDL $0x7fffffff, AX
	CMPL AX, $0x7f800000
	JEQ smx_fail
	VBROADCASTSS X0, Z15

	// exp(x - m) into d, summed.
	VPXORD Z9, Z9, Z9
	MOVQ SI, R10
	MOVQ DI, R11
	MOVQ R9, CX
	TESTQ CX, CX
	JEQ smx_exp_last

smx_exp_loop:
	VMOVUPS (R10), Z0
	EXPSUBZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, (R11)
	VADDPS Z2, Z9, Z9
	ADDQ $64, R10
	ADDQ $64, R11
	DECQ CX
	JNE smx_exp_loop

smx_exp_last:
	VMOVUPS.Z (R10), K1, Z0
	EXPSUBZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, K1, (R11)
	VADDPS Z2, Z9, K1, Z9
	VEXTRACTF64X4 $1, Z9, Y1
	VADDPS Y1, Y9, Y9
	VEXTRACTF128 $1, Y9, X1
	VADDPS X1, X9, X9
	VHADDPS X9, X9, X9
	VHADDPS X9, X9, X9
	VMOVSS ·expVec+320(SB), X1
	VDIVSS X9, X1, X1
	VBROADCASTSS X1, Z1

	// Each times 1/sum.
	MOVQ DI, R11
	MOVQ R9, CX
	TESTQ CX, CX
	JEQ smx_scale_last

smx_scale_loop:
	VMULPS (R11), Z1, Z2
	VMOVUPS Z2, (R11)
	ADDQ $64, R11
	DECQ CX
	JNE smx_scale_loop

smx_scale_last:
	VMOVUPS.Z (R11), K1, Z2
	VMULPS Z2, Z1, Z2
	VMOVUPS Z2, K1, (R11)
	MOVB $1, ret+24(FP)
	VZEROUPPER
	RET

smx_fail:
	MOVB $0, ret+24(FP)
	VZEROUPPER
	RET

// func softmaxRowsZ(d, x *float32, n, rows int) int
//
// softmaxRowZ over rows rows of n (at least 16) one after another in one
// call, so that the rows' work overlaps: it returns how many rows it
// finished, less than rows where that row has a NaN or an infinite
// maximum (the caller takes it on the float64 path).
TEXT ·softmaxRowsZ(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R8
	LEAQ -1(R8), CX
	ANDQ $15, CX
	INCQ CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1
	LEAQ -1(R8), R9
	SHRQ $4, R9
	MOVQ rows+24(FP), R12
	XORQ R13, R13
	SHLQ $2, R8
	TESTQ R12, R12
	JEQ smr_done
smr_row:

	// The maximum, and NaNs in K2.
	VBROADCASTSS ·smxNegInf(SB), Z0
	KXORW K2, K2, K2
	MOVQ SI, R10
	MOVQ R9, CX
	TESTQ CX, CX
	JEQ smr_max_last

smr_max_loop:
	VMOVUPS (R10), Z1
	VCMPPS $3, Z1, Z1, K3
	KORW K3, K2, K2
	VMAXPS Z1, Z0, Z0
	ADDQ $64, R10
	DECQ CX
	JNE smr_max_loop

smr_max_last:
	VBROADCASTSS ·smxNegInf(SB), Z1
	VMOVUPS (R10), K1, Z1
	VCMPPS $3, Z1, Z1, K3
	KORW K3, K2, K2
	VMAXPS Z1, Z0, Z0
	KORTESTW K2, K2
	JNE smr_fail
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VMOVD X0, AX
	ANDL $0x7fffffff, AX
	CMPL AX, $0x7f800000
	JEQ smr_fail
	VBROADCASTSS X0, Z15

	// exp(x - m) into d, summed.
	VPXORD Z9, Z9, Z9
	MOVQ SI, R10
	MOVQ DI, R11
	MOVQ R9, CX
	TESTQ CX, CX
	JEQ smr_exp_last

smr_exp_loop:
	VMOVUPS (R10), Z0
	EXPSUBZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, (R11)
	VADDPS Z2, Z9, Z9
	ADDQ $64, R10
	ADDQ $64, R11
	DECQ CX
	JNE smr_exp_loop

smr_exp_last:
	VMOVUPS.Z (R10), K1, Z0
	EXPSUBZ(Z0, Z1, Z2, Z3)
	VMOVUPS Z2, K1, (R11)
	VADDPS Z2, Z9, K1, Z9
	VEXTRACTF64X4 $1, Z9, Y1
	VADDPS Y1, Y9, Y9
	VEXTRACTF128 $1, Y9, X1
	VADDPS X1, X9, X9
	VHADDPS X9, X9, X9
	VHADDPS X9, X9, X9
	VMOVSS ·expVec+320(SB), X1
	VDIVSS X9, X1, X1
	VBROADCASTSS X1, Z1

	// Each times 1/sum.
	MOVQ DI, R11
	MOVQ R9, CX
	TESTQ CX, CX
	JEQ smr_scale_last

smr_scale_loop:
	VMULPS (R11), Z1, Z2
	VMOVUPS Z2, (R11)
	ADDQ $64, R11
	DECQ CX
	JNE smr_scale_loop

smr_scale_last:
	VMOVUPS.Z (R11), K1, Z2
	VMULPS Z2, Z1, Z2
	VMOVUPS Z2, K1, (R11)
	ADDQ R8, DI
	ADDQ R8, SI
	INCQ R13
	CMPQ R13, R12
	JLT smr_row
smr_done:
smr_fail:
	MOVQ R13, ret+32(FP)
	VZEROUPPER
	RET
