//go:build amd64 && !purego

#include "textflag.h"

// func dwRowAVX(dst *float32, n int, base *float32, offs *int, w *float32, taps int, bias float32)
//
// dst[i] = bias + w[0]*base[offs[0]+i] + ... + w[taps-1]*base[offs[taps-1]+i]
// for i < n, summed in that order with one rounding per FMA.
TEXT ·dwRowAVX(SB), NOSPLIT, $0-52
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ base+16(FP), SI
	MOVQ offs+24(FP), R8
	MOVQ w+32(FP), R9
	MOVQ taps+40(FP), R10
	VBROADCASTSS bias+48(FP), Y15
	XORQ AX, AX

	// Eight accumulators a block: each tap's FMAs wait on the previous
	// tap's, so eight chains keep both FMA units busy.
loop64:
	LEAQ 64(AX), DX
	CMPQ DX, CX
	JGT loop32
	VMOVUPS Y15, Y0
	VMOVUPS Y15, Y1
	VMOVUPS Y15, Y3
	VMOVUPS Y15, Y4
	VMOVUPS Y15, Y5
	VMOVUPS Y15, Y6
	VMOVUPS Y15, Y7
	VMOVUPS Y15, Y8
	XORQ BX, BX

tap64:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VBROADCASTSS (R9)(BX*4), Y2
	VFMADD231PS (SI)(DX*4), Y2, Y0
	VFMADD231PS 32(SI)(DX*4), Y2, Y1
	VFMADD231PS 64(SI)(DX*4), Y2, Y3
	VFMADD231PS 96(SI)(DX*4), Y2, Y4
	VFMADD231PS 128(SI)(DX*4), Y2, Y5
	VFMADD231PS 160(SI)(DX*4), Y2, Y6
	VFMADD231PS 192(SI)(DX*4), Y2, Y7
	VFMADD231PS 224(SI)(DX*4), Y2, Y8
	INCQ BX
	CMPQ BX, R10
	JLT tap64
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	VMOVUPS Y3, 64(DI)(AX*4)
	VMOVUPS Y4, 96(DI)(AX*4)
	VMOVUPS Y5, 128(DI)(AX*4)
	VMOVUPS Y6, 160(DI)(AX*4)
	VMOVUPS Y7, 192(DI)(AX*4)
	VMOVUPS Y8, 224(DI)(AX*4)
	ADDQ $64, AX
	JMP loop64

loop32:
	LEAQ 32(AX), DX
	CMPQ DX, CX
	JGT loop16
	VMOVUPS Y15, Y0
	VMOVUPS Y15, Y1
	VMOVUPS Y15, Y3
	VMOVUPS Y15, Y4
	XORQ BX, BX

tap32:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VBROADCASTSS (R9)(BX*4), Y2
	VFMADD231PS (SI)(DX*4), Y2, Y0
	VFMADD231PS 32(SI)(DX*4), Y2, Y1
	VFMADD231PS 64(SI)(DX*4), Y2, Y3
	VFMADD231PS 96(SI)(DX*4), Y2, Y4
	INCQ BX
	CMPQ BX, R10
	JLT tap32
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	VMOVUPS Y3, 64(DI)(AX*4)
	VMOVUPS Y4, 96(DI)(AX*4)
	ADDQ $32, AX
	JMP loop32

loop16:
	LEAQ 16(AX), DX
	CMPQ DX, CX
	JGT loop8
	VMOVUPS Y15, Y0
	VMOVUPS Y15, Y1
	XORQ BX, BX

tap16:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VBROADCASTSS (R9)(BX*4), Y2
	VFMADD231PS (SI)(DX*4), Y2, Y0
	VFMADD231PS 32(SI)(DX*4), Y2, Y1
	INCQ BX
	CMPQ BX, R10
	JLT tap16
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	ADDQ $16, AX
	JMP loop16

loop8:
	LEAQ 8(AX), DX
	CMPQ DX, CX
	JGT tail
	VMOVUPS Y15, Y0
	XORQ BX, BX

tap8:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VBROADCASTSS (R9)(BX*4), Y2
	VFMADD231PS (SI)(DX*4), Y2, Y0
	INCQ BX
	CMPQ BX, R10
	JLT tap8
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ $8, AX

tail:
	CMPQ AX, CX
	JGE done
	VMOVSS bias+48(FP), X0
	XORQ BX, BX

tap1:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VMOVSS (R9)(BX*4), X2
	VFMADD231SS (SI)(DX*4), X2, X0
	INCQ BX
	CMPQ BX, R10
	JLT tap1
	VMOVSS X0, (DI)(AX*4)
	INCQ AX
	JMP tail

done:
	VZEROUPPER
	RET

// func gather16AVX(dst, base *float32, offs *int, n int, add int)
//
// dst[16t : 16t+16] = base[offs[t]+add : offs[t]+add+16] for t < n.
TEXT ·gather16AVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ offs+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ add+32(FP), R9
	TESTQ CX, CX
	JEQ g16_done

g16_loop:
	MOVQ (R8), DX
	ADDQ R9, DX
	VMOVUPS (SI)(DX*4), Y0
	VMOVUPS 32(SI)(DX*4), Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ $8, R8
	ADDQ $64, DI
	DECQ CX
	JNE g16_loop

g16_done:
	VZEROUPPER
	RET

// func copyRows16AVX(dst, src *float32, ld int, rows int)
//
// dst[16r : 16r+16] = src[r*ld : r*ld+16] for r < rows.
TEXT ·copyRows16AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), DX
	MOVQ rows+24(FP), CX
	SHLQ $2, DX
	TESTQ CX, CX
	JEQ cr_done

cr_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ DX, SI
	ADDQ $64, DI
	DECQ CX
	JNE cr_loop

cr_done:
	VZEROUPPER
	RET

// func copyStridedAVX(dst *float32, dstride int, src *float32, sstride int, n, rows int)
//
// dst[r*dstride+i] = src[r*sstride+i] for i < n, r < rows.
TEXT ·copyStridedAVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ dstride+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ sstride+24(FP), R10
	SHLQ $2, R10
	MOVQ n+32(FP), DX
	MOVQ rows+40(FP), R9
	TESTQ R9, R9
	JEQ cs_done

cs_row:
	XORQ AX, AX
	LEAQ -8(DX), CX

cs_vec:
	CMPQ AX, CX
	JGT cs_one
	VMOVUPS (SI)(AX*4), Y0
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ $8, AX
	JMP cs_vec

cs_one:
	CMPQ AX, DX
	JGE cs_next
	MOVL (SI)(AX*4), BX
	MOVL BX, (DI)(AX*4)
	INCQ AX
	JMP cs_one

cs_next:
	ADDQ R8, DI
	ADDQ R10, SI
	DECQ R9
	JNE cs_row

cs_done:
	VZEROUPPER
	RET

// func deinterleaveRowsAVX(even, odd *float32, dstride int, src *float32, sstride int, n, rows int)
//
// For r < rows: even[r*dstride+j] = src[r*sstride+2j] for 2j < n and
// odd[r*dstride+j] = src[r*sstride+2j+1] for 2j+1 < n.
TEXT ·deinterleaveRowsAVX(SB), NOSPLIT, $0-56
	MOVQ even+0(FP), DI
	MOVQ odd+8(FP), R11
	MOVQ dstride+16(FP), R8
	SHLQ $2, R8
	MOVQ src+24(FP), SI
	MOVQ sstride+32(FP), R10
	SHLQ $2, R10
	MOVQ n+40(FP), DX
	MOVQ rows+48(FP), R9
	TESTQ R9, R9
	JEQ di_done

di_row:
	// AX: source index; CX: the last start of a whole 16.
	XORQ AX, AX
	LEAQ -16(DX), CX

di_vec:
	CMPQ AX, CX
	JGT di_pair
	VMOVUPS (SI)(AX*4), Y0
	VMOVUPS 32(SI)(AX*4), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VSHUFPS $0xDD, Y1, Y0, Y3
	VPERMPD $0xD8, Y2, Y2
	VPERMPD $0xD8, Y3, Y3
	MOVQ AX, BX
	SHRQ $1, BX
	VMOVUPS Y2, (DI)(BX*4)
	VMOVUPS Y3, (R11)(BX*4)
	ADDQ $16, AX
	JMP di_vec

di_pair:
	LEAQ 1(AX), CX
	CMPQ CX, DX
	JGE di_last
	MOVQ AX, BX
	SHRQ $1, BX
	MOVL (SI)(AX*4), R12
	MOVL R12, (DI)(BX*4)
	MOVL 4(SI)(AX*4), R12
	MOVL R12, (R11)(BX*4)
	ADDQ $2, AX
	JMP di_pair

di_last:
	CMPQ AX, DX
	JGE di_next
	MOVQ AX, BX
	SHRQ $1, BX
	MOVL (SI)(AX*4), R12
	MOVL R12, (DI)(BX*4)

di_next:
	ADDQ R8, DI
	ADDQ R8, R11
	ADDQ R10, SI
	DECQ R9
	JNE di_row

di_done:
	VZEROUPPER
	RET

// func dwRowAVX512(dst *float32, n int, base *float32, offs *int, w *float32, taps int, bias float32)
//
// dwRowAVX in 512-bit vectors for n a multiple of 16: the same FMAs in
// the same order for each element, so the same bits.
TEXT ·dwRowAVX512(SB), NOSPLIT, $0-52
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ base+16(FP), SI
	MOVQ offs+24(FP), R8
	MOVQ w+32(FP), R9
	MOVQ taps+40(FP), R10
	VBROADCASTSS bias+48(FP), Z15
	XORQ AX, AX

z128:
	LEAQ 128(AX), DX
	CMPQ DX, CX
	JGT z16
	VMOVUPS Z15, Z0
	VMOVUPS Z15, Z1
	VMOVUPS Z15, Z3
	VMOVUPS Z15, Z4
	VMOVUPS Z15, Z5
	VMOVUPS Z15, Z6
	VMOVUPS Z15, Z7
	VMOVUPS Z15, Z8
	XORQ BX, BX

ztap128:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VBROADCASTSS (R9)(BX*4), Z2
	VFMADD231PS (SI)(DX*4), Z2, Z0
	VFMADD231PS 64(SI)(DX*4), Z2, Z1
	VFMADD231PS 128(SI)(DX*4), Z2, Z3
	VFMADD231PS 192(SI)(DX*4), Z2, Z4
	VFMADD231PS 256(SI)(DX*4), Z2, Z5
	VFMADD231PS 320(SI)(DX*4), Z2, Z6
	VFMADD231PS 384(SI)(DX*4), Z2, Z7
	VFMADD231PS 448(SI)(DX*4), Z2, Z8
	INCQ BX
	CMPQ BX, R10
	JLT ztap128
	VMOVUPS Z0, (DI)(AX*4)
	VMOVUPS Z1, 64(DI)(AX*4)
	VMOVUPS Z3, 128(DI)(AX*4)
	VMOVUPS Z4, 192(DI)(AX*4)
	VMOVUPS Z5, 256(DI)(AX*4)
	VMOVUPS Z6, 320(DI)(AX*4)
	VMOVUPS Z7, 384(DI)(AX*4)
	VMOVUPS Z8, 448(DI)(AX*4)
	ADDQ $128, AX
	JMP z128

z16:
	LEAQ 16(AX), DX
	CMPQ DX, CX
	JGT zdone
	VMOVUPS Z15, Z0
	XORQ BX, BX

ztap16:
	MOVQ (R8)(BX*8), DX
	ADDQ AX, DX
	VBROADCASTSS (R9)(BX*4), Z2
	VFMADD231PS (SI)(DX*4), Z2, Z0
	INCQ BX
	CMPQ BX, R10
	JLT ztap16
	VMOVUPS Z0, (DI)(AX*4)
	ADDQ $16, AX
	JMP z16

zdone:
	VZEROUPPER
	RET

// DW3_LOAD loads the nine vectors of an input row from row+AX·4 into
// Z8-Z16: the 128 floats eight outputs' taps start at, and the 16 after.
#define DW3_LOAD(row) \
	VMOVUPS 0(row)(AX*4), Z8; \
	VMOVUPS 64(row)(AX*4), Z9; \
	VMOVUPS 128(row)(AX*4), Z10; \
	VMOVUPS 192(row)(AX*4), Z11; \
	VMOVUPS 256(row)(AX*4), Z12; \
	VMOVUPS 320(row)(AX*4), Z13; \
	VMOVUPS 384(row)(AX*4), Z14; \
	VMOVUPS 448(row)(AX*4), Z15; \
	VMOVUPS 512(row)(AX*4), Z16

// DW3_TAP0 adds w times the loaded vectors to the accumulators Z0-Z7.
#define DW3_TAP0(w) \
	VFMADD231PS Z8, w, Z0; \
	VFMADD231PS Z9, w, Z1; \
	VFMADD231PS Z10, w, Z2; \
	VFMADD231PS Z11, w, Z3; \
	VFMADD231PS Z12, w, Z4; \
	VFMADD231PS Z13, w, Z5; \
	VFMADD231PS Z14, w, Z6; \
	VFMADD231PS Z15, w, Z7

// DW3_TAPK adds w times the loaded row shifted by k floats (k an
// immediate, $1 or $2) to the accumulators Z0-Z7.
#define DW3_TAPK(k, w) \
	VALIGND k, Z8, Z9, Z27; \
	VFMADD231PS Z27, w, Z0; \
	VALIGND k, Z9, Z10, Z28; \
	VFMADD231PS Z28, w, Z1; \
	VALIGND k, Z10, Z11, Z27; \
	VFMADD231PS Z27, w, Z2; \
	VALIGND k, Z11, Z12, Z28; \
	VFMADD231PS Z28, w, Z3; \
	VALIGND k, Z12, Z13, Z27; \
	VFMADD231PS Z27, w, Z4; \
	VALIGND k, Z13, Z14, Z28; \
	VFMADD231PS Z28, w, Z5; \
	VALIGND k, Z14, Z15, Z27; \
	VFMADD231PS Z27, w, Z6; \
	VALIGND k, Z15, Z16, Z28; \
	VFMADD231PS Z28, w, Z7

// DW3_ROW16 adds one input row's three taps (weights w0-w2) to Z0 for 16
// outputs: Z8 and Z9 hold the row's 32 floats from the first output.
#define DW3_ROW16(row, w0, w1, w2) \
	VMOVUPS (row)(AX*4), Z8; \
	VMOVUPS 64(row)(AX*4), Z9; \
	VFMADD231PS Z8, w0, Z0; \
	VALIGND $1, Z8, Z9, Z27; \
	VFMADD231PS Z27, w1, Z0; \
	VALIGND $2, Z8, Z9, Z27; \
	VFMADD231PS Z27, w2, Z0

// func dw3x3AVX512(dst *float32, n int, base *float32, pitch int, w *float32, bias float32)
//
// dwRowAVX512 for a 3×3 kernel of stride and dilation 1, whose taps are
// base offsets kh·pitch + kw in that order, n a multiple of 16: the same
// FMAs in the same order, the same bits. It loads each row of the input
// once and shifts it by one and two floats (VALIGND) for the other two
// taps, where dwRowAVX512 loads every tap's vectors, most of them across
// two cache lines. It reads up to 14 floats past the last one a tap
// reads: base must hold n + 2·pitch + 16.
TEXT ·dw3x3AVX512(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ base+16(FP), SI
	MOVQ pitch+24(FP), R8
	SHLQ $2, R8
	MOVQ w+32(FP), R9
	VBROADCASTSS bias+40(FP), Z26
	VBROADCASTSS 0(R9), Z17
	VBROADCASTSS 4(R9), Z18
	VBROADCASTSS 8(R9), Z19
	VBROADCASTSS 12(R9), Z20
	VBROADCASTSS 16(R9), Z21
	VBROADCASTSS 20(R9), Z22
	VBROADCASTSS 24(R9), Z23
	VBROADCASTSS 28(R9), Z24
	VBROADCASTSS 32(R9), Z25
	XORQ AX, AX

dw3_z128:
	LEAQ 128(AX), DX
	CMPQ DX, CX
	JGT dw3_z16
	VMOVAPS Z26, Z0
	VMOVAPS Z26, Z1
	VMOVAPS Z26, Z2
	VMOVAPS Z26, Z3
	VMOVAPS Z26, Z4
	VMOVAPS Z26, Z5
	VMOVAPS Z26, Z6
	VMOVAPS Z26, Z7
	MOVQ SI, BX
	DW3_LOAD(BX)
	DW3_TAP0(Z17)
	DW3_TAPK($1, Z18)
	DW3_TAPK($2, Z19)
	ADDQ R8, BX
	DW3_LOAD(BX)
	DW3_TAP0(Z20)
	DW3_TAPK($1, Z21)
	DW3_TAPK($2, Z22)
	ADDQ R8, BX
	DW3_LOAD(BX)
	DW3_TAP0(Z23)
	DW3_TAPK($1, Z24)
	DW3_TAPK($2, Z25)
	VMOVUPS Z0, 0(DI)(AX*4)
	VMOVUPS Z1, 64(DI)(AX*4)
	VMOVUPS Z2, 128(DI)(AX*4)
	VMOVUPS Z3, 192(DI)(AX*4)
	VMOVUPS Z4, 256(DI)(AX*4)
	VMOVUPS Z5, 320(DI)(AX*4)
	VMOVUPS Z6, 384(DI)(AX*4)
	VMOVUPS Z7, 448(DI)(AX*4)
	ADDQ $128, AX
	JMP dw3_z128

dw3_z16:
	LEAQ 16(AX), DX
	CMPQ DX, CX
	JGT dw3_done
	VMOVAPS Z26, Z0
	MOVQ SI, BX
	DW3_ROW16(BX, Z17, Z18, Z19)
	ADDQ R8, BX
	DW3_ROW16(BX, Z20, Z21, Z22)
	ADDQ R8, BX
	DW3_ROW16(BX, Z23, Z24, Z25)
	VMOVUPS Z0, (DI)(AX*4)
	ADDQ $16, AX
	JMP dw3_z16

dw3_done:
	VZEROUPPER
	RET
