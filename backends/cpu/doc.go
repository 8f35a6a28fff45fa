// Package cpu is lintel's CPU backend: it compiles a model.Graph into a
// list of kernels over planned, reused buffers and runs it on the host.
//
// Rules:
//   - Everything a model cannot run is refused by LoadModel with
//     compute.ErrUnsupported, naming the node, the op and what is missing;
//     inference never meets an unsupported op.
//   - After the first call at a given input shape, InferOne and InferBatch
//     allocate nothing: buffers are planned by value lifetime at load,
//     grown to the largest size seen, and reused.
//   - Constant tensors are used in place, never copied, unless their bytes
//     are misaligned.
//   - Instances of one artifact loaded on one Backend share everything
//     read-only (optimized graph, constants, weights kernels precompute
//     through shareValue); each owns only its scratch. Nothing shared is
//     written after it is built.
//   - A Model is not safe for concurrent use. A Backend is.
package cpu
