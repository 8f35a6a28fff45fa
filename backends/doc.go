// Package backends picks the inference backend at compile time.
//
// New, Backend and Model are generic type aliases for the chosen backend's
// types, so calls through them are direct: there is no run-time dispatch
// between backends. Build tags choose:
//
//	(default)     backends/cpu
//	-tags cuda    backends/cuda (NVIDIA GPUs, through cgo)
//	-tags metal   backends/metal (Apple GPUs; on other OSes LoadModel
//	              fails with compute.ErrResourceUnavailable)
//
// Name reports the backend chosen, SupportedOps the ops it runs and Check
// every node of a model it would refuse.
package backends
