//go:build !cuda || !cgo

package cuda

import (
	"context"
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// This file stands in for the backend in builds without -tags cuda or
// without cgo: the same exported API (api_test.go keeps the two in step),
// and every model load fails with compute.ErrResourceUnavailable.

// errNotBuilt says how to get the real backend.
func errNotBuilt(what string) error {
	return errs.New(errs.ResourceUnavailable, "cuda: %s needs a build with -tags cuda and cgo (CGO_ENABLED=1 and a C compiler); this binary has no CUDA backend", what)
}

// Backend loads models for an NVIDIA GPU. In this build (without -tags
// cuda or without cgo) LoadModel always fails.
type Backend[In, Out any] struct {
	opts compute.Options
}

// New returns a CUDA backend configured by opts. In this build its
// LoadModel fails with compute.ErrResourceUnavailable.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	return &Backend[In, Out]{opts: opts}
}

// Capabilities says what the CUDA backend supports.
func (b *Backend[In, Out]) Capabilities() compute.BackendCapabilities {
	return capabilities()
}

// LoadModel fails with compute.ErrResourceUnavailable: this build has no
// CUDA backend.
func (b *Backend[In, Out]) LoadModel(art *artifacts.Artifact) (*Model[In, Out], error) {
	return nil, errNotBuilt("loading a model")
}

// Model is a model compiled for an NVIDIA GPU. This build never makes
// one; its methods fail as on a closed model.
type Model[In, Out any] struct{}

// Init fails: this build has no CUDA backend.
func (m *Model[In, Out]) Init() error { return errNotBuilt("Init") }

// InferOne fails: this build has no CUDA backend.
func (m *Model[In, Out]) InferOne(in *In, out *Out) error { return errNotBuilt("InferOne") }

// InferBatch fails: this build has no CUDA backend.
func (m *Model[In, Out]) InferBatch(in batch.Batch[In], out []Out) error {
	return errNotBuilt("InferBatch")
}

// InferOneContext fails: this build has no CUDA backend.
func (m *Model[In, Out]) InferOneContext(ctx context.Context, in *In, out *Out) error {
	return errNotBuilt("InferOneContext")
}

// InferBatchContext fails: this build has no CUDA backend.
func (m *Model[In, Out]) InferBatchContext(ctx context.Context, in batch.Batch[In], out []Out) error {
	return errNotBuilt("InferBatchContext")
}

// Drain fails: this build has no CUDA backend.
func (m *Model[In, Out]) Drain() error { return errNotBuilt("Drain") }

// Reset fails: this build has no CUDA backend.
func (m *Model[In, Out]) Reset() error { return errNotBuilt("Reset") }

// Metadata returns the zero metadata.
func (m *Model[In, Out]) Metadata() compute.ModelMetadata { return compute.ModelMetadata{} }

// Close does nothing.
func (m *Model[In, Out]) Close() error { return nil }

// NewTensor returns a tensor of the given shape with zeroed data in memory
// of class c. In this build only memclass.Host is available; pinned and
// device memory fail with compute.ErrResourceUnavailable.
func NewTensor[E payload.Elem](c memclass.Class, shape ...int) (payload.Tensor[E], error) {
	if c != memclass.Host {
		return payload.Tensor[E]{}, errNotBuilt(c.String() + " memory")
	}
	return newHostTensor[E](shape)
}

// Free releases a tensor from NewTensor and clears it. A host tensor is
// left to the garbage collector. In this build no other tensor exists, and
// freeing one is an error.
func Free[E payload.Elem](t *payload.Tensor[E]) error {
	if t == nil {
		return nil
	}
	if t.Place != memclass.Host && t.Data != nil {
		return errs.New(errs.ShapeMismatch, "cuda: Free of a %s tensor this build did not allocate", t.Place)
	}
	*t = payload.Tensor[E]{}
	return nil
}

// CopyTensor copies src's elements into dst, which must hold exactly as
// many, and gives dst src's shape. In this build both must be host
// tensors.
func CopyTensor[E payload.Elem](dst, src *payload.Tensor[E]) error {
	if dst == nil || src == nil {
		return errs.New(errs.ShapeMismatch, "cuda: CopyTensor of a nil tensor")
	}
	if !src.Place.HostVisible() || !dst.Place.HostVisible() {
		return errNotBuilt("copying device memory")
	}
	n := src.Len()
	if n < 0 || n != len(src.Data) || n != len(dst.Data) {
		return errs.New(errs.ShapeMismatch, "cuda: CopyTensor of shape %v (%d elements) into %d elements", src.Shape, len(src.Data), len(dst.Data))
	}
	copy(dst.Data, src.Data)
	dst.Shape = append(dst.Shape[:0], src.Shape...)
	return nil
}
