// Package metal is lintel's backend for Apple GPUs. It compiles a
// model.Graph into a plan of Metal compute kernel launches over one
// shared-storage arena and runs each call as a single command buffer.
//
// The driver (device_darwin.go and the files beside it) is built only with
// -tags metal on darwin. It calls the Objective-C runtime and the Metal
// framework through github.com/ebitengine/purego, without cgo, so it
// builds, vets and type-checks on any machine with GOOS=darwin
// CGO_ENABLED=0 (see docs/adr/0010). Everywhere else New still returns a
// backend, whose LoadModel fails with compute.ErrResourceUnavailable.
//
// The backend has been built and vetted but not yet run on Apple hardware.
// Everything on the Go side (graph planning, arena layout, kernel argument
// packing, payload binding, the Model type) is the GPU backends' portable
// layer, backends/internal/gpu, shared with the CUDA backend; it builds on
// every OS and is tested on Linux against a fake device that runs the same
// plans with CPU twins of the kernels. This package holds the Metal
// driver, the kernels' MSL source (kernels.metal) and the Backend.
//
// Rules:
//   - Everything a model cannot run is refused by LoadModel with
//     compute.ErrUnsupported, naming the node: LoadModel plans the model
//     once at its declared shapes (free dims taken as 1) to find out.
//     Values computed only from shapes and constants are folded on the
//     host, with the CPU backend's kernels, once the input shapes are
//     known; everything else runs on the GPU in float32 (int64 and bool
//     where an op's contract needs them).
//   - A plan is built for each new set of input shapes (the first call at
//     a shape allocates) and kept, up to maxPlans of them; a call at a
//     known shape allocates nothing on the Go heap.
//   - Each InferOne or InferBatch encodes the whole forward pass of every
//     item into one command buffer and waits once, inside an autorelease
//     pool on a locked OS thread.
//   - Buffers use shared storage (memclass.Shared): the host writes inputs
//     and reads outputs in place, and page-aligned payloads and constants
//     are bound without a copy.
//   - Gather indices out of range read zeros on the GPU, where the CPU
//     backend reports an error.
//   - compute.Options.WeightType is ignored: weights stay float32 (a
//     type other than float32, float16 and bfloat16 is still refused).
//   - A Model is not safe for concurrent use. A Backend is; each model
//     has its own command queue and pipelines.
package metal
