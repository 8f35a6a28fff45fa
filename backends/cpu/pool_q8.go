package cpu

import "unsafe"

// poolBytes views a slice of 1-byte pool elements (int8 or uint8) as
// bytes.
func poolBytes[E poolElem](s []E) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// maxPool2x2BRows is maxPool2x2Rows of 8-bit values (int8 when signed):
// one maxPool2x2B call for all planes when their rows pair up exactly
// (IH == 2*OH), else one a plane. It reports false, computing nothing,
// where that kernel does not run.
func maxPool2x2BRows(planes int, x, y []byte, inSz, outSz, OH, OW, IH, IW int, signed bool) bool {
	if IH == 2*OH {
		return maxPool2x2B(y, x, OW, planes*OH, IW, signed)
	}
	for p := range planes {
		if !maxPool2x2B(y[p*outSz:(p+1)*outSz], x[p*inSz:(p+1)*inSz], OW, OH, IW, signed) {
			return false
		}
	}
	return true
}
