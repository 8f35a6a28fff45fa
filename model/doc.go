// Package model is the backend-neutral graph that artifacts decode into and
// backends compile: nodes, attributes, constant tensors, value types and
// shapes, and the passes that simplify a graph before a backend sees it
// (topological sorting, validation, shape inference, constant folding and
// fusions).
//
// Rules:
//   - A Graph is plain data. Passes rewrite it in place and are
//     deterministic.
//   - Shapes use -1 for a dimension that is not known statically.
//   - Constant tensors hold their elements as little-endian bytes in Raw,
//     aligned to the element size; Raw may alias the artifact's bytes and
//     must never be written.
//   - Nothing panics on malformed input: every failure is an error that
//     wraps one of the compute sentinels.
package model
