package payload

import "strconv"

// DType names an element type. The values are those of ONNX's
// TensorProto.DataType, so a DType can be read straight from a model file.
type DType uint8

// The element types. Not every backend supports every one: see
// compute.BackendCapabilities.
const (
	Undefined  DType = 0
	Float32    DType = 1
	Uint8      DType = 2
	Int8       DType = 3
	Uint16     DType = 4
	Int16      DType = 5
	Int32      DType = 6
	Int64      DType = 7
	String     DType = 8
	Bool       DType = 9
	Float16    DType = 10
	Float64    DType = 11
	Uint32     DType = 12
	Uint64     DType = 13
	Complex64  DType = 14
	Complex128 DType = 15
	BF16       DType = 16
	// The element types ONNX added for quantization (ADR 24). Their
	// names are short, as BF16's is, because the Go types of their
	// elements take the long ones (Float8E4M3FN, Int4...).
	//
	// F8E4M3FN and F8E4M3FNUZ are 8-bit floats with 4 exponent and 3
	// mantissa bits, with NaN but no infinity (FN), the UZ one also
	// without negative zero; F8E5M2 has 5 exponent and 2 mantissa bits
	// and is IEEE-like, F8E5M2FNUZ is its FNUZ variant.
	F8E4M3FN   DType = 17
	F8E4M3FNUZ DType = 18
	F8E5M2     DType = 19
	F8E5M2FNUZ DType = 20
	// U4 and I4 are 4-bit integers (uint4, int4) and F4E2M1 a 4-bit
	// float. ONNX packs them two to a byte; in memory each takes a byte.
	U4     DType = 21
	I4     DType = 22
	F4E2M1 DType = 23
	// F8E8M0 is a power of two, 2^(e-127), the scale of the microscaling
	// formats; 0xff is NaN.
	F8E8M0 DType = 24
	// U2 and I2 are 2-bit integers (uint2, int2), packed four to a byte
	// by ONNX and a byte each in memory.
	U2 DType = 25
	I2 DType = 26
)

var dtypeNames = [...]string{
	Undefined: "undefined", Float32: "float32", Uint8: "uint8", Int8: "int8",
	Uint16: "uint16", Int16: "int16", Int32: "int32", Int64: "int64",
	String: "string", Bool: "bool", Float16: "float16", Float64: "float64",
	Uint32: "uint32", Uint64: "uint64", Complex64: "complex64",
	Complex128: "complex128", BF16: "bfloat16",
	F8E4M3FN: "float8e4m3fn", F8E4M3FNUZ: "float8e4m3fnuz",
	F8E5M2: "float8e5m2", F8E5M2FNUZ: "float8e5m2fnuz",
	U4: "uint4", I4: "int4", F4E2M1: "float4e2m1",
	F8E8M0: "float8e8m0", U2: "uint2", I2: "int2",
}

// String returns the element type's name, such as "float32".
func (d DType) String() string {
	if int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return "dtype(" + strconv.Itoa(int(d)) + ")"
}

// Size returns the size of one element in memory, in bytes, or 0 for
// Undefined, String and unknown types. The 4- and 2-bit types take one
// byte each in memory; Bits gives their width in a model file.
func (d DType) Size() int {
	switch d {
	case Uint8, Int8, Bool, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
		F8E8M0, U4, I4, F4E2M1, U2, I2:
		return 1
	case Uint16, Int16, Float16, BF16:
		return 2
	case Float32, Int32, Uint32:
		return 4
	case Int64, Float64, Uint64, Complex64:
		return 8
	case Complex128:
		return 16
	}
	return 0
}

// Bits returns the width of one element in bits as ONNX stores it: 4
// for U4, I4 and F4E2M1, 2 for U2 and I2, and 8*Size otherwise.
func (d DType) Bits() int {
	switch d {
	case U4, I4, F4E2M1:
		return 4
	case U2, I2:
		return 2
	}
	return 8 * d.Size()
}

// Valid reports whether d names a known element type with a fixed size.
func (d DType) Valid() bool { return d.Size() > 0 }

// IsFloat reports whether d is one of the floating-point types lintel
// computes with: float32, float64, float16 and bfloat16. The 8- and 4-bit
// float formats are storage formats that Cast converts, and report false.
func (d DType) IsFloat() bool {
	switch d {
	case Float32, Float64, Float16, BF16:
		return true
	}
	return false
}
