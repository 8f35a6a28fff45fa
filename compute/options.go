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
	// TF32 lets GPU backends run float32 matrix products on TF32 tensor
	// cores: faster, with about 1e-3 relative error instead of float32's
	// 1e-7. Off by default. The CPU backend ignores it.
	TF32 bool
}

// DefaultMaxTensorBytes is the tensor size cap when Options leaves it 0.
const DefaultMaxTensorBytes = 4 << 30
