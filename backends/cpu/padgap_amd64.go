//go:build amd64 && !purego

package cpu

// zeroGapsAVX512 is zeroGapsGo with one masked 512-bit store a row, gap
// at most 16 (padgap_amd64.s).
//
//go:noescape
func zeroGapsAVX512(p *float32, pitch, gap, rows int)

// zeroGaps clears gap floats at p[r*pitch:] for each of rows rows: one
// masked store a row where the CPU has AVX-512 and the gap is at most a
// vector, zeroGapsGo otherwise.
func zeroGaps(p []float32, pitch, gap, rows int) {
	if rows <= 0 || gap <= 0 {
		return
	}
	_ = p[(rows-1)*pitch+gap-1]
	if hasAVX512 && gap <= 16 {
		zeroGapsAVX512(&p[0], pitch, gap, rows)
		return
	}
	zeroGapsGo(p, pitch, gap, rows)
}
