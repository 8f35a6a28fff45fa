package cpu

// transposeStridedGo sets dst[j*ldd+i] = src[i*lds+j] for i < r and
// j < c, in blocks of 8×8 so that both sides stay in cache.
func transposeStridedGo(dst, src []float32, r, c, ldd, lds int) {
	const b = 8
	for i0 := 0; i0 < r; i0 += b {
		i1 := min(i0+b, r)
		for j0 := 0; j0 < c; j0 += b {
			j1 := min(j0+b, c)
			for i := i0; i < i1; i++ {
				row := src[i*lds+j0 : i*lds+j1]
				for j, v := range row {
					dst[(j0+j)*ldd+i] = v
				}
			}
		}
	}
}
