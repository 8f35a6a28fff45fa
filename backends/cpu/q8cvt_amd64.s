//go:build amd64 && !purego

#include "textflag.h"

// func q8ToF32AVX512(dst *float32, src *byte, n int, z int32, s float32, signed bool)
//
// dst[i] = float32(int32(src[i]) - z) · s for n a multiple of 16, src[i]
// read as int8 when signed, else as uint8: q8ToF32Go sixteen at a time.
TEXT ·q8ToF32AVX512(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL z+24(FP), AX
	VPBROADCASTD AX, Z2
	VBROADCASTSS s+28(FP), Z3
	MOVBLZX signed+32(FP), AX
	SHRQ $4, CX
	JEQ q8f_done
	TESTL AX, AX
	JNE q8f_sloop
q8f_uloop:
	VPMOVZXBD (SI), Z0
	VPSUBD Z2, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS Z3, Z0, Z0
	VMOVUPS Z0, (DI)
	ADDQ $16, SI
	ADDQ $64, DI
	DECQ CX
	JNE q8f_uloop
	JMP q8f_done
q8f_sloop:
	VPMOVSXBD (SI), Z0
	VPSUBD Z2, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS Z3, Z0, Z0
	VMOVUPS Z0, (DI)
	ADDQ $16, SI
	ADDQ $64, DI
	DECQ CX
	JNE q8f_sloop
q8f_done:
	VZEROUPPER
	RET

// func requantF32AVX512(dst *byte, acc *float32, n int, m, zp, lo, hi float32)
//
// requantAVX512 of float32 sums: dst[i] = the low byte of
// int32(clamp(roundeven(acc[i]·m) + zp, lo, hi)) for n a multiple of 16.
TEXT ·requantF32AVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Z1
	VBROADCASTSS zp+28(FP), Z2
	VBROADCASTSS lo+32(FP), Z3
	VBROADCASTSS hi+36(FP), Z4
	SHRQ $4, CX
	JEQ rqf_done
rqf_loop:
	VMULPS (SI), Z1, Z0
	VRNDSCALEPS $8, Z0, Z0
	VADDPS Z2, Z0, Z0
	VMAXPS Z3, Z0, Z0
	VMINPS Z4, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMOVDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNE rqf_loop
rqf_done:
	VZEROUPPER
	RET

// func maxPool2x2BAVX512(y, x *byte, ow, rows, iw int, inMask uint64, outMask uint32, signed bool)
//
// The 2×2 stride-2 max pooling of 8-bit values (int8 when signed, else
// uint8): rows output rows of ow bytes, row r at y + r·ow, from input
// rows x + 2r·iw and x + (2r+1)·iw (2·ow <= iw). Whole rows, 32 outputs
// a step; the last ow mod 32 outputs under the masks inMask (their 2·tail
// input bytes) and outMask (their tail output bytes).
TEXT ·maxPool2x2BAVX512(SB), NOSPLIT, $0-53
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ow+16(FP), BX
	MOVQ rows+24(FP), DX
	MOVQ iw+32(FP), R10
	MOVQ inMask+40(FP), AX
	KMOVQ AX, K1
	MOVL outMask+48(FP), AX
	KMOVD AX, K2
	MOVBLZX signed+52(FP), AX
	MOVQ BX, R11
	SHRQ $5, R11
	MOVQ BX, R13
	ANDQ $31, R13
	TESTQ DX, DX
	JEQ mpb_done
	TESTL AX, AX
	JNE mpb_srow
mpb_urow:
	MOVQ SI, R8
	LEAQ (SI)(R10*1), R9
	MOVQ DI, R12
	MOVQ R11, CX
	TESTQ CX, CX
	JEQ mpb_utail
mpb_uchunk:
	VMOVDQU64 (R8), Z0
	VPMAXUB (R9), Z0, Z0
	VPSRLW $8, Z0, Z1
	VPMAXUB Z1, Z0, Z0
	VPMOVWB Z0, (R12)
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $32, R12
	DECQ CX
	JNE mpb_uchunk
mpb_utail:
	TESTQ R13, R13
	JEQ mpb_unext
	VMOVDQU8.Z (R8), K1, Z0
	VMOVDQU8.Z (R9), K1, Z1
	VPMAXUB Z1, Z0, Z0
	VPSRLW $8, Z0, Z1
	VPMAXUB Z1, Z0, Z0
	VPMOVWB Z0, K2, (R12)
mpb_unext:
	LEAQ (SI)(R10*2), SI
	ADDQ BX, DI
	DECQ DX
	JNE mpb_urow
	JMP mpb_done
mpb_srow:
	MOVQ SI, R8
	LEAQ (SI)(R10*1), R9
	MOVQ DI, R12
	MOVQ R11, CX
	TESTQ CX, CX
	JEQ mpb_stail
mpb_schunk:
	VMOVDQU64 (R8), Z0
	VPMAXSB (R9), Z0, Z0
	VPSRLW $8, Z0, Z1
	VPMAXSB Z1, Z0, Z0
	VPMOVWB Z0, (R12)
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $32, R12
	DECQ CX
	JNE mpb_schunk
mpb_stail:
	TESTQ R13, R13
	JEQ mpb_snext
	VMOVDQU8.Z (R8), K1, Z0
	VMOVDQU8.Z (R9), K1, Z1
	VPMAXSB Z1, Z0, Z0
	VPSRLW $8, Z0, Z1
	VPMAXSB Z1, Z0, Z0
	VPMOVWB Z0, K2, (R12)
mpb_snext:
	LEAQ (SI)(R10*2), SI
	ADDQ BX, DI
	DECQ DX
	JNE mpb_srow
mpb_done:
	VZEROUPPER
	RET

// func requantBiasAVX512(dst *byte, acc *int32, n int, bias int32, m, zp, lo, hi float32)
//
// requantAVX512 of acc[i] + bias (int32, wrapping): dst[i] = the low
// byte of int32(clamp(roundeven(float32(acc[i]+bias)·m) + zp, lo, hi))
// for n a multiple of 16.
TEXT ·requantBiasAVX512(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL bias+24(FP), AX
	VPBROADCASTD AX, Z5
	VBROADCASTSS m+28(FP), Z1
	VBROADCASTSS zp+32(FP), Z2
	VBROADCASTSS lo+36(FP), Z3
	VBROADCASTSS hi+40(FP), Z4
	SHRQ $4, CX
	JEQ rqb_done
rqb_loop:
	VPADDD (SI), Z5, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS Z1, Z0, Z0
	VRNDSCALEPS $8, Z0, Z0
	VADDPS Z2, Z0, Z0
	VMAXPS Z3, Z0, Z0
	VMINPS Z4, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMOVDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNE rqb_loop
rqb_done:
	VZEROUPPER
	RET

// func evenBytesAVX512(dst, src *byte, n int, tailIn uint64, tailOut uint32)
//
// dst[i] = src[2i] for i < n, 32 a step (VPMOVWB keeps each word's low
// byte), reading no byte past src[2n-2]: the loads are masked, the last
// n mod 32 outputs under tailIn (their 2·tail−1 input bytes) and tailOut.
TEXT ·evenBytesAVX512(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $0x7fffffffffffffff, AX
	KMOVQ AX, K1
	MOVQ tailIn+24(FP), AX
	KMOVQ AX, K2
	MOVL tailOut+32(FP), AX
	KMOVD AX, K3
eb_loop:
	CMPQ CX, $32
	JLT eb_tail
	VMOVDQU8.Z (SI), K1, Z0
	VPMOVWB Z0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP eb_loop
eb_tail:
	TESTQ CX, CX
	JEQ eb_done
	VMOVDQU8.Z (SI), K2, Z0
	VPMOVWB Z0, K3, (DI)
eb_done:
	VZEROUPPER
	RET

// func requantColsAVX512(dst *byte, acc, bias *int32, mult *float32, n int, zp, lo, hi float32)
//
// requantAVX512 of a row with a bias and a multiplier a column: dst[j] =
// the low byte of int32(clamp(roundeven(float32(acc[j]+bias[j])·mult[j])
// + zp, lo, hi)) for n a multiple of 16.
TEXT ·requantColsAVX512(SB), NOSPLIT, $0-52
	MOVQ dst+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ bias+16(FP), BX
	MOVQ mult+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSS zp+40(FP), Z2
	VBROADCASTSS lo+44(FP), Z3
	VBROADCASTSS hi+48(FP), Z4
	SHRQ $4, CX
	JEQ rqc_done
rqc_loop:
	VMOVDQU32 (SI), Z0
	VPADDD (BX), Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS (R8), Z0, Z0
	VRNDSCALEPS $8, Z0, Z0
	VADDPS Z2, Z0, Z0
	VMAXPS Z3, Z0, Z0
	VMINPS Z4, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMOVDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $64, BX
	ADDQ $64, R8
	ADDQ $16, DI
	DECQ CX
	JNE rqc_loop
rqc_done:
	VZEROUPPER
	RET

// func q8ToF32AVX2(dst *float32, src *byte, n int, z int32, s float32, signed bool)
//
// q8ToF32AVX512 eight values a step, for CPUs without AVX-512 (n a
// multiple of 8).
TEXT ·q8ToF32AVX2(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL z+24(FP), AX
	MOVL AX, X2
	VPBROADCASTD X2, Y2
	VBROADCASTSS s+28(FP), Y3
	MOVBLZX signed+32(FP), AX
	SHRQ $3, CX
	JEQ q8f2_done
	TESTL AX, AX
	JNE q8f2_sloop
q8f2_uloop:
	VPMOVZXBD (SI), Y0
	VPSUBD Y2, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS Y3, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $8, SI
	ADDQ $32, DI
	DECQ CX
	JNE q8f2_uloop
	JMP q8f2_done
q8f2_sloop:
	VPMOVSXBD (SI), Y0
	VPSUBD Y2, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS Y3, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $8, SI
	ADDQ $32, DI
	DECQ CX
	JNE q8f2_sloop
q8f2_done:
	VZEROUPPER
	RET

// func maxPool2x2BAVX2(y, x *byte, whole, ow, rows, iw int, signed bool)
//
// maxPool2x2BAVX512 for CPUs without AVX-512, 16 outputs a step: the
// first whole outputs (a multiple of 16) of each of rows output rows (ow
// apart) from input rows 2r and 2r+1 (iw apart). The vertical max of 32
// bytes of each row, then the max of each word's two bytes (VPSRLW moves
// the odd byte down), whose low bytes VPAND, VPACKUSWB and VPERMQ gather
// into 16. The caller does the rest of each row.
TEXT ·maxPool2x2BAVX2(SB), NOSPLIT, $0-49
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ whole+16(FP), R11
	MOVQ ow+24(FP), BX
	MOVQ rows+32(FP), DX
	MOVQ iw+40(FP), R10
	MOVBLZX signed+48(FP), AX
	SHRQ $4, R11
	JEQ mpb2_done
	TESTQ DX, DX
	JEQ mpb2_done
	MOVL $0x00ff00ff, CX
	MOVL CX, X7
	VPBROADCASTD X7, Y7
mpb2_row:
	MOVQ SI, R8
	LEAQ (SI)(R10*1), R9
	MOVQ DI, R12
	MOVQ R11, CX
	TESTL AX, AX
	JNE mpb2_schunk
mpb2_uchunk:
	VMOVDQU (R8), Y0
	VPMAXUB (R9), Y0, Y0
	VPSRLW $8, Y0, Y1
	VPMAXUB Y1, Y0, Y0
	VPAND Y7, Y0, Y0
	VPACKUSWB Y0, Y0, Y0
	VPERMQ $0x08, Y0, Y0
	VMOVDQU X0, (R12)
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $16, R12
	DECQ CX
	JNE mpb2_uchunk
	JMP mpb2_next
mpb2_schunk:
	VMOVDQU (R8), Y0
	VPMAXSB (R9), Y0, Y0
	VPSRLW $8, Y0, Y1
	VPMAXSB Y1, Y0, Y0
	VPAND Y7, Y0, Y0
	VPACKUSWB Y0, Y0, Y0
	VPERMQ $0x08, Y0, Y0
	VMOVDQU X0, (R12)
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $16, R12
	DECQ CX
	JNE mpb2_schunk
mpb2_next:
	LEAQ (SI)(R10*2), SI
	ADDQ BX, DI
	DECQ DX
	JNE mpb2_row
mpb2_done:
	VZEROUPPER
	RET
