//go:build amd64 && !purego

#include "textflag.h"

// The QLinearAdd and QLinearMul row kernels (AVX2 with FMA), 32 outputs
// an iteration: the 8-bit operands widened to int32 (zero- or
// sign-extended) and converted to float32, the op's arithmetic in the
// order of op_contrib_qlinear.go's scalar functions, VCVTPS2DQ, and the
// saturating packs through int16 to the 8-bit type. The 256-bit packs
// interleave their sources' 128-bit halves; VPERMD with qlinPerm puts
// the four groups of eight back in order.

DATA ·qlinPerm+0(SB)/4, $0
DATA ·qlinPerm+4(SB)/4, $4
DATA ·qlinPerm+8(SB)/4, $1
DATA ·qlinPerm+12(SB)/4, $5
DATA ·qlinPerm+16(SB)/4, $2
DATA ·qlinPerm+20(SB)/4, $6
DATA ·qlinPerm+24(SB)/4, $3
DATA ·qlinPerm+28(SB)/4, $7
GLOBL ·qlinPerm(SB), RODATA|NOPTR, $32

// PACK4 packs the int32 lanes of Y4..Y7 (in that order) to 32 bytes with
// PB (VPACKUSWB or VPACKSSWB) and stores them at (DI).
#define PACK4(PB) \
	VPACKSSDW Y5, Y4, Y4; \
	VPACKSSDW Y7, Y6, Y6; \
	PB Y6, Y4, Y4; \
	VPERMD Y4, Y11, Y4; \
	VMOVDQU Y4, (DI)

// ADD2 is fma(a, ra, fma(b, rb, f)) for a at SI, b at DX: ra in Y15, rb
// in Y14, f in Y13; W widens eight bytes to int32.
#define ADD2(W, off, ra, rb) \
	W off(SI), ra; \
	W off(DX), rb; \
	VCVTDQ2PS ra, ra; \
	VCVTDQ2PS rb, rb; \
	VFMADD213PS Y13, Y14, rb; \
	VFMADD231PS Y15, ra, rb; \
	VCVTPS2DQ rb, rb

// ADD1 is fma(x, r, f) for x at SI: r in Y15, f in Y13.
#define ADD1(W, off, x) \
	W off(SI), x; \
	VCVTDQ2PS x, x; \
	VFMADD213PS Y13, Y15, x; \
	VCVTPS2DQ x, x

// MUL2 is float32((a-za)·(b-zb))·ratio + zc for a at SI, b at DX: za in
// Y15, zb in Y14 (int32), ratio in Y13, zc in Y12.
#define MUL2(W, off, a, b) \
	W off(SI), a; \
	W off(DX), b; \
	VPSUBD Y15, a, a; \
	VPSUBD Y14, b, b; \
	VPMULLD a, b, b; \
	VCVTDQ2PS b, b; \
	VMULPS Y13, b, b; \
	VADDPS Y12, b, b; \
	VCVTPS2DQ b, b

// MUL1 is float32((x-z)·c)·ratio + zc for x at SI: z in Y15, c in Y14
// (int32), ratio in Y13, zc in Y12.
#define MUL1(W, off, x) \
	W off(SI), x; \
	VPSUBD Y15, x, x; \
	VPMULLD Y14, x, x; \
	VCVTDQ2PS x, x; \
	VMULPS Y13, x, x; \
	VADDPS Y12, x, x; \
	VCVTPS2DQ x, x

// func qAdd2AVX2(y, xa, xb *byte, n int, ra, rb, f float32, signed bool)
//
// y[i] = qaddBoth's byte for xa[i], xb[i] with n a multiple of 32.
TEXT ·qAdd2AVX2(SB), NOSPLIT, $0-45
	MOVQ y+0(FP), DI
	MOVQ xa+8(FP), SI
	MOVQ xb+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS ra+32(FP), Y15
	VBROADCASTSS rb+36(FP), Y14
	VBROADCASTSS f+40(FP), Y13
	VMOVDQU ·qlinPerm(SB), Y11
	SHRQ $5, CX
	JEQ qa2_done
	MOVBLZX signed+44(FP), AX
	TESTL AX, AX
	JNE qa2_s
qa2_u:
	ADD2(VPMOVZXBD, 0, Y0, Y4)
	ADD2(VPMOVZXBD, 8, Y1, Y5)
	ADD2(VPMOVZXBD, 16, Y2, Y6)
	ADD2(VPMOVZXBD, 24, Y3, Y7)
	PACK4(VPACKUSWB)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE qa2_u
	JMP qa2_done
qa2_s:
	ADD2(VPMOVSXBD, 0, Y0, Y4)
	ADD2(VPMOVSXBD, 8, Y1, Y5)
	ADD2(VPMOVSXBD, 16, Y2, Y6)
	ADD2(VPMOVSXBD, 24, Y3, Y7)
	PACK4(VPACKSSWB)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE qa2_s
qa2_done:
	VZEROUPPER
	RET

// func qAdd1AVX2(y, x *byte, n int, r, f float32, signed bool)
//
// y[i] = the byte of fma(x[i], r, f), rounded and saturated, with n a
// multiple of 32.
TEXT ·qAdd1AVX2(SB), NOSPLIT, $0-33
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS r+24(FP), Y15
	VBROADCASTSS f+28(FP), Y13
	VMOVDQU ·qlinPerm(SB), Y11
	SHRQ $5, CX
	JEQ qa1_done
	MOVBLZX signed+32(FP), AX
	TESTL AX, AX
	JNE qa1_s
qa1_u:
	ADD1(VPMOVZXBD, 0, Y4)
	ADD1(VPMOVZXBD, 8, Y5)
	ADD1(VPMOVZXBD, 16, Y6)
	ADD1(VPMOVZXBD, 24, Y7)
	PACK4(VPACKUSWB)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE qa1_u
	JMP qa1_done
qa1_s:
	ADD1(VPMOVSXBD, 0, Y4)
	ADD1(VPMOVSXBD, 8, Y5)
	ADD1(VPMOVSXBD, 16, Y6)
	ADD1(VPMOVSXBD, 24, Y7)
	PACK4(VPACKSSWB)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE qa1_s
qa1_done:
	VZEROUPPER
	RET

// func qMul2AVX2(y, xa, xb *byte, n int, za, zb int32, ratio, zc float32, signed bool)
//
// y[i] = qmulOne's byte for (xa[i]-za)·(xb[i]-zb) with n a multiple of 32.
TEXT ·qMul2AVX2(SB), NOSPLIT, $0-49
	MOVQ y+0(FP), DI
	MOVQ xa+8(FP), SI
	MOVQ xb+16(FP), DX
	MOVQ n+24(FP), CX
	MOVL za+32(FP), AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15
	MOVL zb+36(FP), AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14
	VBROADCASTSS ratio+40(FP), Y13
	VBROADCASTSS zc+44(FP), Y12
	VMOVDQU ·qlinPerm(SB), Y11
	SHRQ $5, CX
	JEQ qm2_done
	MOVBLZX signed+48(FP), AX
	TESTL AX, AX
	JNE qm2_s
qm2_u:
	MUL2(VPMOVZXBD, 0, Y0, Y4)
	MUL2(VPMOVZXBD, 8, Y1, Y5)
	MUL2(VPMOVZXBD, 16, Y2, Y6)
	MUL2(VPMOVZXBD, 24, Y3, Y7)
	PACK4(VPACKUSWB)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE qm2_u
	JMP qm2_done
qm2_s:
	MUL2(VPMOVSXBD, 0, Y0, Y4)
	MUL2(VPMOVSXBD, 8, Y1, Y5)
	MUL2(VPMOVSXBD, 16, Y2, Y6)
	MUL2(VPMOVSXBD, 24, Y3, Y7)
	PACK4(VPACKSSWB)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE qm2_s
qm2_done:
	VZEROUPPER
	RET

// func qMul1AVX2(y, x *byte, n int, z, c int32, ratio, zc float32, signed bool)
//
// y[i] = qmulOne's byte for (x[i]-z)·c with n a multiple of 32.
TEXT ·qMul1AVX2(SB), NOSPLIT, $0-41
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL z+24(FP), AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15
	MOVL c+28(FP), AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14
	VBROADCASTSS ratio+32(FP), Y13
	VBROADCASTSS zc+36(FP), Y12
	VMOVDQU ·qlinPerm(SB), Y11
	SHRQ $5, CX
	JEQ qm1_done
	MOVBLZX signed+40(FP), AX
	TESTL AX, AX
	JNE qm1_s
qm1_u:
	MUL1(VPMOVZXBD, 0, Y4)
	MUL1(VPMOVZXBD, 8, Y5)
	MUL1(VPMOVZXBD, 16, Y6)
	MUL1(VPMOVZXBD, 24, Y7)
	PACK4(VPACKUSWB)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE qm1_u
	JMP qm1_done
qm1_s:
	MUL1(VPMOVSXBD, 0, Y4)
	MUL1(VPMOVSXBD, 8, Y5)
	MUL1(VPMOVSXBD, 16, Y6)
	MUL1(VPMOVSXBD, 24, Y7)
	PACK4(VPACKSSWB)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE qm1_s
qm1_done:
	VZEROUPPER
	RET
