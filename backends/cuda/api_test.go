package cuda

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// The real backend (cuda && cgo) and the stub declare the same exported
// API: each name is assigned to a variable of the type it must have, so
// that a difference breaks the build of one of the two.

type (
	f32 = payload.Tensor[float32]
	i64 = payload.Tensor[int64]
)

var (
	_ string                                                                                     = Name
	_ func(compute.Options) *Backend[f32, f32]                                                   = New[f32, f32]
	_ func(*Backend[f32, f32]) compute.BackendCapabilities                                       = (*Backend[f32, f32]).Capabilities
	_ func(*Backend[f32, f32], *artifacts.Artifact) (*Model[f32, f32], error)                    = (*Backend[f32, f32]).LoadModel
	_ func(*Model[f32, f32]) error                                                               = (*Model[f32, f32]).Init
	_ func(*Model[f32, f32], *f32, *f32) error                                                   = (*Model[f32, f32]).InferOne
	_ func(*Model[f32, f32], batch.Batch[f32], []f32) error                                      = (*Model[f32, f32]).InferBatch
	_ func(*Model[f32, f32]) error                                                               = (*Model[f32, f32]).Drain
	_ func(*Model[f32, f32]) error                                                               = (*Model[f32, f32]).Reset
	_ func(*Model[f32, f32]) compute.ModelMetadata                                               = (*Model[f32, f32]).Metadata
	_ func(*Model[f32, f32]) error                                                               = (*Model[f32, f32]).Close
	_ func(*artifacts.Artifact, compute.Options) []Issue                                         = Check
	_ func() []string                                                                            = SupportedOps
	_ func(memclass.Class, ...int) (f32, error)                                                  = NewTensor[float32]
	_ func(memclass.Class, ...int) (i64, error)                                                  = NewTensor[int64]
	_ func(*f32) error                                                                           = Free[float32]
	_ func(*i64) error                                                                           = Free[int64]
	_ func(*f32, *f32) error                                                                     = CopyTensor[float32]
	_ compute.ComputeModel[f32, f32]                                                             = (*Model[f32, f32])(nil)
	_ compute.ComputeBackend[f32, f32, *Model[f32, f32]]                                         = (*Backend[f32, f32])(nil)
	_ compute.ComputeModel[payload.Multi, payload.Multi]                                         = (*Model[payload.Multi, payload.Multi])(nil)
	_ compute.ComputeBackend[payload.Multi, payload.Multi, *Model[payload.Multi, payload.Multi]] = (*Backend[payload.Multi, payload.Multi])(nil)
)
