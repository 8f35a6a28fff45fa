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
