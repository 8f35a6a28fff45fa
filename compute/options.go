package compute

import "github.com/lintel-ml/lintel/payload"

// Options configure a backend. The zero value is valid: it picks defaults.
type Options struct {
	// Threads is how many threads a model may use for one call; 0 or 1
	// means one. The CPU backend starts Threads-1 helper goroutines per
	// model, stopped by Close, and splits matrix products, convolutions
	// and the larger pooling, normalisation, Softmax, Resize, reduction
	// and data-movement ops across them.
	Threads int
	// MaxTensorBytes caps the size of any one tensor a model computes; a
	// call whose shapes would need more fails with ErrResourceUnavailable
	// instead of exhausting memory. 0 means DefaultMaxTensorBytes.
	MaxTensorBytes int64
	// TF32 lets GPU backends run float32 matrix products on TF32 tensor
	// cores: faster, with about 1e-3 relative error instead of float32's
	// 1e-7. Off by default. The CPU backend ignores it.
	TF32 bool
	// WeightType is the element type the constant weight matrices of
	// Gemm and MatMul and the filters of Conv are stored in: 0 or
	// payload.Float32 keeps float32; payload.Float16 or payload.BF16
	// stores them in half the bytes, rounded to nearest even once at
	// load. The CPU backend widens them to float32 as its kernels read
	// them (products and sums stay float32). The CUDA backend runs each
	// product with a constant operand as a cuBLAS GemmEx on 16-bit
	// operands, converting the other (the activations) to the same type
	// at run time, with float32 sums and outputs; it applies to Conv
	// where Conv runs as im2col and a product. The Metal backend ignores
	// it and keeps float32 weights. It speeds up products that are bound
	// by reading their weights, such as one-row dense layers, and costs
	// precision: on the benchmark models the CPU backend's outputs move
	// by a relative L2 error of 7e-5 to 1e-3 with Float16 and 6e-4 to
	// 1.5e-3 with BF16 (docs/half-weights.md). Any other type makes
	// LoadModel fail with ErrUnsupported, and so does Float16 when a
	// weight is beyond float16's range (±65504).
	WeightType payload.DType
	// Profile makes a model record each node's time and a timeline of its
	// first calls (compute.Profiler, `lintel bench -profile` and
	// `-trace`). It costs two clock reads per node per call; off, it
	// costs nothing. The CPU backend supports it; the GPU backends
	// ignore it.
	Profile bool
	// Carries are model outputs that the model keeps and feeds to one of
	// its own inputs on the next call: a decoder's present.N.key to its
	// past_key_values.N.key, a recurrent model's state. A carried input
	// is no longer given by the caller and a carried output no longer
	// returned; the first call after loading (or ResetCarries) reads
	// zeros of the input's declared shape, its free dims 0. Each call
	// writes the value where the next reads it, without a copy. The CPU
	// backend supports it (for one sequence: InferBatch is refused); the
	// GPU backends refuse a non-empty list. See docs/streaming.md.
	Carries []Carry
	// MaxSequence is the largest size a carried value's growing dim
	// reaches, such as a decoder's cache length: the CPU backend
	// allocates each carried value at that size once, and appends the
	// keys and values of an Attention or com.microsoft
	// GroupQueryAttention node's present outputs in place (no copy of
	// the cache per call). A call that would grow a carried
	// value beyond it fails with ErrResourceUnavailable. 0 lets carried
	// values grow as needed, in two buffers written in turn.
	MaxSequence int
}

// Carry names one model output carried to a model input (Options.Carries).
type Carry struct {
	// Output is the graph output a call writes.
	Output string
	// Input is the graph input the next call reads it from.
	Input string
}

// DefaultMaxTensorBytes is the tensor size cap when Options leaves it 0.
const DefaultMaxTensorBytes = 4 << 30
