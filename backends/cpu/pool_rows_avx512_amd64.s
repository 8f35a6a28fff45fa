//go:build amd64 && !purego

#include "textflag.h"

// POOLROWS512 is the body of poolRowsMaxAVX512, poolRowsSumAVX512 and
// poolRowsAvgAVX512, poolRowsMaxAVX's loops sixteen lanes wide; OP(x,
// acc) folds a tap into an accumulator, FINPRE readies FIN(acc, disp,
// idx), which finishes the accumulator of the columns at byte disp+idx.
// For each of planes planes (dps, sps bytes apart) and rows rows (ds, ss
// bytes apart), and each column j < width (width >= 16), dst[j] = the
// fold of src[offs[t]+j] over t in order, from the broadcast of lowest.
// Columns go 64 at a time, then the last 1 to 63 in one pass over the
// taps, the last sixteen of the row recomputing columns where the rest is
// not a multiple of 16 (dst is never src). No masks: masked loads and
// stores ran slower than this overlap on the CPUs measured.
//
// DI, SI plane bases; DX, BX row bases; CX column byte offset; R13 the
// last sixteen columns' byte offset; R8 offs; R9 offs end; R10 width in
// bytes; R11 rows left; R14 planes left; AX tap pointer; R12 scratch;
// Z15 the start value.
#define POOLROWS512(OP, FINPRE, FIN) \
	MOVQ dst+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ offs+16(FP), R8 \
	MOVQ ntaps+24(FP), R9 \
	LEAQ (R8)(R9*8), R9 \
	MOVQ width+32(FP), R10 \
	LEAQ -16(R10), R13 \
	SHLQ $2, R10 \
	SHLQ $2, R13 \
	MOVQ planes+64(FP), R14 \
	VBROADCASTSS lowest+88(FP), Z15 \
plane: \
	MOVQ rows+40(FP), R11 \
	MOVQ DI, DX \
	MOVQ SI, BX \
row: \
	XORQ CX, CX \
c64: \
	LEAQ 256(CX), R12 \
	CMPQ R12, R10 \
	JGT rest \
	VMOVAPS Z15, Z0 \
	VMOVAPS Z15, Z1 \
	VMOVAPS Z15, Z2 \
	VMOVAPS Z15, Z3 \
	MOVQ R8, AX \
t64: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Z4 \
	VMOVUPS 64(R12)(CX*1), Z5 \
	VMOVUPS 128(R12)(CX*1), Z6 \
	VMOVUPS 192(R12)(CX*1), Z7 \
	OP(Z4, Z0) \
	OP(Z5, Z1) \
	OP(Z6, Z2) \
	OP(Z7, Z3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t64 \
	FINPRE \
	FIN(Z0, 0, CX) \
	FIN(Z1, 64, CX) \
	FIN(Z2, 128, CX) \
	FIN(Z3, 192, CX) \
	VMOVUPS Z0, (DX)(CX*1) \
	VMOVUPS Z1, 64(DX)(CX*1) \
	VMOVUPS Z2, 128(DX)(CX*1) \
	VMOVUPS Z3, 192(DX)(CX*1) \
	ADDQ $256, CX \
	JMP c64 \
rest: \
	CMPQ CX, R10 \
	JEQ rowdone \
	MOVQ R10, R12 \
	SUBQ CX, R12 \
	CMPQ R12, $64 \
	JLE r1 \
	CMPQ R12, $128 \
	JLE r2 \
	CMPQ R12, $192 \
	JLE r3 \
	VMOVAPS Z15, Z0 \
	VMOVAPS Z15, Z1 \
	VMOVAPS Z15, Z2 \
	VMOVAPS Z15, Z3 \
	MOVQ R8, AX \
t4: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Z4 \
	VMOVUPS 64(R12)(CX*1), Z5 \
	VMOVUPS 128(R12)(CX*1), Z6 \
	VMOVUPS (R12)(R13*1), Z7 \
	OP(Z4, Z0) \
	OP(Z5, Z1) \
	OP(Z6, Z2) \
	OP(Z7, Z3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t4 \
	FINPRE \
	FIN(Z0, 0, CX) \
	FIN(Z1, 64, CX) \
	FIN(Z2, 128, CX) \
	FIN(Z3, 0, R13) \
	VMOVUPS Z0, (DX)(CX*1) \
	VMOVUPS Z1, 64(DX)(CX*1) \
	VMOVUPS Z2, 128(DX)(CX*1) \
	VMOVUPS Z3, (DX)(R13*1) \
	JMP rowdone \
r3: \
	VMOVAPS Z15, Z0 \
	VMOVAPS Z15, Z1 \
	VMOVAPS Z15, Z3 \
	MOVQ R8, AX \
t3: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Z4 \
	VMOVUPS 64(R12)(CX*1), Z5 \
	VMOVUPS (R12)(R13*1), Z7 \
	OP(Z4, Z0) \
	OP(Z5, Z1) \
	OP(Z7, Z3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t3 \
	FINPRE \
	FIN(Z0, 0, CX) \
	FIN(Z1, 64, CX) \
	FIN(Z3, 0, R13) \
	VMOVUPS Z0, (DX)(CX*1) \
	VMOVUPS Z1, 64(DX)(CX*1) \
	VMOVUPS Z3, (DX)(R13*1) \
	JMP rowdone \
r2: \
	VMOVAPS Z15, Z0 \
	VMOVAPS Z15, Z3 \
	MOVQ R8, AX \
t2: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Z4 \
	VMOVUPS (R12)(R13*1), Z7 \
	OP(Z4, Z0) \
	OP(Z7, Z3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t2 \
	FINPRE \
	FIN(Z0, 0, CX) \
	FIN(Z3, 0, R13) \
	VMOVUPS Z0, (DX)(CX*1) \
	VMOVUPS Z3, (DX)(R13*1) \
	JMP rowdone \
r1: \
	VMOVAPS Z15, Z3 \
	MOVQ R8, AX \
t1: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(R13*1), Z7 \
	OP(Z7, Z3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t1 \
	FINPRE \
	FIN(Z3, 0, R13) \
	VMOVUPS Z3, (DX)(R13*1) \
rowdone: \
	ADDQ ds+48(FP), DX \
	ADDQ ss+56(FP), BX \
	DECQ R11 \
	JNE row \
	ADDQ dps+72(FP), DI \
	ADDQ sps+80(FP), SI \
	DECQ R14 \
	JNE plane \
	VZEROUPPER \
	RET

// acc = x > acc ? x : acc (a NaN x leaves acc).
#define MAXOP512(x, acc) VMAXPS acc, x, acc

// acc = x + acc.
#define SUMOP512(x, acc) VADDPS x, acc, acc

// No finishing.
#define NOPRE512
#define NOFIN512(acc, disp, idx)

// R12 = the tab row of the dst row at DX (tab laid out as one plane of
// dst).
#define TABROW512 \
	MOVQ tab+96(FP), R12 \
	SUBQ DI, R12 \
	ADDQ DX, R12

// acc *= the tab cells at byte disp+idx of the row.
#define MULFIN512(acc, disp, idx) VMULPS disp(R12)(idx*1), acc, acc

// func poolRowsMaxAVX512(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)
TEXT ·poolRowsMaxAVX512(SB), NOSPLIT, $0-92
	POOLROWS512(MAXOP512, NOPRE512, NOFIN512)

// func poolRowsSumAVX512(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)
TEXT ·poolRowsSumAVX512(SB), NOSPLIT, $0-92
	POOLROWS512(SUMOP512, NOPRE512, NOFIN512)

// func poolRowsAvgAVX512(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32, tab *float32)
//
// poolRowsSumAVX512 with each sum multiplied by the tab cell at its dst
// cell's place in its plane (tab laid out as one plane of dst).
TEXT ·poolRowsAvgAVX512(SB), NOSPLIT, $0-104
	POOLROWS512(SUMOP512, TABROW512, MULFIN512)

