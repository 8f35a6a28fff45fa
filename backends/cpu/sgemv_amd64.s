//go:build amd64 && !purego

#include "textflag.h"

// func sgemvR1B4(kc int, a, b *float32, bstride int, dst *float32)
//
// Four sgemmR1Q1 tiles at once, one per block of kc steps: block t reads
// a[t*kc:][:kc] and the panel at b[t*bstride:], and stores its 16 sums,
// each from zero in increasing p with one FMA a step (sgemmR1Q1's), at
// dst[16t:]. Eight independent accumulators instead of two keep the FMA
// units busy where one tile would wait on each FMA's latency.
TEXT ·sgemvR1B4(SB), NOSPLIT, $0-40
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ bstride+24(FP), R11
	SHLQ $2, R11              // block stride of b, bytes
	LEAQ (R11)(R11*2), R12    // 3 blocks of b
	MOVQ CX, R8
	SHLQ $2, R8               // block stride of a, bytes
	LEAQ (R8)(R8*2), R9       // 3 blocks of a
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JEQ gv_store

gv_loop:
	VBROADCASTSS (SI), Y8
	VBROADCASTSS (SI)(R8*1), Y9
	VBROADCASTSS (SI)(R8*2), Y10
	VBROADCASTSS (SI)(R9*1), Y11
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VFMADD231PS Y12, Y8, Y0
	VFMADD231PS Y13, Y8, Y1
	VMOVUPS (DI)(R11*1), Y12
	VMOVUPS 32(DI)(R11*1), Y13
	VFMADD231PS Y12, Y9, Y2
	VFMADD231PS Y13, Y9, Y3
	VMOVUPS (DI)(R11*2), Y12
	VMOVUPS 32(DI)(R11*2), Y13
	VFMADD231PS Y12, Y10, Y4
	VFMADD231PS Y13, Y10, Y5
	VMOVUPS (DI)(R12*1), Y12
	VMOVUPS 32(DI)(R12*1), Y13
	VFMADD231PS Y12, Y11, Y6
	VFMADD231PS Y13, Y11, Y7
	ADDQ $4, SI
	ADDQ $64, DI
	DECQ CX
	JNE gv_loop

gv_store:
	MOVQ dst+32(FP), DX
	VMOVUPS Y0, 0(DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	VMOVUPS Y4, 128(DX)
	VMOVUPS Y5, 160(DX)
	VMOVUPS Y6, 192(DX)
	VMOVUPS Y7, 224(DX)
	VZEROUPPER
	RET
