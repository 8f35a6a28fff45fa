package compute

// Options configure a backend. The zero value is valid: it picks defaults.
type Options struct {
	// Threads is how many threads a model may use for one call; 0 or 1
	// means one. The CPU backend starts Threads-1 helper goroutines per
	// model, stopped by Close, and splits matrix products across them.
	Threads int
	// MaxTensorBytes caps the size of any one tensor a model computes; a
	// call whose shapes would need more fails with ErrResourceUnavailable
	// instead of exhausting memory. 0 means DefaultMaxTensorBytes.
	MaxTensorBytes int64
}

// DefaultMaxTensorBytes is the tensor size cap when Options leaves it 0.
const DefaultMaxTensorBytes = 4 << 30
