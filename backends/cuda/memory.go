package cuda

import (
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// tensorLen returns the element count of shape, refusing negative dims
// and sizes past the default tensor cap, so that a bad shape is an error,
// never a panic.
func tensorLen[E payload.Elem](shape []int) (int, error) {
	n := payload.NumElems(shape)
	size := int64(payload.DTypeOf[E]().Size())
	if n < 0 || int64(n) > compute.DefaultMaxTensorBytes/max(size, 1) {
		return 0, errs.New(errs.ShapeMismatch, "cuda: cannot allocate a %s tensor of shape %v", payload.DTypeOf[E](), shape)
	}
	return n, nil
}

// newHostTensor returns an ordinary host tensor of shape.
func newHostTensor[E payload.Elem](shape []int) (payload.Tensor[E], error) {
	n, err := tensorLen[E](shape)
	if err != nil {
		return payload.Tensor[E]{}, err
	}
	return payload.Tensor[E]{Shape: append([]int(nil), shape...), Data: make([]E, n)}, nil
}
