package backends_test

import (
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

type f32 = payload.Tensor[float32]

// The chosen backend satisfies the compute contract, for single-tensor and
// multi-tensor payloads alike.
var (
	_ compute.ComputeModel[f32, f32]                                                                      = (*backends.Model[f32, f32])(nil)
	_ compute.ComputeBackend[f32, f32, *backends.Model[f32, f32]]                                         = (*backends.Backend[f32, f32])(nil)
	_ compute.ComputeModel[payload.Multi, payload.Multi]                                                  = (*backends.Model[payload.Multi, payload.Multi])(nil)
	_ compute.ComputeBackend[payload.Multi, payload.Multi, *backends.Model[payload.Multi, payload.Multi]] = (*backends.Backend[payload.Multi, payload.Multi])(nil)
)
