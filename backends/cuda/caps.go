package cuda

import (
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// Name is the backend's name.
const Name = "cuda"

// computeTypes are the element types the kernels compute in.
var computeTypes = []payload.DType{payload.Float32, payload.Int64, payload.Bool}

// capabilities says what the CUDA backend supports; the stub reports the
// same, so that a build without cgo describes the backend it stands for.
func capabilities() compute.BackendCapabilities {
	return compute.BackendCapabilities{
		Name:          Name,
		DeviceStreams: 1,
		DTypes:        append([]payload.DType(nil), computeTypes...),
	}
}
