//go:build !amd64 || purego

package cpu

// zeroGaps is zeroGapsGo: this build has no kernel of its own for it.
func zeroGaps(p []float32, pitch, gap, rows int) {
	if rows <= 0 || gap <= 0 {
		return
	}
	_ = p[(rows-1)*pitch+gap-1]
	zeroGapsGo(p, pitch, gap, rows)
}
