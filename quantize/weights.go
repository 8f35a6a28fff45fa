package quantize

import (
	"encoding/binary"
	"math"
)

// perChannel quantizes w, whose shape is shape, to int8 symmetrically per
// slice along axis: each slice's scale is its largest magnitude over 127
// (1 for an all-zero slice), its zero point 0, and q = round(w/scale)
// (half to even) clamped to [-127, 127], as ONNX Runtime's quantizer
// does for symmetric int8 weights.
func perChannel(w []float32, shape []int, axis int) (q []int8, scales []float32) {
	c := shape[axis]
	inner := 1
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	scales = make([]float32, c)
	for i, v := range w {
		ch := i / inner % c
		if a := float32(math.Abs(float64(v))); a > scales[ch] {
			scales[ch] = a
		}
	}
	for ch, m := range scales {
		scales[ch] = m / 127
		if scales[ch] == 0 || math.IsInf(float64(scales[ch]), 0) || math.IsNaN(float64(scales[ch])) {
			scales[ch] = 1
		}
	}
	q = make([]int8, len(w))
	for i, v := range w {
		q[i] = int8(clampRound(v/scales[i/inner%c], -127, 127))
	}
	return q, scales
}

// clampRound rounds v half to even and clamps it to [lo, hi]; NaN gives 0.
func clampRound(v float32, lo, hi float64) float64 {
	r := math.RoundToEven(float64(v))
	switch {
	case math.IsNaN(r):
		return 0
	case r < lo:
		return lo
	case r > hi:
		return hi
	}
	return r
}

// transpose2 returns the [rows, cols] matrix w transposed to [cols, rows].
func transpose2(w []float32, rows, cols int) []float32 {
	t := make([]float32, len(w))
	for r := range rows {
		for c := range cols {
			t[c*rows+r] = w[r*cols+c]
		}
	}
	return t
}

// uint8Params returns the scale and zero point that map [lo, hi], widened
// to hold 0, onto uint8 (ONNX Runtime's asymmetric activation
// parameters): scale = (hi−lo)/255, zero point round(−lo/scale). An empty
// or non-finite range gives scale 1, zero point 0.
func uint8Params(lo, hi float32) (scale float32, zp uint8) {
	lo, hi = min(lo, 0), max(hi, 0)
	scale = (hi - lo) / 255
	if !(scale > 0) || math.IsInf(float64(scale), 0) {
		return 1, 0
	}
	return scale, uint8(clampRound(-lo/scale, 0, 255))
}

// biasInt32 quantizes bias b to int32 with per-channel scales xs·ws[c]
// (zero point 0), returning the values and the scales.
func biasInt32(b []float32, xs float32, ws []float32) ([]int32, []float32) {
	q := make([]int32, len(b))
	s := make([]float32, len(b))
	for i, v := range b {
		s[i] = xs * ws[i]
		if !(s[i] > 0) || math.IsInf(float64(s[i]), 0) {
			s[i] = 1
		}
		q[i] = int32(clampRound(v/s[i], math.MinInt32, math.MaxInt32))
	}
	return q, s
}

// floats returns a copy of a float32 tensor's values.
func floats(raw []byte) []float32 {
	out := make([]float32, len(raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}
