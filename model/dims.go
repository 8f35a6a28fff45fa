package model

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// maxRank bounds the ranks the passes build; a graph asking for more is
// malformed.
const maxRank = 256

// maxConstRead bounds the constant tensors read as shape-like values
// (shapes, axes, pads...): bigger ones are treated as not constant.
const maxConstRead = 1 << 16

// addDim returns a+b, or false on overflow or a negative result.
func addDim(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// mulDim returns a*b for non-negative a and b, or false on overflow.
func mulDim(a, b int64) (int64, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > math.MaxInt64/b {
		return 0, false
	}
	return a * b, true
}

// prodDims returns the product of dims, -1 when a dim is unknown (and none
// is 0), or an error on overflow.
func prodDims(dims []int) (int, bool, error) {
	p := int64(1)
	unknown := false
	for _, d := range dims {
		if d == 0 {
			return 0, true, nil
		}
		if d < 0 {
			unknown = true
			continue
		}
		var ok bool
		if p, ok = mulDim(p, int64(d)); !ok {
			return 0, false, errs.New(errs.InvalidArtifact, "shape %v: element count overflows", dims)
		}
	}
	if unknown {
		return -1, false, nil
	}
	return int(p), true, nil
}

// knownShape reports whether v has a known rank and every dim known.
func knownShape(v *ValueInfo) bool {
	if v == nil || !v.RankKnown {
		return false
	}
	for _, d := range v.Shape {
		if d < 0 {
			return false
		}
	}
	return true
}

func copyDims(s []int) []int {
	if s == nil {
		return nil
	}
	return append(make([]int, 0, len(s)), s...)
}

// ranked returns a value type with a known rank.
func ranked(dt payload.DType, dims []int) ValueInfo {
	if dims == nil {
		dims = []int{}
	}
	return ValueInfo{DType: dt, Shape: dims, RankKnown: true}
}

// sameDims reports whether a and b are equal.
func sameDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
