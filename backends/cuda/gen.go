//go:build cuda && cgo

package cuda

// kernels.ptx is generated from kernels.cu and cudart_compat.h by clang
// (Debian clang 14.0.6 for the committed file; its header records the
// version, the flags and the sources' hash), with no CUDA toolkit. Run
//
//	go generate -tags cuda ./backends/cuda
//
// after editing either source, and commit kernels.ptx and the copies of
// the sources it writes into internal/hostsim (kernels_cu.h,
// cudart_compat.h) with it. TestPTXSourcesHash fails when any of them is
// stale, and TestPTXUpToDate when kernels.ptx differs from what the
// installed clang (if it is the recorded version) generates.
//
//go:generate go run ./internal/cmd/genptx
