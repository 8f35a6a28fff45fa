//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:noescape
func lut8VBMI(dst, src *byte, n int, t *[256]byte)

// hasLUT8 selects lut8VBMI: AVX-512 with VBMI's byte permutes (tests
// clear it to compare with the Go loop).
var hasLUT8 = hasAVX512BW && cpu.X86.HasAVX512VBMI

// lut8 maps src through t into dst (len(dst) >= len(src)): in AVX-512
// VBMI where the CPU has it, else lut8Go.
func lut8(dst, src []byte, t *[256]byte) {
	if !hasLUT8 || len(src) < 16 {
		lut8Go(dst, src, t)
		return
	}
	_ = dst[len(src)-1]
	lut8VBMI(&dst[0], &src[0], len(src), t)
}
