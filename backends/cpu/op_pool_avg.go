package cpu

// avgPoolRun is AveragePool without dilation, for windows of at most
// maxPoolRows input rows (depth × height), on planes [lo, hi). Like
// maxPoolRun it gathers each output row's window rows that lie inside
// the input and clamps columns, so no tap is tested against the edges;
// each output sums its taps in float64 in poolRun's order (rows in
// increasing depth and height, columns increasing within a row) and
// divides as poolRun does, so both give the same bits.
func avgPoolRun[E float32 | float64](k *poolKernel, x, y []E, lo, hi int) {
	g := &k.g
	inSz, outSz := size3(g.in), size3(g.out)
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	var rows [maxPoolRows][]E
	for p := lo; p < hi; p++ {
		xp := x[p*inSz : (p+1)*inSz]
		yp := y[p*outSz : (p+1)*outSz]
		for od := range OD {
			d0 := od*g.s[0] - g.pb[0]
			for oh := range OH {
				h0 := oh*g.s[1] - g.pb[1]
				nr := 0
				for id := max(d0, 0); id < min(d0+g.k[0], ID); id++ {
					for ih := max(h0, 0); ih < min(h0+g.k[1], IH); ih++ {
						rows[nr] = xp[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
						nr++
					}
				}
				padRows := -1 // count only the taps inside
				if k.includePad {
					padRows = padCount(d0, g.k[0], 1, ID+g.pe[0]) * padCount(h0, g.k[1], 1, IH+g.pe[1])
				}
				avgPoolRow(yp[(od*OH+oh)*OW:(od*OH+oh+1)*OW], rows[:nr], IW, g.s[2], g.k[2], g.pb[2], padRows, IW+g.pe[2])
			}
		}
	}
}

// avgPoolRow sets dst[ow] to the mean of the taps ow*s-pb+kw (kw < k,
// inside the rows of width w) of every row. With padRows >= 0 the
// divisor counts padding too: padRows window rows times the window's
// columns below limit.
func avgPoolRow[E float32 | float64](dst []E, rows [][]E, w, s, k, pb, padRows, limit int) {
	for ow := range dst {
		c0 := ow*s - pb
		a, b := max(c0, 0), min(c0+k, w)
		b = max(a, b)
		var sum float64
		for _, r := range rows {
			for _, v := range r[a:b] {
				sum += float64(v)
			}
		}
		cnt := len(rows) * (b - a)
		if padRows >= 0 {
			cnt = padRows * padCount(c0, k, 1, limit)
		}
		if cnt > 0 {
			dst[ow] = E(sum / float64(cnt))
		} else {
			dst[ow] = 0
		}
	}
}
