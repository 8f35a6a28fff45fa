//go:build amd64 && !purego

package cpu

// nbitsWidths lists the kernel widths of nbitsCols this CPU runs: AVX2,
// and AVX-512 where it has it.
func nbitsWidths() []bool {
	if hasAVX512 {
		return []bool{false, true}
	}
	return []bool{false}
}

// nbitsUse selects the AVX-512 kernels (z) or the AVX2 ones, and returns
// the function that restores the choice.
func nbitsUse(z bool) func() {
	old := nbitsAVX512
	nbitsAVX512 = z
	return func() { nbitsAVX512 = old }
}
