package compute

import (
	"context"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
)

// ComputeModel is a loaded model, ready to run on payloads of type In and
// produce payloads of type Out.
//
// The life cycle is LoadModel, Init, then any number of InferOne and
// InferBatch calls, then Close. A model is not safe for concurrent use;
// backends refuse a call that overlaps another on the same model with
// ErrResourceUnavailable where they can detect it cheaply (the CPU
// backend does), and otherwise leave it undefined.
type ComputeModel[In, Out any] interface {
	// Init prepares the model to run: it plans memory and warms what the
	// backend needs. Inference before Init returns ErrNotInitialized.
	Init() error
	// InferOne runs the model on in and writes the result to out. It sets
	// out's shape and grows out's data only when it is too small.
	InferOne(in *In, out *Out) error
	// InferBatch runs the model on every item of in. out must have
	// in.Len() entries; out[i] gets exactly what InferOne(in.At(i), &out[i])
	// would give.
	InferBatch(in batch.Batch[In], out []Out) error
	// Drain waits until all submitted work has finished.
	Drain() error
	// Reset returns the model to the state Init left it in, dropping any
	// state that calls carried.
	Reset() error
	// Metadata describes the model's inputs and outputs.
	Metadata() ModelMetadata
	// Close releases the model's resources. Later calls return ErrClosed.
	Close() error
}

// ComputeBackend loads artifacts into models of the backend's concrete
// type M. Go has no associated types, so the model type is a type
// parameter: LoadModel returns M itself, never an interface, and calls on
// it are direct.
type ComputeBackend[In, Out any, M ComputeModel[In, Out]] interface {
	// Capabilities says what the backend supports.
	Capabilities() BackendCapabilities
	// LoadModel checks that the backend supports everything art uses and
	// returns a model ready for Init. Unsupported ops, attributes and
	// element types are refused here with ErrUnsupported.
	LoadModel(art *artifacts.Artifact) (M, error)
}

// ContextModel is implemented by models whose calls a context can bound
// (every backend's). A call whose context has ended does not start; the
// CPU backend also stops a running call between nodes. The error matches
// ErrExecutionFailed and ctx.Err().
type ContextModel[In, Out any] interface {
	ComputeModel[In, Out]
	InferOneContext(ctx context.Context, in *In, out *Out) error
	InferBatchContext(ctx context.Context, in batch.Batch[In], out []Out) error
}
