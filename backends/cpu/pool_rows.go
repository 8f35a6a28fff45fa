package cpu

// The separable pooling's row loops, in plain Go: the pure-Go build runs
// them, and the assembly's tests take them as the reference. Strides and
// offsets count elements.

// poolRowsMaxGo sets, for planes planes (dps, sps apart in dst and src)
// and rows rows each (ds, ss apart), dst[j] to the running maximum, from
// lowest, of src[off+j] over the offsets offs in order, a tap replacing
// it only when greater (so NaNs are skipped), for j < width.
func poolRowsMaxGo(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, lowest float32) {
	for p := range planes {
		for r := range rows {
			d := dst[p*dps+r*ds:][:width]
			s := src[p*sps+r*ss:]
			for j := range d {
				m := lowest
				for _, o := range offs {
					if v := s[o+j]; v > m {
						m = v
					}
				}
				d[j] = m
			}
		}
	}
}

// poolRowsSumGo is poolRowsMaxGo with a float32 sum, from zero, of the
// taps in order.
func poolRowsSumGo(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int) {
	for p := range planes {
		for r := range rows {
			d := dst[p*dps+r*ds:][:width]
			s := src[p*sps+r*ss:]
			for j := range d {
				var a float32
				for _, o := range offs {
					a += s[o+j]
				}
				d[j] = a
			}
		}
	}
}

// poolRowsAvgGo is poolRowsSumGo with each sum multiplied by the tab
// cell at its dst cell's place in its plane (tab laid out as one plane
// of dst).
func poolRowsAvgGo(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, tab []float32) {
	for p := range planes {
		for r := range rows {
			d := dst[p*dps+r*ds:][:width]
			t := tab[r*ds:][:width]
			s := src[p*sps+r*ss:]
			for j := range d {
				var a float32
				for _, o := range offs {
					a += s[o+j]
				}
				d[j] = a * t[j]
			}
		}
	}
}

// poolDeintGo splits src's first s*h elements into s phases: dst[ph*h+i]
// = src[i*s+ph].
func poolDeintGo(dst, src []float32, s, h int) {
	src = src[:s*h]
	for ph := range s {
		d := dst[ph*h : (ph+1)*h]
		for i := range d {
			d[i] = src[i*s+ph]
		}
	}
}
