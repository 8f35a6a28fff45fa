package cpu

import "math"

// antialiasTaps fills k.idx and k.w with the taps of each output index
// along dim d when Resize downsamples it (scale s < 1) with antialias, and
// returns their number K. The linear (triangle) or cubic filter is
// stretched by 1/s, as ONNX's reference computes it: the K input indices
// nearest the output's input coordinate x (the lower first on a tie), each
// weighted by the filter at (index - x)·s, the weights normalized to sum
// to 1. Indices outside the input read the edge element, or weigh
// nothing with exclude_outside.
func (k *resizeKernel) antialiasTaps(d, nin, nout int) int {
	s := float64(k.scale[d])
	support := 1.0
	if k.mode == rsCubic {
		support = 2
	}
	start := int(math.Floor(-support/s)) + 1
	K := 2 - 2*start
	k.idx = growInts(&k.idx, nout*K)
	k.w = growF32(&k.w, nout*K)
	a := float64(k.cubicA)
	for o := 0; o < nout; o++ {
		t, w := k.idx[o*K:o*K+K], k.w[o*K:o*K+K]
		c := float64(k.orig(d, float32(o), nout, nin))
		base := math.Floor(c)
		ratio := c - base
		if ratio == 0 {
			// The reference takes the index below a whole coordinate as
			// the base, at ratio 1.
			base, ratio = base-1, 1
		}
		b := int(max(-float64(nin)-float64(K), min(base, float64(nin)+float64(K))))
		sum := 0.0
		for q := range K {
			i := start + q
			x := math.Abs((float64(i) - ratio) * s)
			var f float64
			switch {
			case k.mode == rsLinear:
				f = max(0, 1-x)
			case x <= 1:
				f = ((a+2)*x-(a+3))*x*x + 1
			case x < 2:
				f = ((a*x-5*a)*x+8*a)*x - 4*a
			}
			j := b + i
			if k.exclOut && (j < 0 || j >= nin) {
				f = 0
			}
			t[q] = max(0, min(j, nin-1))
			w[q] = float32(f)
			sum += f
		}
		if sum != 0 {
			for q := range w {
				w[q] = float32(float64(w[q]) / sum)
			}
		}
	}
	return K
}
