//go:build amd64 && !purego

package cpu

import "testing"

// TestX86Family decodes the family of CPUID leaf 1 signatures.
func TestX86Family(t *testing.T) {
	cases := []struct {
		name string
		eax  uint32
		want uint32
	}{
		{"Zen 4 (EPYC 9004)", 0x00a10f11, 0x19},
		{"Zen 3", 0x00a00f11, 0x19},
		{"Zen 5 (EPYC 9005)", 0x00b00f21, 0x1a},
		{"Intel Sapphire Rapids", 0x000806f8, 6},
		{"Intel Skylake-SP", 0x00050654, 6},
	}
	for _, c := range cases {
		if got := x86Family(c.eax); got != c.want {
			t.Errorf("%s: x86Family(%#x) = %#x, want %#x", c.name, c.eax, got, c.want)
		}
	}
}

// TestWide512 checks that the full-width choice follows the CPU: never
// without AVX-512, never on Zen 4.
func TestWide512(t *testing.T) {
	if wide512 && !hasAVX512 {
		t.Fatal("wide512 without AVX-512")
	}
	if wide512 && isZen4() {
		t.Fatal("wide512 on Zen 4, which splits 512-bit operations")
	}
	t.Logf("AVX-512 %v, Zen 4 %v, full-width AVX-512 kernels %v (%s)", hasAVX512, isZen4(), wide512, KernelSet())
}
