//go:build !amd64 || purego

package cpu

// poolRowsMax is poolRowsMaxGo; spill is a hint the assembly uses.
func poolRowsMax(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, lowest float32, spill bool) {
	poolRowsMaxGo(dst, src, offs, width, rows, ds, ss, planes, dps, sps, lowest)
}

// poolRowsSum is poolRowsSumGo; spill is a hint the assembly uses.
func poolRowsSum(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, spill bool) {
	poolRowsSumGo(dst, src, offs, width, rows, ds, ss, planes, dps, sps)
}

// poolRowsAvg is poolRowsAvgGo; spill is a hint the assembly uses.
func poolRowsAvg(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, tab []float32, spill bool) {
	poolRowsAvgGo(dst, src, offs, width, rows, ds, ss, planes, dps, sps, tab)
}

// poolDeint is poolDeintGo.
func poolDeint(dst, src []float32, s, h int) { poolDeintGo(dst, src, s, h) }
