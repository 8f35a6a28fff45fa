//go:build (!amd64 && !arm64) || purego

package cpu

// arithRow32 does nothing here: this build has no assembly.
func arithRow32(op binOp, d, a, b []float32, sa, sb int) bool { return false }

// mulConst32 is mulConstGo: this build has no assembly.
func mulConst32(d []float32, c float32) { mulConstGo(d, c) }
