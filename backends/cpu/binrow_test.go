package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestArithRow32MatchesGo checks the float32 Add, Mul, Sub and Div rows
// (assembly where the CPU has it) bit for bit against arithRow, for a
// contiguous or scalar a and b, on every length up to 40 with guard
// cells.
func TestArithRow32MatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(16, 17))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Copysign(0, -1)), 0}
	const guard = 3
	for _, op := range []binOp{opAdd, opMul, opSub, opDiv} {
		for _, st := range [][2]int{{1, 0}, {1, 1}, {0, 1}} {
			sa, sb := st[0], st[1]
			for n := range 41 {
				a, b := make([]float32, max(n, 1)), make([]float32, max(n, 1))
				for _, v := range [][]float32{a, b} {
					for i := range v {
						v[i] = (r.Float32()*2 - 1) * 4
						if r.IntN(8) == 0 {
							v[i] = specials[r.IntN(len(specials))]
						}
					}
				}
				got, want := make([]float32, n+2*guard), make([]float32, n+2*guard)
				for i := range got {
					got[i], want[i] = 5, 5
				}
				if !arithRow32(op, got[guard:guard+n], a, b, sa, sb) {
					arithRow(op, got[guard:guard+n], a, b, sa, sb)
				}
				arithRow(op, want[guard:guard+n], a, b, sa, sb)
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
						t.Fatalf("op %d sa=%d sb=%d n=%d: element %d is %v, want %v", op, sa, sb, n, i-guard, got[i], want[i])
					}
				}
			}
		}
	}
}
