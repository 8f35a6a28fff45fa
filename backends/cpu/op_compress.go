package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// compressKernel is Compress: the slices along the axis (the elements of
// the flattened input without one) whose condition entry is true. The
// descriptor's rule (model.CompressAttrs) leaves the kept count at -1;
// shape counts the true entries. As ONNX Runtime does, condition entries
// past the end of the axis are ignored.
type compressKernel struct {
	hasAxis bool
	axis    int64
}

// split returns the input's sizes around the compressed axis: outer, the
// axis length, and the bytes of one slice.
func (k *compressKernel) split(x *tensor) (outer, n, inner, ax int) {
	if !k.hasAxis {
		return 1, x.numel(), x.dt.Size(), 0
	}
	ax, _ = wrapAxis(k.axis, len(x.shape))
	return mulDims(x.shape[:ax]), x.shape[ax], mulDims(x.shape[ax+1:]) * x.dt.Size(), ax
}

func (k *compressKernel) shape(in, out []*tensor) error {
	_, n, _, ax := k.split(in[0])
	cond := in[1].u8()
	cnt := 0
	for _, c := range cond[:min(n, len(cond))] {
		if c != 0 {
			cnt++
		}
	}
	out[0].shape[ax] = cnt
	return nil
}

func (k *compressKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	outer, n, inner, _ := k.split(x)
	cond := in[1].u8()
	cond = cond[:min(n, len(cond))]
	o := 0
	for a := range outer {
		src := x.data[a*n*inner:]
		for i, c := range cond {
			if c != 0 {
				copy(y.data[o:o+inner], src[i*inner:(i+1)*inner])
				o += inner
			}
		}
	}
	return nil
}

func init() {
	register("Compress", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if t := c.inType(1); t != payload.Bool {
			return nil, c.unsupported("condition of type %s", t)
		}
		a := c.rule.(*model.CompressAttrs)
		return &compressKernel{hasAxis: a.HasAxis, axis: a.Axis}, nil
	})
}
