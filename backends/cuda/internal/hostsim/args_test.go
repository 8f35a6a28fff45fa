//go:build cuda && cgo

package hostsim

// Go mirrors of the arguments structs of kernels.cu (and of the Metal
// planner's, backends/metal/kernels.go), field by field: 4-byte fields
// only, so that their little-endian encoding is the C layout.

const (
	maxRank      = 6
	maxBatchRank = 4
	groupSize    = 256 // the one-dimensional kernels' block width
	gemmTile     = 16
)

// Unary op codes (U_* in kernels.cu).
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
	numUnary
)

// Binary op codes (B_* in kernels.cu).
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

// Reduce op codes (R_*).
const (
	rSum uint32 = iota
	rMean
	rMax
	rMin
)

// Cast type codes (T_*).
const (
	tF32 uint32 = iota
	tI32
	tI64
	tBool
)

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

// strides returns the row-major strides of shape, with 0 for dimensions
// of size 1 that broadcast against out (when out is given).
func strides(shape []int, out []int) []int32 {
	s := make([]int32, len(shape))
	acc := int32(1)
	for d := len(shape) - 1; d >= 0; d-- {
		s[d] = acc
		if out != nil && shape[d] == 1 && out[d] != 1 {
			s[d] = 0
		}
		acc *= int32(shape[d])
	}
	return s
}

// fill6 copies v into a MAX_RANK array.
func fill6(v []int32) [maxRank]int32 {
	var a [maxRank]int32
	copy(a[:], v)
	return a
}

func i32s(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

// Pad modes (P_*).
const (
	pConstant uint32 = iota
	pReflect
	pEdge
	pWrap
)

type resizeArgs struct {
	N, Outer, NIn, NOut, Inner, K uint32
	Extrap                        float32
	Pad0                          uint32
}

type padArgs struct {
	N, Rank, Mode          uint32
	Value                  float32
	OShape, IShape, Before [maxRank]int32
}
