package cpu

import (
	"github.com/lintel-ml/lintel/payload"
)

// Element-type constraints for the elementwise kernels. Generic code over
// distinct basic types is stenciled per type, so these loops compile to the
// same code as hand-written ones.

// ewFloat is the floating-point types the kernels compute in.
type ewFloat interface{ float32 | float64 }

// ewSigned is the signed integer types.
type ewSigned interface {
	int8 | int16 | int32 | int64
}

// ewInt is every integer type.
type ewInt interface {
	ewSigned | uint8 | uint16 | uint32 | uint64
}

// ewNum is every real number type Go computes in natively.
type ewNum interface{ ewFloat | ewInt }

// ewArith lists the element types of the arithmetic kernels.
var ewArith = []payload.DType{payload.Float32, payload.Float64, payload.Int32, payload.Int64}

// ewOrdered lists the element types the comparison and arg-reduction
// kernels accept.
var ewOrdered = []payload.DType{
	payload.Float32, payload.Float64, payload.Int32, payload.Int64,
	payload.Int8, payload.Uint8, payload.Int16, payload.Uint16, payload.Uint32, payload.Uint64,
}

// hasDType reports whether dt is in list.
func hasDType(list []payload.DType, dt payload.DType) bool {
	for _, d := range list {
		if d == dt {
			return true
		}
	}
	return false
}

// normAxis maps a possibly negative axis into [0, rank); ok is false when
// it is out of range.
func normAxis(axis int64, rank int) (int, bool) {
	if axis < 0 {
		axis += int64(rank)
	}
	if axis < 0 || axis >= int64(rank) {
		return 0, false
	}
	return int(axis), true
}

// elemSizeOK reports whether dt's elements can be moved as 1, 2, 4 or 8
// byte words, as the kernels that only move elements (Where, Expand) do.
func elemSizeOK(dt payload.DType) bool {
	switch dt.Size() {
	case 1, 2, 4, 8:
		return true
	}
	return false
}
