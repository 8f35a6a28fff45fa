package cuda

import (
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// Name is the backend's name.
const Name = "cuda"

// capabilities says what the CUDA backend supports; the stub reports the
// same, so that a build without cgo describes the backend it stands for.
func capabilities() compute.BackendCapabilities {
	return compute.BackendCapabilities{
		Name:          Name,
		DeviceStreams: 1,
		DTypes:        append([]payload.DType(nil), core.ComputeTypes...),
	}
}
