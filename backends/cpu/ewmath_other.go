//go:build !amd64 || purego

package cpu

// ewMath32 is ewMathGo: this build has no assembly for it.
func ewMath32(op ewmOp, d, x []float32) { ewMathGo(op, d, x) }

// maxNaN32 is maxNaNGo: this build has no assembly for it.
func maxNaN32(x []float32) (float32, bool) { return maxNaNGo(x) }

// subDiv32 is subDivGo: this build has no assembly for it.
func subDiv32(div bool, d, a, b []float32) { subDivGo(div, d, a, b) }

// lerp32 is lerpGo: this build has no assembly for it.
func lerp32(d, a, b []float32, wa, wb float32) { lerpGo(d, a, b, wa, wb) }
