//go:build amd64 && !purego

#include "textflag.h"

// POOLROWS is the body of poolRowsMaxAVX, poolRowsSumAVX and
// poolRowsAvgAVX; OP(x, acc) folds a tap into an accumulator, FIN8(acc)
// and FIN16(acc0, acc1) finish the accumulators of the columns at CX. For each of planes planes (dps, sps
// bytes apart) and rows rows (ds, ss bytes apart), and each column j <
// width (width >= 8; the last eight columns are recomputed where width
// is not a multiple of 8), dst[j] = the fold of src[offs[t]+j] over t in
// order, from the broadcast of lowest.
//
// DI, SI plane bases; DX, BX row bases; CX column byte offset; R8 offs;
// R9 offs end; R10 width in bytes; R11 rows left; R14 planes left; AX
// tap pointer; R12, R13 scratch; Y15 the start value.
#define POOLROWS(OP, FIN8, FIN16) \
	MOVQ dst+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ offs+16(FP), R8 \
	MOVQ ntaps+24(FP), R9 \
	LEAQ (R8)(R9*8), R9 \
	MOVQ width+32(FP), R10 \
	SHLQ $2, R10 \
	MOVQ planes+64(FP), R14 \
	VBROADCASTSS lowest+88(FP), Y15 \
plane: \
	MOVQ rows+40(FP), R11 \
	MOVQ DI, DX \
	MOVQ SI, BX \
row: \
	XORQ CX, CX \
c16: \
	LEAQ 64(CX), R13 \
	CMPQ R13, R10 \
	JGT c8 \
	VMOVAPS Y15, Y0 \
	VMOVAPS Y15, Y1 \
	MOVQ R8, AX \
t16: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Y2 \
	VMOVUPS 32(R12)(CX*1), Y3 \
	OP(Y2, Y0) \
	OP(Y3, Y1) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t16 \
	FIN16(Y0, Y1) \
	VMOVUPS Y0, (DX)(CX*1) \
	VMOVUPS Y1, 32(DX)(CX*1) \
	ADDQ $64, CX \
	JMP c16 \
c8: \
	LEAQ 32(CX), R13 \
	CMPQ R13, R10 \
	JGT ctail \
c8body: \
	VMOVAPS Y15, Y0 \
	MOVQ R8, AX \
t8: \
	MOVQ (AX), R12 \
	LEAQ (BX)(R12*4), R12 \
	VMOVUPS (R12)(CX*1), Y2 \
	OP(Y2, Y0) \
	ADDQ $8, AX \
	CMPQ AX, R9 \
	JNE t8 \
	FIN8(Y0) \
	VMOVUPS Y0, (DX)(CX*1) \
	ADDQ $32, CX \
	JMP c8 \
ctail: \
	CMPQ CX, R10 \
	JEQ rowdone \
	LEAQ -32(R10), CX \
	JMP c8body \
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
#define NOFIN8(acc)
#define NOFIN16(acc0, acc1)

// R12 = the tab cell of the dst row at DX (tab and dst move together).
#define TABROW \
	MOVQ tab+96(FP), R12 \
	SUBQ dst+0(FP), R12 \
	ADDQ DX, R12

// acc *= tab at the columns at CX.
#define MULFIN8(acc) \
	TABROW \
	VMULPS (R12)(CX*1), acc, acc

#define MULFIN16(acc0, acc1) \
	TABROW \
	VMULPS (R12)(CX*1), acc0, acc0 \
	VMULPS 32(R12)(CX*1), acc1, acc1

// func poolRowsMaxAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)
TEXT ·poolRowsMaxAVX(SB), NOSPLIT, $0-92
	POOLROWS(MAXOP, NOFIN8, NOFIN16)

// func poolRowsSumAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)
TEXT ·poolRowsSumAVX(SB), NOSPLIT, $0-92
	POOLROWS(SUMOP, NOFIN8, NOFIN16)

// func poolRowsAvgAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32, tab *float32)
//
// poolRowsSumAVX with each sum multiplied by the tab cell at its dst
// cell's place (tab laid out as dst).
TEXT ·poolRowsAvgAVX(SB), NOSPLIT, $0-104
	POOLROWS(SUMOP, MULFIN8, MULFIN16)

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
