//go:build amd64 && !purego

package cpu

// attnDecodeFast is whether this CPU runs the decoding kernels
// (AVX-512). Elsewhere few-row attention keeps the SGEMM path.
var attnDecodeFast = hasAVX512

//go:noescape
func attnDot4AVX512(q *float32, qld int, k *float32, kld int, nk, d16 int, scale float32, s *float32, sld int)

//go:noescape
func attnDot1AVX512(q *float32, k *float32, kld int, nk, d16 int, scale float32, s *float32)

//go:noescape
func attnPV4AVX512(p *float32, pld int, v *float32, vld int, nk int, y *float32, yld int, acc int)

//go:noescape
func attnPV1AVX512(p *float32, v *float32, vld int, nk int, y *float32, acc int)

//go:noescape
func attnPV4x16AVX512(p *float32, pld int, v *float32, vld int, nk int, y *float32, yld int, acc int)

//go:noescape
func attnPV1x16AVX512(p *float32, v *float32, vld int, nk int, y *float32, acc int)

// attnDot4 sets s[r*sld+t] = scale·(q[r*qld:]·k[t*kld:]) for rows r < 4
// and keys t < nk (a multiple of 4), each of d16·16 terms.
func attnDot4(q []float32, qld int, k []float32, kld, nk, d16 int, scale float32, s []float32, sld int) {
	if !hasAVX512 {
		attnDot4Go(q, qld, k, kld, nk, d16, scale, s, sld)
		return
	}
	_, _, _ = q[3*qld+16*d16-1], k[(nk-1)*kld+16*d16-1], s[3*sld+nk-1]
	attnDot4AVX512(&q[0], qld, &k[0], kld, nk, d16, scale, &s[0], sld)
}

// attnDot1 sets s[t] = scale·(q·k[t*kld:]) for keys t < nk (a multiple
// of 16), each of d16·16 terms.
func attnDot1(q, k []float32, kld, nk, d16 int, scale float32, s []float32) {
	if !hasAVX512 {
		attnDot1Go(q, k, kld, nk, d16, scale, s)
		return
	}
	_, _, _ = q[16*d16-1], k[(nk-1)*kld+16*d16-1], s[nk-1]
	attnDot1AVX512(&q[0], &k[0], kld, nk, d16, scale, &s[0])
}

// attnPV4 sets or, when acc, adds y[r*yld+c] = Σ_t p[r*pld+t]·v[t*vld+c]
// for rows r < 4, columns c < cols (64 or 16) and keys t < nk.
func attnPV4(p []float32, pld int, v []float32, vld, nk, cols int, y []float32, yld int, acc bool) {
	if !hasAVX512 || nk == 0 {
		attnPV4Go(p, pld, v, vld, nk, cols, y, yld, acc)
		return
	}
	_, _, _ = p[3*pld+nk-1], v[(nk-1)*vld+cols-1], y[3*yld+cols-1]
	if cols == 64 {
		attnPV4AVX512(&p[0], pld, &v[0], vld, nk, &y[0], yld, attnFlag(acc))
	} else {
		attnPV4x16AVX512(&p[0], pld, &v[0], vld, nk, &y[0], yld, attnFlag(acc))
	}
}

// attnPV1 sets or, when acc, adds y[c] = Σ_t p[t]·v[t*vld+c] for
// columns c < cols (64 or 16) and keys t < nk.
func attnPV1(p, v []float32, vld, nk, cols int, y []float32, acc bool) {
	if !hasAVX512 || nk == 0 {
		attnPV1Go(p, v, vld, nk, cols, y, acc)
		return
	}
	_, _, _ = p[nk-1], v[(nk-1)*vld+cols-1], y[cols-1]
	if cols == 64 {
		attnPV1AVX512(&p[0], &v[0], vld, nk, &y[0], attnFlag(acc))
	} else {
		attnPV1x16AVX512(&p[0], &v[0], vld, nk, &y[0], attnFlag(acc))
	}
}

// attnFlag is 1 for true and 0 for false, an assembly flag.
func attnFlag(b bool) int {
	if b {
		return 1
	}
	return 0
}
