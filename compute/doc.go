// Package compute defines the contract between a service and an inference
// backend: the ComputeModel and ComputeBackend interfaces, what a backend
// can do (BackendCapabilities), what a loaded model looks like
// (ModelMetadata), the Options a backend is built with, and the sentinel
// errors every lintel error matches.
//
// Rules:
//   - compute holds interfaces and plain data only, never an implementation.
//   - Backends are chosen at compile time (package backends); the interfaces
//     exist for type-safe wiring and compile-time checks, not for dispatch
//     on a hot path.
//   - Every error the library returns matches exactly one sentinel with
//     errors.Is (ErrTypeMismatch, which refines ErrShapeMismatch, matches
//     that one too), and its message says what went wrong and where.
//   - A model is not safe for concurrent use; put a batch.Batcher in front
//     of it to serve many goroutines.
package compute
