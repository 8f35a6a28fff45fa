// Package ortcheck checks lintel's CPU backend against ONNX Runtime, the
// reference implementation of ONNX semantics.
//
// The suite lives in test files behind the "ort" build tag, because it
// needs cgo and ONNX Runtime's shared library. Run it with
//
//	make ort-deps
//	go test -count=1 -tags ort ./internal/ortcheck/...
//
// -count=1 keeps go test from replaying a cached result: each run draws
// fresh inputs.
//
// Every case generates a small ONNX model for one op (or a short chain of
// ops), feeds it fresh random inputs, runs it on both runtimes and compares
// every output: identical element types and shapes, exact values for
// integer and bool outputs, and a relative L2 error of at most 1e-4 for
// float32 (1e-3 for the deep real models).
//
// Environment variables:
//
//	ONNXRUNTIME_LIB  path of libonnxruntime.so (default: the one in the
//	                 onnxruntime-node npm package under LINTEL_NPM_DIR)
//	LINTEL_NPM_DIR   npm prefix holding the reference runtime and the real
//	                 models (default: <repo>/.cache/npm)
//	LINTEL_SEED      replay a run with the seed a failing run logged
package ortcheck
