//go:build amd64 && !purego

#include "textflag.h"

// POOLROWS is the body of poolRowsMaxAVX, poolRowsSumAVX and
// poolRowsAvgAVX; OP(x, acc) folds a tap into an accumulator, FINPRE
// readies FIN(acc, disp, idx), which finishes the accumulator of the
// columns at byte disp+idx. For each of planes planes (dps, sps bytes
// apart) and rows rows (ds, ss bytes apart), and each column j < width
// (width >= 8), dst[j] = the fold of src[offs[t]+j] over t in order, from
// the broadcast of lowest. Columns go 32 at a time, then the last 1 to 31
// in one pass over the taps, the last eight of the row recomputing
// columns where the rest is not a multiple of 8 (dst is never src).
//
// DI, SI plane bases; DX, BX row bases; CX column byte offset; R13 the
// last eight columns' byte offset; R8 offs; R9 offs end; R10 width in
// bytes; R11 rows left; R14 planes left; AX tap pointer; R12 scratch;
// Y15 the start value.
#define POOLROWS(OP, FINPRE, FIN) \
	MOVQ dst+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ offs+16(FP), R8 \
	MOVQ ntaps+24(FP), R9 \
	LEAQ (R8)(R9*8), R9 \
	MOVQ width+32(FP), R10 \
	SHLQ $2, R10 \
	LEAQ -32(R10), R13 \
	MOVQ planes+64(FP), R14 \
	VBROADCASTSS lowest+88(FP), Y15 \
plane: \
	MOVQ rows+40(FP), R11 \
	MOVQ DI, DX \
	MOVQ SI, BX \
row: \
	XORQ CX, CX \
c32: \
	LEAQ 128(CX), R12 \
	CMPQ R12, R10 \
	JGT rest \
	VMOVAPS Y15, Y0 \
	VMOVAPS Y15, Y1 \
	VMOVAPS Y15, Y2 \
	VMOVAPS Y15, Y3 \
	MOVQ R8, AX \
t32: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Y4 \
	VMOVUPS 32(R12)(CX*1), Y5 \
	VMOVUPS 64(R12)(CX*1), Y6 \
	VMOVUPS 96(R12)(CX*1), Y7 \
	OP(Y4, Y0) \
	OP(Y5, Y1) \
	OP(Y6, Y2) \
	OP(Y7, Y3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t32 \
	FINPRE \
	FIN(Y0, 0, CX) \
	FIN(Y1, 32, CX) \
	FIN(Y2, 64, CX) \
	FIN(Y3, 96, CX) \
	VMOVUPS Y0, (DX)(CX*1) \
	VMOVUPS Y1, 32(DX)(CX*1) \
	VMOVUPS Y2, 64(DX)(CX*1) \
	VMOVUPS Y3, 96(DX)(CX*1) \
	ADDQ $128, CX \
	JMP c32 \
rest: \
	CMPQ CX, R10 \
	JEQ rowdone \
	MOVQ R10, R12 \
	SUBQ CX, R12 \
	CMPQ R12, $32 \
	JLE r1 \
	CMPQ R12, $64 \
	JLE r2 \
	CMPQ R12, $96 \
	JLE r3 \
	VMOVAPS Y15, Y0 \
	VMOVAPS Y15, Y1 \
	VMOVAPS Y15, Y2 \
	VMOVAPS Y15, Y3 \
	MOVQ R8, AX \
t4: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Y4 \
	VMOVUPS 32(R12)(CX*1), Y5 \
	VMOVUPS 64(R12)(CX*1), Y6 \
	VMOVUPS (R12)(R13*1), Y7 \
	OP(Y4, Y0) \
	OP(Y5, Y1) \
	OP(Y6, Y2) \
	OP(Y7, Y3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t4 \
	FINPRE \
	FIN(Y0, 0, CX) \
	FIN(Y1, 32, CX) \
	FIN(Y2, 64, CX) \
	FIN(Y3, 0, R13) \
	VMOVUPS Y0, (DX)(CX*1) \
	VMOVUPS Y1, 32(DX)(CX*1) \
	VMOVUPS Y2, 64(DX)(CX*1) \
	VMOVUPS Y3, (DX)(R13*1) \
	JMP rowdone \
r3: \
	VMOVAPS Y15, Y0 \
	VMOVAPS Y15, Y1 \
	VMOVAPS Y15, Y3 \
	MOVQ R8, AX \
t3: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Y4 \
	VMOVUPS 32(R12)(CX*1), Y5 \
	VMOVUPS (R12)(R13*1), Y7 \
	OP(Y4, Y0) \
	OP(Y5, Y1) \
	OP(Y7, Y3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t3 \
	FINPRE \
	FIN(Y0, 0, CX) \
	FIN(Y1, 32, CX) \
	FIN(Y3, 0, R13) \
	VMOVUPS Y0, (DX)(CX*1) \
	VMOVUPS Y1, 32(DX)(CX*1) \
	VMOVUPS Y3, (DX)(R13*1) \
	JMP rowdone \
r2: \
	VMOVAPS Y15, Y0 \
	VMOVAPS Y15, Y3 \
	MOVQ R8, AX \
t2: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Y4 \
	VMOVUPS (R12)(R13*1), Y7 \
	OP(Y4, Y0) \
	OP(Y7, Y3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t2 \
	FINPRE \
	FIN(Y0, 0, CX) \
	FIN(Y3, 0, R13) \
	VMOVUPS Y0, (DX)(CX*1) \
	VMOVUPS Y3, (DX)(R13*1) \
	JMP rowdone \
r1: \
	VMOVAPS Y15, Y3 \
	MOVQ R8, AX \
t1: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(R13*1), Y7 \
	OP(Y7, Y3) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t1 \
	FINPRE \
	FIN(Y3, 0, R13) \
	VMOVUPS Y3, (DX)(R13*1) \
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
#define MAXOP(x, acc) VMAXPS acc, x, acc

// acc = x + acc.
#define SUMOP(x, acc) VADDPS x, acc, acc

// No finishing.
#define NOPRE
#define NOFIN(acc, disp, idx)

// R12 = the tab row of the dst row at DX (tab laid out as one plane of
// dst).
#define TABROW \
	MOVQ tab+96(FP), R12 \
	SUBQ DI, R12 \
	ADDQ DX, R12

// acc *= the tab cells at byte disp+idx of the row.
#define MULFIN(acc, disp, idx) VMULPS disp(R12)(idx*1), acc, acc

// func poolRowsMaxAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)
TEXT ·poolRowsMaxAVX(SB), NOSPLIT, $0-92
	POOLROWS(MAXOP, NOPRE, NOFIN)

// func poolRowsSumAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)
TEXT ·poolRowsSumAVX(SB), NOSPLIT, $0-92
	POOLROWS(SUMOP, NOPRE, NOFIN)

// func poolRowsAvgAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32, tab *float32)
//
// poolRowsSumAVX with each sum multiplied by the tab cell at its dst
// cell's place in its plane (tab laid out as one plane of dst).
TEXT ·poolRowsAvgAVX(SB), NOSPLIT, $0-104
	POOLROWS(SUMOP, TABROW, MULFIN)

// func poolDeint2AVX(e, o, src *float32, n int)
//
// e[i] = src[2i], o[i] = src[2i+1] for i < n, n a multiple of 8.
TEXT ·poolDeint2AVX(SB), NOSPLIT, $0-32
	MOVQ e+0(FP), DI
	MOVQ o+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ dt_done

dt_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VSHUFPS $0xdd, Y1, Y0, Y3
	VPERMPD $0xd8, Y2, Y2
	VPERMPD $0xd8, Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, (DX)
	ADDQ $64, SI
	ADDQ $32, DI
	ADDQ $32, DX
	DECQ CX
	JNE dt_loop

dt_done:
	VZEROUPPER
	RET
