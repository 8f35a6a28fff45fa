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

// poolDeint is poolDeintGo.
func poolDeint(dst, src []float32, s, h int) { poolDeintGo(dst, src, s, h) }

// poolDiv is poolDivGo.
func poolDiv(dst, tab []float32) { poolDivGo(dst, tab) }
