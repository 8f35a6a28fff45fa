package cpu

import "unsafe"

// Strided 1×1 Convs.
//
// A 1×1 window with strides and no padding reads one input value per
// output position: its im2col is the input subsampled. Rather than
// unrolling each group's windows into packed panels value by value, the
// whole image is subsampled once into a channels×outSz matrix (rows of
// stride 2 by the vector deinterleave, unit column strides by the
// strided copy) that each group's product reads as an unpacked B, as
// unit-stride 1×1 Convs read the input itself.

// subsampledPointwise reports whether g is a 1×1 window with no padding
// and some stride above one.
func (g *geom) subsampledPointwise() bool {
	strided := false
	for i := range maxSpatial {
		if g.k[i] != 1 || g.pb[i] != 0 || g.pe[i] != 0 {
			return false
		}
		strided = strided || g.s[i] != 1
	}
	return strided
}

// subsample copies the values of the channels planes of x (geometry g, a
// 1×1 window with no padding) that the outputs read into dst, one
// plane of size3(g.out) after another; odd is scratch of g.out[2]
// floats a row for stride-2 columns, grown only when too small.
func subsample(g *geom, x []float32, channels int, dst []float32, odd *[]float32) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	sd, sh, sw := g.s[0], g.s[1], g.s[2]
	inSz, outSz := ID*IH*IW, OD*OH*OW
	if outSz == 0 {
		return
	}
	if sw == 2 && OW > 1 {
		*odd = growF32(odd, OH*OW)
	}
	for c := range channels {
		for od := range OD {
			src := x[c*inSz+od*sd*IH*IW:]
			d := dst[c*outSz+od*OH*OW : c*outSz+(od+1)*OH*OW]
			switch {
			case sw == 1:
				copyStrided(d, OW, src, sh*IW, OW, OH)
			case sw == 2 && OW > 1:
				// The first 2·OW-1 columns hold every even column the
				// outputs read; their odd ones go to scratch.
				deinterleaveRows(d, *odd, OW, src, sh*IW, 2*OW-1, OH)
			default:
				for oh := range OH {
					row := src[oh*sh*IW:]
					dr := d[oh*OW : (oh+1)*OW]
					for ow := range dr {
						dr[ow] = row[ow*sw]
					}
				}
			}
		}
	}
}

// fromF32s reinterprets float32s as E, which must be float32 (the
// generic Conv path's float32 instance).
func fromF32s[E float32 | float64](s []float32) []E {
	if unsafe.Sizeof(*new(E)) != 4 {
		panic("fromF32s: not float32")
	}
	return unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
