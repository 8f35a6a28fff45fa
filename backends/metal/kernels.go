package metal

import (
	_ "embed" // the Metal kernels' source
	"encoding/binary"
)

// mslSource is the Metal Shading Language source of every kernel, compiled
// once per device when the first model loads.
//
//go:embed kernels.metal
var mslSource string

// kernelID names a kernel function of kernels.metal.
type kernelID uint8

// The kernels. kernelNames holds their MSL function names, in this order.
const (
	kUnary kernelID = iota
	kNot
	kBinary
	kCompare
	kWhere
	kCopy32
	kCopy64
	kCopy8
	kCast
	kGemm
	kSoftmax
	kLayerNorm
	kReduce
	kArgMax
	kGather
	kConv2D
	kPool2D
	kBatchNorm
	numKernels
)

// kernelNames are the MSL function names, indexed by kernelID.
var kernelNames = [numKernels]string{
	kUnary:     "unary_f32",
	kNot:       "not_u8",
	kBinary:    "binary_f32",
	kCompare:   "compare_f32",
	kWhere:     "where_f32",
	kCopy32:    "copy_b32",
	kCopy64:    "copy_b64",
	kCopy8:     "copy_b8",
	kCast:      "cast_any",
	kGemm:      "gemm_f32",
	kSoftmax:   "softmax_f32",
	kLayerNorm: "layernorm_f32",
	kReduce:    "reduce_f32",
	kArgMax:    "argmax_f32",
	kGather:    "gather_f32",
	kConv2D:    "conv2d_f32",
	kPool2D:    "pool2d_f32",
	kBatchNorm: "batchnorm_f32",
}

// kernelArgs names each kernel's arguments struct in kernels.metal; the Go
// struct of the same name without the "Args" suffix lower-cased mirrors it.
var kernelArgs = [numKernels]string{
	kUnary:     "UnaryArgs",
	kNot:       "UnaryArgs",
	kBinary:    "BinaryArgs",
	kCompare:   "BinaryArgs",
	kWhere:     "WhereArgs",
	kCopy32:    "CopyArgs",
	kCopy64:    "CopyArgs",
	kCopy8:     "CopyArgs",
	kCast:      "CastArgs",
	kGemm:      "GemmArgs",
	kSoftmax:   "SoftmaxArgs",
	kLayerNorm: "LayerNormArgs",
	kReduce:    "ReduceArgs",
	kArgMax:    "ArgMaxArgs",
	kGather:    "GatherArgs",
	kConv2D:    "ConvArgs",
	kPool2D:    "PoolArgs",
	kBatchNorm: "BatchNormArgs",
}

// maxRank is the largest tensor rank the strided kernels index
// (MAX_RANK in kernels.metal); maxBatchRank bounds MatMul's batch dims.
const (
	maxRank      = 6
	maxBatchRank = 4
)

// gemmTile is the gemm kernel's square output tile (TILE).
const gemmTile = 16

// groupSize is the threadgroup width of the one-dimensional kernels.
const groupSize = 256

// unaryOp codes (U_* in kernels.metal).
const (
	uCopy uint32 = iota
	uRelu
	uSigmoid
	uTanh
	uExp
	uLog
	uSqrt
	uNeg
	uAbs
	uErf
	uGelu
	uGeluTanh
	uLeaky
	uClip
	uHardSigmoid
	uHardSwish
	uReciprocal
)

// binaryOp codes (B_* in kernels.metal).
const (
	bAdd uint32 = iota
	bSub
	bMul
	bDiv
	bPow
	bMin
	bMax
	bEqual
	bLess
	bGreater
	bLessEq
	bGreaterEq
)

// reduceOp codes (R_* in kernels.metal).
const (
	rSum uint32 = iota
	rMean
	rMax
	rMin
)

// castType codes (T_* in kernels.metal).
const (
	tF32 uint32 = iota
	tI32
	tI64
	tBool
)

// The arguments structs. Each mirrors the MSL struct of the same name
// (UnaryArgs for unaryArgs...) field by field: 4-byte fields only, in the
// same order, so that their little-endian encoding is the MSL layout.

type unaryArgs struct {
	N, Op       uint32
	Alpha, Beta float32
}

type binaryArgs struct {
	N, Op, Rank, Pad0 uint32
	Shape, SA, SB     [maxRank]int32
}

type whereArgs struct {
	N, Rank, Pad0, Pad1 uint32
	Shape, SC, SA, SB   [maxRank]int32
}

type copyArgs struct {
	N, Rank          uint32
	InOff, OutOff    int32
	Shape, SIn, SOut [maxRank]int32
}

type castArgs struct {
	N, From, To, Pad0 uint32
}

type gemmArgs struct {
	M, N, K, Batch, BRank uint32
	SAM, SAK, SBK, SBN    int32
	SCM, SCN              int32
	HasC                  uint32
	Alpha, Beta           float32
	Pad0, Pad1            uint32
	BShape, BSA, BSB      [maxBatchRank]int32
}

type softmaxArgs struct {
	Outer, Axis, Inner, UseLog uint32
}

type layerNormArgs struct {
	Rows, Cols uint32
	Eps        float32
	HasBias    uint32
}

type reduceArgs struct {
	N, Op, Rank, NRed                uint32
	OShape, OStride, RShape, RStride [maxRank]int32
}

type argMaxArgs struct {
	Outer, Axis, Inner, SelectLast uint32
}

type gatherArgs struct {
	N, AxisLen, Inner, NIdx, Idx64, Pad0, Pad1, Pad2 uint32
}

type convArgs struct {
	N, C, H, W, M, OH, OW, KH, KW, Group uint32
	SH, SW, PH, PW, DH, DW               int32
	HasBias, Pad0                        uint32
}

type poolArgs struct {
	N, H, W, OH, OW, KH, KW  uint32
	SH, SW, PH, PW, PEH, PEW int32
	DH, DW                   int32
	IsMax, IncludePad, Pad0  uint32
}

type batchNormArgs struct {
	N, C, Inner uint32
	Eps         float32
}

// pack appends the little-endian encoding of an arguments struct, which is
// its MSL layout. It runs at planning time, never per call.
func pack[A any](dst []byte, a *A) []byte {
	out, err := binary.Append(dst, binary.LittleEndian, a)
	if err != nil {
		// Every args struct is fixed-size; this cannot happen.
		panic("metal: packing kernel arguments: " + err.Error())
	}
	return out
}
