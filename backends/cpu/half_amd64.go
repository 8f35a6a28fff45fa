//go:build amd64 && !purego

package cpu

// widenF16 and widenBF16 (half_amd64.s) widen the first n&^7 elements of
// src into dst.
//
//go:noescape
func widenF16(dst *float32, src *uint16, n int)

//go:noescape
func widenBF16(dst *float32, src *uint16, n int)

func init() {
	if hasF16C {
		widenVec[halfF16] = widenF16
	}
	if hasAVX2FMA {
		widenVec[halfBF16] = widenBF16
	}
}
