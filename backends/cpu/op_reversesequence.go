package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// reverseSequenceKernel is ReverseSequence: for each batch item, the
// first sequence_lens[b] slices along the time axis in reverse order,
// the rest as they are. The descriptor's rule
// (model.ReverseSequenceAttrs) sets the output shape.
type reverseSequenceKernel struct {
	n         *model.Node
	batchAxis int64
}

func (k *reverseSequenceKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	lens := in[1].i64()[:in[1].numel()]
	bAx := int(k.batchAxis)
	batch, steps := x.shape[bAx], x.shape[1-bAx]
	if len(lens) != batch {
		return shapeErr(k.n, "sequence_lens has %d elements, the batch %d", len(lens), batch)
	}
	for _, l := range lens {
		if l < 0 || l > int64(steps) {
			return shapeErr(k.n, "sequence length %d out of range [0, %d]", l, steps)
		}
	}
	inner := mulDims(x.shape[2:]) * x.dt.Size()
	at := func(b, t int) int {
		if bAx == 0 {
			return (b*steps + t) * inner
		}
		return (t*batch + b) * inner
	}
	for b := range batch {
		l := int(lens[b])
		for t := range steps {
			s := t
			if t < l {
				s = l - 1 - t
			}
			d, o := at(b, t), at(b, s)
			copy(y.data[d:d+inner], x.data[o:o+inner])
		}
	}
	return nil
}

func init() {
	register("ReverseSequence", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if t := c.inType(1); t != payload.Int64 {
			return nil, c.unsupported("sequence_lens of type %s", t)
		}
		return &reverseSequenceKernel{n: c.n, batchAxis: c.rule.(*model.ReverseSequenceAttrs).BatchAxis}, nil
	})
}
