//go:build amd64 && !purego

package cpu

import (
	"math"
	"testing"
)

// TestAvgPlanesAVX compares the assembly plane means with the Go loop
// over sum32, bit for bit, with a guard cell past the last mean, over
// plane sizes around the eights and a few plane counts.
func TestAvgPlanesAVX(t *testing.T) {
	if !hasAVX {
		t.Skip("this CPU has no AVX2: both sides would be the same Go loop")
	}
	r := nnRng(5)
	for _, size := range []int{1, 2, 7, 8, 9, 15, 16, 17, 49, 64, 196, 3136} {
		for _, planes := range []int{1, 3, 40} {
			x := make([]float32, planes*size)
			for i := range x {
				x[i] = (r.Float32()*2 - 1) * 1e3
				if i%29 == 4 {
					x[i] = float32(math.Copysign(0, -1))
				}
			}
			want := make([]float32, planes)
			avgPlanesGo(want, x, size)
			got := make([]float32, planes+1)
			got[planes] = -7
			avgPlanesAVX(&got[0], &x[0], planes, size)
			for p := range want {
				if math.Float32bits(got[p]) != math.Float32bits(want[p]) {
					t.Fatalf("size %d planes %d: mean of plane %d = %v, want %v", size, planes, p, got[p], want[p])
				}
			}
			if got[planes] != -7 {
				t.Fatalf("size %d planes %d: the guard cell was written", size, planes)
			}
		}
	}
}
