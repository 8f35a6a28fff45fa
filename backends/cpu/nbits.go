package cpu

// The few-row MatMulNBits product (op_contrib_matmulnbits.go) runs on
// nbitsCols: for each column, each block's 4-bit codes against the
// block's values of A, times the block's scale, less the zero point
// times A's block sum. The assembly reads A deinterleaved by
// deinterleave32, so that a chunk of 16 bytes, widened, meets its low
// nibbles' values in one vector and its high nibbles' in the next.

// deinterleave32 writes a's chunks of 32 values (len(a) a multiple of
// 32) to dst with each chunk's even-indexed values first, then its odd.
func deinterleave32(dst, a []float32) {
	dst = dst[:len(a)]
	for c := 0; c+32 <= len(a); c += 32 {
		s, d := a[c:c+32], dst[c:c+32]
		for l := range 16 {
			d[l], d[16+l] = s[2*l], s[2*l+1]
		}
	}
}

// nbitsColsGo sets, for columns j < ncols,
// y[j] = Σ_b sc[j*kb+b]·(Σ_i code(j, b, i)·a[b*bs+i] − zp[j*zstride+b]·asum[b])
// over kb blocks of bs values, column j's codes at q[j*qstride:], block
// b's at b*bs/2, low nibble first. zstride 0 shares one row of zero
// points between the columns.
func nbitsColsGo(y []float32, q []uint8, qstride int, a, sc, zp []float32, zstride int, asum []float32, kb, bs, ncols int) {
	blob := bs / 2
	for j := range ncols {
		var acc, corr float32
		for b := range kb {
			s := sc[j*kb+b]
			d := nibbleDot(q[j*qstride+b*blob:][:blob], a[b*bs:(b+1)*bs])
			acc += s * d
			corr += s * zp[j*zstride+b] * asum[b]
		}
		y[j] = acc - corr
	}
}

// nibblesColGo dequantizes one column of kb blocks of bs codes (q, low
// nibble first) into dst[:kb*bs]: (code − zp[b])·sc[b].
func nibblesColGo(dst []float32, q []uint8, kb, bs int, sc, zp []float32) {
	for b := range kb {
		nibbles4(dst[b*bs:(b+1)*bs], q[b*bs/2:(b+1)*bs/2], sc[b], zp[b])
	}
}
