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
