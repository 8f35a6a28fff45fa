package compute

import "github.com/lintel-ml/lintel/internal/errs"

// The sentinel errors. Every error lintel returns wraps one of them.
var (
	// ErrInvalidArtifact: a model file is malformed or inconsistent.
	ErrInvalidArtifact = errs.InvalidArtifact
	// ErrUnsupported: a valid model uses an op, attribute value or element
	// type the backend lacks. Reported at load, never at inference.
	ErrUnsupported = errs.Unsupported
	// ErrShapeMismatch: a payload's shape, element type or length does not
	// fit the model.
	ErrShapeMismatch = errs.ShapeMismatch
	// ErrTypeMismatch: a payload's element type is not the one the model
	// declares for that input or output. It refines ErrShapeMismatch:
	// errors.Is matches such an error with both.
	ErrTypeMismatch = errs.TypeMismatch
	// ErrExecutionFailed: the backend failed while running a model.
	ErrExecutionFailed = errs.ExecutionFailed
	// ErrResourceUnavailable: a device, library or memory the backend needs
	// is not available, or the model is busy with a call made from another
	// goroutine.
	ErrResourceUnavailable = errs.ResourceUnavailable
	// ErrNotInitialized: a model was used before Init.
	ErrNotInitialized = errs.NotInitialized
	// ErrClosed: a model was used after Close.
	ErrClosed = errs.Closed
)
