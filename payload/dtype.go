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
)

var dtypeNames = [...]string{
	Undefined: "undefined", Float32: "float32", Uint8: "uint8", Int8: "int8",
	Uint16: "uint16", Int16: "int16", Int32: "int32", Int64: "int64",
	String: "string", Bool: "bool", Float16: "float16", Float64: "float64",
	Uint32: "uint32", Uint64: "uint64", Complex64: "complex64",
	Complex128: "complex128", BF16: "bfloat16",
}

// String returns the element type's name, such as "float32".
func (d DType) String() string {
	if int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return "dtype(" + strconv.Itoa(int(d)) + ")"
}

// Size returns the size of one element in bytes, or 0 for Undefined,
// String and unknown types.
func (d DType) Size() int {
	switch d {
	case Uint8, Int8, Bool:
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

// Valid reports whether d names a known element type with a fixed size.
func (d DType) Valid() bool { return d.Size() > 0 }

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool {
	switch d {
	case Float32, Float64, Float16, BF16:
		return true
	}
	return false
}
