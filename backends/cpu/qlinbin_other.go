//go:build !amd64 || purego

package cpu

// hasQLinBin is false: this build has no QLinearAdd or QLinearMul
// kernels.
const hasQLinBin = false

// qAdd2Rows returns 0: this build has no assembly.
func qAdd2Rows(y, xa, xb []byte, ra, rb, f float32, signed bool) int { return 0 }

// qAdd1Rows returns 0: this build has no assembly.
func qAdd1Rows(y, x []byte, r, f float32, signed bool) int { return 0 }

// qMul2Rows returns 0: this build has no assembly.
func qMul2Rows(y, xa, xb []byte, za, zb int32, ratio, zc float32, signed bool) int { return 0 }

// qMul1Rows returns 0: this build has no assembly.
func qMul1Rows(y, x []byte, z, c int32, ratio, zc float32, signed bool) int { return 0 }
