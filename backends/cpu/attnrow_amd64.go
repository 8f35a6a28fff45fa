//go:build amd64 && !purego

package cpu

//go:noescape
func attnRowMaxAVX(row *float32, n int) (m float32, flags int)

// attnRowMax returns the largest score of row that is not NaN (-inf when
// none) and whether any score is NaN or below -MaxFloat32.
func attnRowMax(row []float32) (m float32, nan, ninf bool) {
	if n := avxSplit(row); n > 0 {
		var f int
		m, f = attnRowMaxAVX(&row[0], n)
		tm, tnan, tinf := attnRowMaxGo(row[n:])
		return max(m, tm), f&1 != 0 || tnan, f&2 != 0 || tinf
	}
	return attnRowMaxGo(row)
}
