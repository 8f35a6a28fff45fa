package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// TestQuantize8 checks QuantizeLinear's and DequantizeLinear's per-tensor
// 8-bit paths (run8) against their formulas, value by value, on random
// values, ties, and (in one case) NaN and infinities, with guard cells
// after the output.
func TestQuantize8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, dt := range []payload.DType{payload.Uint8, payload.Int8} {
		for _, special := range []bool{false, true} {
			for _, n := range []int{1, 15, 16, 1000, 1007} {
				s := float32(0.0137)
				xs := make([]float32, n)
				for i := range xs {
					switch r.IntN(4) {
					case 0:
						xs[i] = (float32(r.IntN(600)-300) + 0.5) * s // a tie
					default:
						xs[i] = (r.Float32()*2 - 1) * 300 * s
					}
				}
				if special && n > 3 {
					xs[0], xs[1], xs[2] = float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))
				}
				zb := byte(r.IntN(256))
				lo, hi, _ := quantRange(dt)
				zp := float64(zb)
				if dt == payload.Int8 {
					zp = float64(int8(zb))
				}
				k := &quantizeKernel{out: dt, lo: lo, hi: hi, isInt: true, m: quantMap{outer: 1, axis: 1, inner: n, bs: 1}}
				y := &tensor{dt: dt, shape: []int{n}, data: make([]byte, n+8)}
				for i := n; i < n+8; i++ {
					y.data[i] = 0xa5
				}
				z := &tensor{dt: dt, shape: []int{}, data: []byte{zb}}
				if !k.run8([]*tensor{mk([]int{n}, xs), mk(nil, []float32{s}), z}, []*tensor{y}) {
					t.Fatalf("%s: run8 declined", dt)
				}
				for i, v := range xs {
					want := roundClamp(float64(v/s), zp, lo, hi)
					got := float64(y.data[i])
					if dt == payload.Int8 {
						got = float64(int8(y.data[i]))
					}
					if got != want {
						t.Fatalf("%s n %d: y[%d] of %v: got %v, want %v", dt, n, i, v, got, want)
					}
				}
				for i := n; i < n+8; i++ {
					if y.data[i] != 0xa5 {
						t.Fatalf("%s n %d: guard %d overwritten", dt, n, i)
					}
				}
				// DequantizeLinear back.
				dk := &dequantizeKernel{m: k.m}
				f := mk([]int{n}, make([]float32, n))
				yq := &tensor{dt: dt, shape: []int{n}, data: y.data[:n]}
				if !dk.run8([]*tensor{yq, mk(nil, []float32{s}), z}, []*tensor{f}) {
					t.Fatalf("%s: dequantize run8 declined", dt)
				}
				for i, got := range f.f32() {
					q := float64(yq.data[i])
					if dt == payload.Int8 {
						q = float64(int8(yq.data[i]))
					}
					if want := float32(float32(q-zp) * s); got != want {
						t.Fatalf("%s: dequantized %d: got %v, want %v", dt, i, got, want)
					}
				}
			}
		}
	}
}
