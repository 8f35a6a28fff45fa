package cpu

// The decoding kernels compute attention for a few query rows (one
// token's heads of a group) against a long key/value cache, reading K
// and V where they lie. The general path would pack K (a strided
// gather of every key) and V (a copy of the cache) for products of a
// few rows; here each key's dot products are summed across lanes and
// each value row is added into the outputs with one multiply-add per
// element. The Go functions below are the kernels' twins: they add in
// the kernels' order, so both give the same bits.

// attnDecodeFits reports whether the decoding kernels run heads of d
// key and dv value elements: both multiples of 16, on a CPU with the
// kernels.
func attnDecodeFits(d, dv int) bool {
	return attnDecodeFast && d > 0 && d%16 == 0 && dv > 0 && dv%16 == 0
}

// attnScores sets s[r*sld+t] = scale·(q[r*qld:]·k[t*kld:]) for rows
// r < m and keys t < nk, each a dot product of d terms (d a multiple of
// 16).
func attnScores(q []float32, qld, m int, k []float32, kld, nk, d int, scale float32, s []float32, sld int) {
	if nk == 0 {
		return
	}
	d16 := d / 16
	r := 0
	for ; r+4 <= m; r += 4 {
		n4 := nk &^ 3
		if n4 > 0 {
			attnDot4(q[r*qld:], qld, k, kld, n4, d16, scale, s[r*sld:], sld)
		}
		for i := r; i < r+4; i++ {
			for t := n4; t < nk; t++ {
				s[i*sld+t] = scale * attnDotGo(q[i*qld:], k[t*kld:], d)
			}
		}
	}
	for ; r < m; r++ {
		n16 := nk &^ 15
		if n16 > 0 {
			attnDot1(q[r*qld:], k, kld, n16, d16, scale, s[r*sld:])
		}
		for t := n16; t < nk; t++ {
			s[r*sld+t] = scale * attnDotGo(q[r*qld:], k[t*kld:], d)
		}
	}
}

// attnPV sets y[r*yld+c] to Σ_t p[r*pld+t]·v[t*vld+c], or adds it when
// acc, for rows r < m, columns c < dv (a multiple of 16) and keys
// t < nk: 64 columns a kernel call, then 16.
func attnPV(p []float32, pld, m int, v []float32, vld, nk, dv int, acc bool, y []float32, yld int) {
	r := 0
	for ; r+4 <= m; r += 4 {
		for c := 0; c < dv; {
			w := attnPVCols(dv - c)
			attnPV4(p[r*pld:], pld, v[c:], vld, nk, w, y[r*yld+c:], yld, acc)
			c += w
		}
	}
	for ; r < m; r++ {
		for c := 0; c < dv; {
			w := attnPVCols(dv - c)
			attnPV1(p[r*pld:], v[c:], vld, nk, w, y[r*yld+c:], acc)
			c += w
		}
	}
}

// attnPVCols is the columns of the next value kernel call when left
// remain: 64, else 16.
func attnPVCols(left int) int {
	if left >= 64 {
		return 64
	}
	return 16
}

// attnDotGo is one dot product of attnDot4 and attnDot1: sixteen lanes
// each sum every sixteenth term by fused multiply-adds, and the lanes
// are added as attnSum16 adds them.
func attnDotGo(q, k []float32, d int) float32 {
	var l [16]float32
	q, k = q[:d], k[:d]
	for c := 0; c+16 <= d; c += 16 {
		for i := range l {
			l[i] = fma32(q[c+i], k[c+i], l[i])
		}
	}
	return attnSum16(&l)
}

// attnSum16 adds sixteen lanes as the kernels' reduction does: within
// each group of four, lanes 0+2 and 1+3 and then those sums; then
// groups 0+1 and 2+3, and those sums.
func attnSum16(l *[16]float32) float32 {
	var b [4]float32
	for j := range b {
		b[j] = (l[4*j] + l[4*j+2]) + (l[4*j+1] + l[4*j+3])
	}
	return (b[0] + b[1]) + (b[2] + b[3])
}

// attnDot4Go is attnDot4AVX512: s[r*sld+t] = scale·(q[r*qld:]·k[t*kld:])
// for rows r < 4 and keys t < nk, each of d16·16 terms.
func attnDot4Go(q []float32, qld int, k []float32, kld, nk, d16 int, scale float32, s []float32, sld int) {
	for r := range 4 {
		for t := range nk {
			s[r*sld+t] = scale * attnDotGo(q[r*qld:], k[t*kld:], 16*d16)
		}
	}
}

// attnDot1Go is attnDot1AVX512: s[t] = scale·(q·k[t*kld:]) for keys
// t < nk, each of d16·16 terms.
func attnDot1Go(q, k []float32, kld, nk, d16 int, scale float32, s []float32) {
	for t := range nk {
		s[t] = scale * attnDotGo(q, k[t*kld:], 16*d16)
	}
}

// attnPV4Go is attnPV4AVX512 (cols 64) and attnPV4x16AVX512 (cols 16):
// y[r*yld+c] (+)= Σ_t p[r*pld+t]·v[t*vld+c] for rows r < 4 and columns
// c < cols, keys in order.
func attnPV4Go(p []float32, pld int, v []float32, vld, nk, cols int, y []float32, yld int, acc bool) {
	for r := range 4 {
		for c := range cols {
			var a float32
			for t := range nk {
				a = fma32(p[r*pld+t], v[t*vld+c], a)
			}
			if acc {
				a += y[r*yld+c]
			}
			y[r*yld+c] = a
		}
	}
}

// attnPV1Go is attnPV1AVX512 (cols 64) and attnPV1x16AVX512 (cols 16):
// y[c] (+)= Σ_t p[t]·v[t*vld+c] for columns c < cols, keys t ≡ j (mod 4)
// below nk&^3 summed in set j, the rest in set 0, and the sets added as
// (0+1)+(2+3).
func attnPV1Go(p, v []float32, vld, nk, cols int, y []float32, acc bool) {
	n4 := nk &^ 3
	for c := range cols {
		var a [4]float32
		for t := range n4 {
			a[t&3] = fma32(p[t], v[t*vld+c], a[t&3])
		}
		for t := n4; t < nk; t++ {
			a[0] = fma32(p[t], v[t*vld+c], a[0])
		}
		s := (a[0] + a[1]) + (a[2] + a[3])
		if acc {
			s += y[c]
		}
		y[c] = s
	}
}
