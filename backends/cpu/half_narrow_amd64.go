//go:build amd64 && !purego

package cpu

// narrowF16 (half_narrow_amd64.s) narrows the first n&^7 elements of src
// into float16 dst, rounding to nearest even.
//
//go:noescape
func narrowF16(dst *uint16, src *float32, n int)

func init() {
	if hasF16C {
		narrowVecF16 = narrowF16
	}
}
