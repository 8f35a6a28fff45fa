// Package backends picks the inference backend at compile time.
//
// New, Backend and Model are generic type aliases for the chosen backend's
// types, so calls through them are direct: there is no run-time dispatch
// between backends. Build tags choose:
//
//	(default)     backends/cpu
//	-tags cuda    backends/cuda (NVIDIA GPUs, through cgo)
//	-tags metal   backends/metal (Apple GPUs; on other OSes LoadModel
//	              fails with compute.ErrResourceUnavailable)
//
// Name reports the backend chosen, SupportedOps the ops it runs and Check
// every node of a model it would refuse.
//
// # Methods
//
// go doc lists no methods under Backend and Model because they are
// aliases: it documents methods only on the type that declares them. The
// methods are those of the chosen backend's types, and every backend has
// the same ones:
//
//	Backend[In, Out]:
//	  LoadModel(art *artifacts.Artifact) (*Model[In, Out], error)
//	  Capabilities() compute.BackendCapabilities
//
//	Model[In, Out] (a compute.ComputeModel[In, Out]):
//	  Init() error
//	  InferOne(in *In, out *Out) error
//	  InferBatch(in batch.Batch[In], out []Out) error
//	  Metadata() compute.ModelMetadata
//	  Drain() error
//	  Reset() error
//	  Close() error
//
// Their documentation is on the concrete types, for the default build
// "go doc github.com/lintel-ml/lintel/backends/cpu Model" (and Backend),
// and on the interfaces compute.ComputeModel and compute.ComputeBackend,
// which say what every backend's methods promise.
//
// Rules:
//   - The backend is chosen once, when the program is built; a binary
//     holds exactly one.
//   - Every backend refuses at load, with compute.ErrUnsupported, what it
//     cannot run; none hands a refused op to another backend.
package backends
