// Package payload defines the values that flow into and out of a model:
// typed tensors, the element types they may hold, and a multi-tensor payload
// for models with several inputs or outputs of mixed element types.
//
// Rules:
//   - A Tensor is row-major: Data holds the product of Shape elements, the
//     last dimension varying fastest.
//   - Payloads are plain values. The library never keeps a reference to a
//     caller's payload past the call it was passed to.
//   - An output payload's Data slice is reused when it is large enough and
//     grown only when it is too small, so a caller that reuses its outputs
//     allocates nothing in steady state.
//   - Element bytes are in the host's byte order; lintel supports
//     little-endian hosts only.
package payload
