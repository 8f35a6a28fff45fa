package cpu

import (
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// Compile-time proof that the CPU types satisfy the compute contract.
var (
	_ compute.ComputeModel[payload.Tensor[float32], payload.Tensor[float32]]                                                             = (*Model[payload.Tensor[float32], payload.Tensor[float32]])(nil)
	_ compute.ComputeBackend[payload.Tensor[float32], payload.Tensor[float32], *Model[payload.Tensor[float32], payload.Tensor[float32]]] = (*Backend[payload.Tensor[float32], payload.Tensor[float32]])(nil)
)
