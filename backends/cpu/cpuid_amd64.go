//go:build amd64 && !purego

package cpu

// cpuid executes CPUID with leaf in EAX and sub in ECX.
//
//go:noescape
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// wide512 reports whether 512-bit vectors run at full width here, where
// the AVX-512 kernels that trade taller register tiles for wider vectors
// pay (ADR 40): every AVX-512 CPU but AMD's Zen 4 (family 19h), which
// splits each 512-bit operation into two 256-bit halves and so runs
// them at the AVX2 kernels' rate. Decided once at init.
var wide512 = hasAVX512 && !isZen4()

// isZen4 reports whether the CPU is AMD family 19h, the Zen 3 and Zen 4
// family (only Zen 4 has AVX-512).
func isZen4() bool {
	_, b, c, d := cpuid(0, 0)
	if b != 0x68747541 || d != 0x69746e65 || c != 0x444d4163 { // "AuthenticAMD"
		return false
	}
	return x86Family(cpuidEAX(1)) == 0x19
}

// cpuidEAX returns EAX of CPUID leaf.
func cpuidEAX(leaf uint32) uint32 {
	a, _, _, _ := cpuid(leaf, 0)
	return a
}

// x86Family returns the family of a CPUID leaf 1 EAX: the base family,
// plus the extended family when the base is 0xf.
func x86Family(eax uint32) uint32 {
	f := eax >> 8 & 0xf
	if f == 0xf {
		f += eax >> 20 & 0xff
	}
	return f
}
