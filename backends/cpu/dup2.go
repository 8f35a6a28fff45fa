package cpu

// dup2Go sets d[2j] = d[2j+1] = s[j] for j < len(s); d holds at least
// 2·len(s) elements. Nearest Resize upsamples rows by two with it.
func dup2Go[W word](d, s []W) {
	d = d[:2*len(s)]
	for j, v := range s {
		d[2*j] = v
		d[2*j+1] = v
	}
}

// dup2RowsManyGo doubles each of rows rows of w words of s into two rows
// of 2w words of d, one after another, row by row: dup2, then a copy.
func dup2RowsManyGo[W word](d, s []W, rows, w int) {
	for r := range rows {
		o := 4 * w * r
		dup2(d[o:o+2*w], s[r*w:(r+1)*w])
		copy(d[o+2*w:o+4*w], d[o:o+2*w])
	}
}

// interleave2AddGo sets d[2i] to a[i]+bias and d[2i+1] to b[i]+bias for
// every i of a (b as long): two rows of a stride-2 ConvTranspose's
// columns into one output row.
func interleave2AddGo(d, a, b []float32, bias float32) {
	d, b = d[:2*len(a)], b[:len(a)]
	for i, v := range a {
		d[2*i] = v + bias
		d[2*i+1] = b[i] + bias
	}
}
