//go:build cuda && cgo

package cuda

// kernels.ptx is generated from kernels.cu and cudart_compat.h by clang
// (Debian clang 14.0.6 for the committed file; its header records the
// version, the flags and the sources' hash), with no CUDA toolkit. Run
//
//	go generate -tags cuda ./backends/cuda
//
// after editing either source, and commit kernels.ptx and
// internal/hostsim/source_hash.go with it. TestPTXUpToDate fails when they
// are stale.
//
//go:generate go run ./internal/cmd/genptx
