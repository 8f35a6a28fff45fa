package cpu

// zeroGapsGo clears gap floats at p[r*pitch:] for each of rows rows: the
// padding columns between the rows of a padded plane. It is zeroGaps's
// twin.
func zeroGapsGo(p []float32, pitch, gap, rows int) {
	for r := range rows {
		clear(p[r*pitch : r*pitch+gap])
	}
}
