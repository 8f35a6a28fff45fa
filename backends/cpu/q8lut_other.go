//go:build !amd64 || purego

package cpu

// lut8 is lut8Go: this build has no assembly.
func lut8(dst, src []byte, t *[256]byte) { lut8Go(dst, src, t) }
