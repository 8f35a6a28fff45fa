// Package cuda is lintel's backend for NVIDIA GPUs. It compiles a
// model.Graph into a plan of CUDA kernel launches and cuBLAS matrix
// products over one device arena, records each plan once as a CUDA graph,
// and runs each call as one replay of that graph between the copies of its
// inputs and outputs, waited on once.
//
// Build tags and what runs where:
//   - The backend is built with -tags cuda and cgo (CGO_ENABLED=1, a C
//     compiler). It needs no CUDA toolkit to build: the driver library
//     (libcuda.so.1) and cuBLAS (libcublas.so.13 or .12) are opened with
//     dlopen when the first model loads, and the kernels ship as PTX
//     embedded in the binary, compiled by the driver for the GPU it finds.
//   - Without cgo, or without -tags cuda, the package still builds: New
//     returns a backend whose LoadModel fails with
//     compute.ErrResourceUnavailable saying how to build it, and Check and
//     SupportedOps answer as the real backend does.
//   - On a machine without the driver or a GPU, LoadModel fails with
//     compute.ErrResourceUnavailable naming what is missing.
//
// Rules:
//   - No silent CPU fallback. Everything a model would need that the
//     kernels lack is refused by LoadModel with compute.ErrUnsupported,
//     naming the node. Values computed only from shapes and constants are
//     folded on the host once the input shapes are known; everything else
//     runs on the GPU.
//   - Every error matches a compute sentinel. Driver and cuBLAS failures
//     name the call and CUDA's error name. Out of memory, a missing driver
//     or device is compute.ErrResourceUnavailable; anything else the GPU
//     reports is compute.ErrExecutionFailed. A fault that poisons the CUDA
//     context (an illegal address, a failed launch) is sticky: the model
//     reports itself unusable and every later call fails with
//     compute.ErrExecutionFailed naming the first fault.
//   - Each model owns one non-blocking stream and one cuBLAS handle; its
//     weights are uploaded once, at Init. A plan is built for each new set
//     of input shapes (the first call at a shape allocates and records a
//     graph); a call at a known shape allocates nothing on the Go heap.
//   - Payloads may live in host, pinned or device memory. NewTensor
//     allocates pinned host tensors (memclass.Pinned, page-locked, which
//     the GPU reads by DMA) and device tensors
//     (memclass.Device(0), whose Data addresses GPU memory and must never
//     be read or written on the host); Free releases them. A model takes a
//     device tensor only when NewTensor allocated it, and refuses any other
//     with an error: chaining models on the GPU is passing one model's
//     device output to the next as input. Host and pinned payloads go
//     through the model's pinned staging memory, device payloads device to
//     device, all inside the one call. See docs/adr/0018.
//   - float32 matrix products run in full float32 precision by default;
//     compute.Options.TF32 lets cuBLAS use TF32 tensor cores (about 1e-3
//     relative error).
//   - A Model is not safe for concurrent use. A Backend is.
//
// The backend's GPU tests have passed on an NVIDIA H200; docs/cuda.md
// says what has been run where.
package cuda
