package compute

import (
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// TensorInfo describes one input or output of a model.
type TensorInfo struct {
	Name  string
	DType payload.DType
	// Shape has -1 for a free dimension, such as a batch size the model
	// leaves open. Shape is nil when even the rank is unknown.
	Shape []int
}

// ModelMetadata describes a loaded model.
type ModelMetadata struct {
	// PreferredInput and PreferredOutput are where the backend would like
	// payloads to live; payloads elsewhere are copied.
	PreferredInput  memclass.Class
	PreferredOutput memclass.Class
	// AcceptedInput is the set of classes InferOne takes input from.
	AcceptedInput memclass.Set
	// MaxInputBytes and MaxOutputBytes are the sizes of one InferOne's
	// inputs and outputs, summed over tensors, or -1 when a free dimension
	// leaves them unbounded.
	MaxInputBytes  int64
	MaxOutputBytes int64
	Inputs         []TensorInfo
	Outputs        []TensorInfo
}

// BackendCapabilities says what a backend supports.
type BackendCapabilities struct {
	// Name is the backend's name, such as "cpu".
	Name string
	// DeviceStreams is how many independent streams of work the backend
	// runs at once (1 for the CPU backend).
	DeviceStreams int
	// MaxBatch is the largest batch InferBatch takes, or 0 for no limit.
	MaxBatch int
	// DTypes are the element types the backend computes in. Other types
	// may still appear at a model's edges when a Cast converts them.
	DTypes []payload.DType
}

// Supports reports whether dt is one of c.DTypes.
func (c BackendCapabilities) Supports(dt payload.DType) bool {
	for _, d := range c.DTypes {
		if d == dt {
			return true
		}
	}
	return false
}
