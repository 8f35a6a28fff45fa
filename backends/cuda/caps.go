package cuda

import (
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// Name is the backend's name.
const Name = "cuda"

// The memory classes models prefer and accept: payloads in pinned host
// memory move by DMA, and device payloads from NewTensor stay on the GPU.
var (
	preferred = memclass.Pinned
	accepted  = memclass.SetOf(memclass.Host, memclass.Pinned, memclass.Device(0))
)

// capabilities says what the CUDA backend supports; the stub reports the
// same, so that a build without cgo describes the backend it stands for.
func capabilities() compute.BackendCapabilities {
	return compute.BackendCapabilities{
		Name:          Name,
		DeviceStreams: 1,
		DTypes:        append([]payload.DType(nil), core.ComputeTypes...),
	}
}
