//go:build amd64 && !purego

package cpu

import "testing"

// TestDwCopiesAVX2 checks the AVX2 strided copy and deinterleave against
// their Go twins where the AVX-512 ones would otherwise run.
func TestDwCopiesAVX2(t *testing.T) {
	needAsm(t)
	if !dwCopyAVX512 {
		t.Skip("the AVX2 copies run by default here: TestCopyStridedMatchesGo checks them")
	}
	dwCopyAVX512 = false
	defer func() { dwCopyAVX512 = true }()
	checkCopyStrided(t)
	checkDeinterleaveRows(t)
}
