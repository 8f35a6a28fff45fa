//go:build cuda && cgo

package hostsim

import "github.com/lintel-ml/lintel/backends/internal/gpu"

// The planner's arguments structs and op codes (backends/internal/gpu),
// under short names for the tests.

const (
	maxRank      = gpu.MaxRank
	maxBatchRank = gpu.MaxBatchRank
	groupSize    = gpu.GroupSize // the one-dimensional kernels' block width
	gemmTile     = gpu.GemmTile
)

// Unary op codes.
const (
	uCopy        = gpu.UCopy
	uRelu        = gpu.URelu
	uSigmoid     = gpu.USigmoid
	uTanh        = gpu.UTanh
	uExp         = gpu.UExp
	uLog         = gpu.ULog
	uSqrt        = gpu.USqrt
	uNeg         = gpu.UNeg
	uAbs         = gpu.UAbs
	uErf         = gpu.UErf
	uGelu        = gpu.UGelu
	uGeluTanh    = gpu.UGeluTanh
	uLeaky       = gpu.ULeaky
	uClip        = gpu.UClip
	uHardSigmoid = gpu.UHardSigmoid
	uHardSwish   = gpu.UHardSwish
	uReciprocal  = gpu.UReciprocal
	numUnary     = uReciprocal + 1
)

// Binary op codes.
const (
	bAdd       = gpu.BAdd
	bSub       = gpu.BSub
	bMul       = gpu.BMul
	bDiv       = gpu.BDiv
	bPow       = gpu.BPow
	bMin       = gpu.BMin
	bMax       = gpu.BMax
	bEqual     = gpu.BEqual
	bLess      = gpu.BLess
	bGreater   = gpu.BGreater
	bLessEq    = gpu.BLessEq
	bGreaterEq = gpu.BGreaterEq
)

// Reduce op codes.
const (
	rSum  = gpu.RSum
	rMean = gpu.RMean
	rMax  = gpu.RMax
	rMin  = gpu.RMin
)

// Cast type codes.
const (
	tF32  = gpu.TF32
	tI32  = gpu.TI32
	tI64  = gpu.TI64
	tBool = gpu.TBool
	tF16  = gpu.TF16
	tBF16 = gpu.TBF16
)

// Pad modes.
const (
	pConstant = gpu.PConstant
	pReflect  = gpu.PReflect
	pEdge     = gpu.PEdge
	pWrap     = gpu.PWrap
)

type (
	unaryArgs     = gpu.UnaryArgs
	binaryArgs    = gpu.BinaryArgs
	whereArgs     = gpu.WhereArgs
	copyArgs      = gpu.CopyArgs
	castArgs      = gpu.CastArgs
	gemmArgs      = gpu.GemmArgs
	softmaxArgs   = gpu.SoftmaxArgs
	layerNormArgs = gpu.LayerNormArgs
	reduceArgs    = gpu.ReduceArgs
	argMaxArgs    = gpu.ArgMaxArgs
	gatherArgs    = gpu.GatherArgs
	convArgs      = gpu.ConvArgs
	poolArgs      = gpu.PoolArgs
	batchNormArgs = gpu.BatchNormArgs
	resizeArgs    = gpu.ResizeArgs
	padArgs       = gpu.PadArgs
)

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
