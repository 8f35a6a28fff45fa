package cpu

import "math"

// attnRowMaxGo is attnRowMax's loop: the largest score of row that is
// not NaN (-inf when none), and whether any score is NaN or below
// -MaxFloat32.
func attnRowMaxGo(row []float32) (m float32, nan, ninf bool) {
	m = float32(math.Inf(-1))
	for _, v := range row {
		switch {
		case v > m:
			m = v
		case v != v:
			nan = true
		}
		if v < -math.MaxFloat32 {
			ninf = true
		}
	}
	return m, nan, ninf
}
