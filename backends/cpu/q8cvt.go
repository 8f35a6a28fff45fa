package cpu

// q8ToF32Go sets dst[i] = float32(int32(src[i]) − z)·s, src[i] read as
// int8 when signed, else as uint8. It is q8ToF32's twin.
func q8ToF32Go(dst []float32, src []byte, z int32, s float32, signed bool) {
	src = src[:len(dst)]
	if signed {
		for i, b := range src {
			dst[i] = float32(int32(int8(b))-z) * s
		}
		return
	}
	for i, b := range src {
		dst[i] = float32(int32(b)-z) * s
	}
}

// requantF32RunGo writes dst[i] = acc[i]·m, in float32, rounded half to
// even, plus zp, saturated to [lo, hi], as a byte (the int8 or uint8
// value), for finite acc[i]. It is requantF32Run's twin; for integer sums
// below 2²⁴ it gives requantRunGo's bytes.
func requantF32RunGo(dst []byte, acc []float32, m float32, zp, lo, hi float64) {
	dst = dst[:len(acc)]
	for i, v := range acc {
		dst[i] = byte(int32(roundClamp(float64(v*m), zp, lo, hi)))
	}
}

// requantBiasRunGo is requantRunGo of acc[i] + bias (int32, wrapping),
// QLinearConv's sum and bias as ONNX Runtime adds them. It is
// requantBiasRun's twin.
func requantBiasRunGo(dst []byte, acc []int32, bias int32, m float32, zp, lo, hi float64) {
	dst = dst[:len(acc)]
	for i, v := range acc {
		dst[i] = byte(int32(roundClamp(float64(float32(v+bias)*m), zp, lo, hi)))
	}
}

// maxPool2x2BGo is maxPool2x2B in Go, its twin in tests: the 2×2
// stride-2 max of 8-bit values (int8 when signed).
func maxPool2x2BGo(y, x []byte, ow, rows, iw int, signed bool) {
	for r := range rows {
		r0, r1, yr := x[2*r*iw:], x[(2*r+1)*iw:], y[r*ow:(r+1)*ow]
		for i := range yr {
			a, b, c, d := r0[2*i], r0[2*i+1], r1[2*i], r1[2*i+1]
			if signed {
				yr[i] = byte(max(int8(a), int8(b), int8(c), int8(d)))
			} else {
				yr[i] = max(a, b, c, d)
			}
		}
	}
}

// requantizeF32 is requantize of float32 sums (requantF32Run): y's bytes
// from accF, multiplier mult[blk % period] for each block of inner sums
// (one multiplier for all when len(mult) is 1).
func requantizeF32(y *tensor, accF []float32, mult []float32, period, inner int, zp float64) {
	lo, hi, _ := quantRange(y.dt)
	if len(mult) == 1 {
		inner = len(accF)
	}
	inner = max(inner, 1)
	for i0, blk := 0, 0; i0 < len(accF); i0, blk = i0+inner, blk+1 {
		i1 := min(i0+inner, len(accF))
		m := mult[0]
		if len(mult) > 1 {
			m = mult[blk%period]
		}
		requantF32Run(y.data[i0:i1], accF[i0:i1], m, zp, lo, hi)
	}
}

// evenBytesGo sets dst[i] = src[2i]: the bytes of a stride-2 window
// row. It is evenBytes's twin.
func evenBytesGo(dst, src []byte) {
	src = src[:2*len(dst)-1]
	for i := range dst {
		dst[i] = src[2*i]
	}
}

// requantColsGo is requantBiasRunGo of a row with a bias and a
// multiplier a column: dst[j] from acc[j] + bias[j] (int32, wrapping)
// times mult[j]. It is requantCols's twin.
func requantColsGo(dst []byte, acc, bias []int32, mult []float32, zp, lo, hi float64) {
	dst, bias, mult = dst[:len(acc)], bias[:len(acc)], mult[:len(acc)]
	for j, v := range acc {
		dst[j] = byte(int32(roundClamp(float64(float32(v+bias[j])*mult[j]), zp, lo, hi)))
	}
}

// finiteAll reports every value of v finite.
func finiteAll(v []float32) bool {
	for _, x := range v {
		if x-x != 0 {
			return false
		}
	}
	return true
}
