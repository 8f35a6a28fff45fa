package gpu

import "encoding/binary"

// KernelID names a kernel. Every device has each of them under the name
// KernelNames gives (the MSL function in Metal's kernels.metal, the
// __global__ function of the CUDA source), taking the arguments struct
// KernelArgs names.
type KernelID uint8

// The kernels. KernelNames holds their function names, in this order; new
// kernels are added at the end.
const (
	KUnary KernelID = iota
	KNot
	KBinary
	KCompare
	KWhere
	KCopy32
	KCopy64
	KCopy8
	KCast
	KGemm
	KSoftmax
	KLayerNorm
	KReduce
	KArgMax
	KGather
	KConv2D
	KPool2D
	KBatchNorm
	KResize
	KIm2Col
	KPad
	KConvTranspose
	NumKernels
)

// KernelNames are the kernels' function names, indexed by KernelID.
var KernelNames = [NumKernels]string{
	KUnary:         "unary_f32",
	KNot:           "not_u8",
	KBinary:        "binary_f32",
	KCompare:       "compare_f32",
	KWhere:         "where_f32",
	KCopy32:        "copy_b32",
	KCopy64:        "copy_b64",
	KCopy8:         "copy_b8",
	KCast:          "cast_any",
	KGemm:          "gemm_f32",
	KSoftmax:       "softmax_f32",
	KLayerNorm:     "layernorm_f32",
	KReduce:        "reduce_f32",
	KArgMax:        "argmax_f32",
	KGather:        "gather_f32",
	KConv2D:        "conv2d_f32",
	KPool2D:        "pool2d_f32",
	KBatchNorm:     "batchnorm_f32",
	KResize:        "resize_f32",
	KIm2Col:        "im2col_f32",
	KPad:           "pad_f32",
	KConvTranspose: "convtranspose2d_f32",
}

// KernelArgs names each kernel's arguments struct in the kernel sources;
// the Go struct of the same name mirrors it (see CheckArgStructs).
var KernelArgs = [NumKernels]string{
	KUnary:         "UnaryArgs",
	KNot:           "UnaryArgs",
	KBinary:        "BinaryArgs",
	KCompare:       "BinaryArgs",
	KWhere:         "WhereArgs",
	KCopy32:        "CopyArgs",
	KCopy64:        "CopyArgs",
	KCopy8:         "CopyArgs",
	KCast:          "CastArgs",
	KGemm:          "GemmArgs",
	KSoftmax:       "SoftmaxArgs",
	KLayerNorm:     "LayerNormArgs",
	KReduce:        "ReduceArgs",
	KArgMax:        "ArgMaxArgs",
	KGather:        "GatherArgs",
	KConv2D:        "ConvArgs",
	KPool2D:        "PoolArgs",
	KBatchNorm:     "BatchNormArgs",
	KResize:        "ResizeArgs",
	KIm2Col:        "ConvArgs",
	KPad:           "PadArgs",
	KConvTranspose: "ConvArgs",
}

// ArgStructs holds a zero value of every arguments struct, by name.
var ArgStructs = map[string]any{
	"UnaryArgs": UnaryArgs{}, "BinaryArgs": BinaryArgs{}, "WhereArgs": WhereArgs{}, "CopyArgs": CopyArgs{},
	"CastArgs": CastArgs{}, "GemmArgs": GemmArgs{}, "SoftmaxArgs": SoftmaxArgs{}, "LayerNormArgs": LayerNormArgs{},
	"ReduceArgs": ReduceArgs{}, "ArgMaxArgs": ArgMaxArgs{}, "GatherArgs": GatherArgs{}, "ConvArgs": ConvArgs{},
	"PoolArgs": PoolArgs{}, "BatchNormArgs": BatchNormArgs{}, "ResizeArgs": ResizeArgs{}, "PadArgs": PadArgs{},
}

// MaxRank is the largest tensor rank the strided kernels index (MAX_RANK
// in the kernel sources); MaxBatchRank bounds MatMul's batch dims
// (MAX_BATCH_RANK).
const (
	MaxRank      = 6
	MaxBatchRank = 4
)

// GemmTile is the gemm kernel's square output tile (TILE): a launch has
// ceil(N/GemmTile) x ceil(M/GemmTile) x Batch groups of GemmTile x
// GemmTile threads.
const GemmTile = 16

// GroupSize is the thread group width of the one-dimensional kernels.
const GroupSize = 256

// Unary op codes (U_* in the kernel sources), UnaryArgs.Op.
const (
	UCopy uint32 = iota
	URelu
	USigmoid
	UTanh
	UExp
	ULog
	USqrt
	UNeg
	UAbs
	UErf
	UGelu
	UGeluTanh
	ULeaky
	UClip
	UHardSigmoid
	UHardSwish
	UReciprocal
)

// Binary op codes (B_* in the kernel sources), BinaryArgs.Op.
const (
	BAdd uint32 = iota
	BSub
	BMul
	BDiv
	BPow
	BMin
	BMax
	BEqual
	BLess
	BGreater
	BLessEq
	BGreaterEq
)

// Reduce op codes (R_* in the kernel sources), ReduceArgs.Op.
const (
	RSum uint32 = iota
	RMean
	RMax
	RMin
)

// Element type codes (T_* in the kernel sources), CastArgs.From and To,
// and GemmArgs.ABType. TF16 (IEEE half) and TBF16 (bfloat16) are 16-bit
// storage formats: cast_any writes them rounded to nearest even and reads
// them exactly; only a planner with Config.HalfGemm emits them.
const (
	TF32 uint32 = iota
	TI32
	TI64
	TBool
	TF16
	TBF16
)

// Pad modes (P_* in the kernel sources), PadArgs.Mode.
const (
	PConstant uint32 = iota
	PReflect
	PEdge
	PWrap
)

// The arguments structs. Each mirrors the kernel sources' struct of the
// same name field by field: 4-byte fields only (uint, int, float and
// arrays of them), in the same order, so that their little-endian encoding
// is the C layout. Offsets and strides count elements, not bytes.

// UnaryArgs: y[i] = op(x[i]) for i < N; Alpha and Beta are LeakyRelu's
// alpha, Clip's bounds, HardSigmoid's alpha and beta. Buffers: x, y.
type UnaryArgs struct {
	N, Op       uint32
	Alpha, Beta float32
}

// BinaryArgs: y[i] = a[offA(i)] op b[offB(i)], i < N, the offsets from
// i's coordinates in Shape (Rank dims) and the broadcast strides SA, SB.
// Buffers: a, b, y.
type BinaryArgs struct {
	N, Op, Rank, Pad0 uint32
	Shape, SA, SB     [MaxRank]int32
}

// WhereArgs: y[i] = c[.] ? a[.] : b[.], broadcast as BinaryArgs. Buffers:
// c (bytes), a, b, y.
type WhereArgs struct {
	N, Rank, Pad0, Pad1 uint32
	Shape, SC, SA, SB   [MaxRank]int32
}

// CopyArgs: a strided copy of N elements: the element at coordinates c of
// Shape moves from InOff + c.SIn to OutOff + c.SOut. Buffers: x, y.
type CopyArgs struct {
	N, Rank          uint32
	InOff, OutOff    int32
	Shape, SIn, SOut [MaxRank]int32
}

// CastArgs: y[i] = To(x[i]) for i < N, element types as T*. Buffers: x, y.
type CastArgs struct {
	N, From, To, Pad0 uint32
}

// GemmArgs is one batched matrix product, row-major throughout:
//
//	Y[b][m][n] = Alpha * sum_k A[offA(b) + m*SAM + k*SAK] * B[offB(b) + k*SBK + n*SBN]
//	             + Beta * C[m*SCM + n*SCN]   (only when HasC != 0)
//
// for b < Batch, m < M, n < N. Y is dense: Y[(b*M + m)*N + n]. A
// transposed operand is expressed by its strides (A^T: SAM = 1, SAK = M's
// row length), so there are no transpose flags; SAK = 1 and SBN = 1 for
// the plain row-major case, SAM = K, SBK = N. C is the bias, broadcast by
// zero strides (a row vector: SCM = 0, SCN = 1; a column: SCM = 1, SCN =
// 0) and the same for every b. The batch index b is decomposed in BShape
// (BRank dims, row-major) and offA(b), offB(b) are its dot products with
// BSA and BSB (zero strides broadcast). Buffers: A, B, C (when HasC is
// 0 it is bound to Y and not read), Y. A vendor library maps it to strided
// batched GEMM calls when the batch strides are uniform (one call per b
// otherwise): row-major Y = A.B is column-major Y^T = B^T.A^T, so a
// column-major library gets B as its first operand with leading dimension
// SBK (or SBN when SBK is 1: transposed) and A second with SAM (or SAK).
// Every launch the planner makes has Alpha 1 unless Gemm's alpha says
// otherwise, and HasC only with Beta set from the op. ABType is the
// element type of A and B (TF32, or TF16 or TBF16 for 16-bit operands,
// both of the same type, which a vendor library runs as a mixed-precision
// GEMM with float32 output and float32 compute); C and Y are always
// float32. Only a planner with Config.HalfGemm sets it to other than TF32,
// and only CUDA's gemm_f32 reads it: the Metal kernel takes float32.
type GemmArgs struct {
	M, N, K, Batch, BRank uint32
	SAM, SAK, SBK, SBN    int32
	SCM, SCN              int32
	HasC                  uint32
	Alpha, Beta           float32
	ABType, Pad1          uint32
	BShape, BSA, BSB      [MaxBatchRank]int32
}

// SoftmaxArgs: softmax (or log-softmax when UseLog) of x [Outer, Axis,
// Inner] along Axis. Buffers: x, y.
type SoftmaxArgs struct {
	Outer, Axis, Inner, UseLog uint32
}

// LayerNormArgs: each of Rows rows of Cols values normalised, times scale
// [Cols], plus bias [Cols] when HasBias. Buffers: x, scale, bias, y.
type LayerNormArgs struct {
	Rows, Cols uint32
	Eps        float32
	HasBias    uint32
}

// ReduceArgs: y[g] for g < N reduces the NRed elements at offsets
// OShape/OStride(g) + RShape/RStride(r). Buffers: x, y.
type ReduceArgs struct {
	N, Op, Rank, NRed                uint32
	OShape, OStride, RShape, RStride [MaxRank]int32
}

// ArgMaxArgs: int64 index of the largest of x [Outer, Axis, Inner] along
// Axis (the last of equals when SelectLast). Buffers: x, y.
type ArgMaxArgs struct {
	Outer, Axis, Inner, SelectLast uint32
}

// GatherArgs: y [Outer, NIdx, Inner] from x [Outer, AxisLen, Inner] with
// indices int64 (Idx64) or int32; out-of-range indices read zero.
// Buffers: x, indices, y.
type GatherArgs struct {
	N, AxisLen, Inner, NIdx, Idx64, Pad0, Pad1, Pad2 uint32
}

// ConvArgs describes a 2-D convolution of x [batch, C, H, W] with w [M,
// C/Group, KH, KW] into y [batch, M, OH, OW]: strides SH, SW, begin pads
// PH, PW, dilations DH, DW. N is the thread count. conv2d_f32 computes y
// directly, N = batch*M*OH*OW (buffers x, w, bias, y; bias read when
// HasBias). im2col_f32 takes the same struct and writes col
// [batch][Group][K][OH*OW], K = (C/Group)*KH*KW, N its element count: for
// item n and group g, row k = c*KH*KW + kh*KW + kw, column p = oh*OW + ow
// holds x[n][g*C/Group + c][oh*SH - PH + kh*DH][ow*SW - PW + kw*DW], zero
// outside the image (buffers x, col; HasBias unused).
// convtranspose2d_f32 takes it for a transposed convolution of x [batch,
// C, H, W] with w [C, M/Group, KH, KW] into y [batch, M, OH, OW], N =
// batch*M*OH*OW, PH and PW the begin pads: y[n][m][oy][ox] = bias[m] +
// the sum over the group's channels c and taps (kh, kw) with oy + PH -
// kh*DH = iy*SH and ox + PW - kw*DW = ix*SW inside x of x[n][c][iy][ix] *
// w[c][m mod M/Group][kh][kw] (buffers x, w, bias, y).
type ConvArgs struct {
	N, C, H, W, M, OH, OW, KH, KW, Group uint32
	SH, SW, PH, PW, DH, DW               int32
	HasBias, Pad0                        uint32
}

// PoolArgs: max or average pooling of x [N (images times channels), H,
// W] into y [N, OH, OW]; PEH, PEW are the end pads, used to count padded
// taps when IncludePad. Buffers: x, y.
type PoolArgs struct {
	N, H, W, OH, OW, KH, KW  uint32
	SH, SW, PH, PW, PEH, PEW int32
	DH, DW                   int32
	IsMax, IncludePad, Pad0  uint32
}

// BatchNormArgs: inference batch normalisation of N elements of [*, C,
// Inner]. Buffers: x, scale, bias, mean, var, y.
type BatchNormArgs struct {
	N, C, Inner uint32
	Eps         float32
}

// ResizeArgs is one pass of a separable resize along one axis: x [Outer,
// NIn, Inner] to y [Outer, NOut, Inner], N = Outer*NOut*Inner threads.
// Output index j along the axis reads K taps: input indices idx[j*K+q]
// (int32) weighted by w[j*K+q] (float), summed in order q = 0..K-1 as
// w0*x0 + w1*x1...; idx[j*K] = -1 means extrapolate: y = Extrap. Nearest
// is K = 1 with weight 1. Buffers: x, idx, w, y.
type ResizeArgs struct {
	N, Outer, NIn, NOut, Inner, K uint32
	Extrap                        float32
	Pad0                          uint32
}

// PadArgs: y of shape OShape (Rank dims, N elements) from x of shape
// IShape placed at Before (negative Before crops): constant mode fills
// with Value, reflect mirrors without repeating the edge, edge repeats it,
// wrap repeats the input periodically.
// Buffers: x, y.
type PadArgs struct {
	N, Rank, Mode          uint32
	Value                  float32
	OShape, IShape, Before [MaxRank]int32
}

// Pack appends the little-endian encoding of an arguments struct, which is
// its C layout. It runs at planning time, never per call.
func Pack[A any](dst []byte, a *A) []byte {
	out, err := binary.Append(dst, binary.LittleEndian, a)
	if err != nil {
		// Every args struct is fixed-size; this cannot happen.
		panic("gpu: packing kernel arguments: " + err.Error())
	}
	return out
}
