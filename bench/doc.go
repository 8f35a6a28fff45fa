// Package bench holds lintel's performance cases and their benchmarks.
//
// Rules: every case is a real ONNX file (built here with
// internal/onnxbuild, or shipped in internal/models) run through the
// public API, exactly as a service would. `go test -bench . ./bench`
// measures lintel alone; `go test -tags ort,openblas -run Vs -v ./bench`
// runs the side-by-side comparison against ONNX Runtime and OpenBLAS on
// one thread, interleaved, and prints medians and ratios (see
// RESULTS.md). Nothing here is imported by the library.
package bench
