package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// stringConcatKernel is StringConcat: the elementwise concatenation of two
// string tensors, broadcast.
type stringConcatKernel struct {
	it  bcastIter
	out strOut
	buf []byte
}

func (k *stringConcatKernel) run(in, out []*tensor) error {
	a, b, o := in[0], in[1], out[0]
	k.out.start(o.numel())
	if o.numel() > 0 {
		k.it.init(o.shape, a.shape, b.shape)
		for range k.it.rows {
			ia, ib := k.it.off[0], k.it.off[1]
			for range k.it.inner {
				k.buf = append(append(k.buf[:0], strAt(a, ia)...), strAt(b, ib)...)
				k.out.add(k.buf)
				ia += k.it.istr[0]
				ib += k.it.istr[1]
			}
			k.it.next()
		}
	}
	k.out.set(o)
	return nil
}

// stringEqualKernel is Equal on strings: bytewise equality, broadcast.
type stringEqualKernel struct {
	it bcastIter
}

func (k *stringEqualKernel) run(in, out []*tensor) error {
	a, b, o := in[0], in[1], out[0]
	d := o.bools()
	if len(d) == 0 {
		return nil
	}
	k.it.init(o.shape, a.shape, b.shape)
	n := k.it.inner
	for r := range k.it.rows {
		ia, ib := k.it.off[0], k.it.off[1]
		for i := range d[r*n : (r+1)*n] {
			d[r*n+i] = string(strAt(a, ia)) == string(strAt(b, ib))
			ia += k.it.istr[0]
			ib += k.it.istr[1]
		}
		k.it.next()
	}
	return nil
}

// newStringEqual is Equal's builder for string inputs.
func newStringEqual(c *buildCtx) (kernel, error) {
	if c.inType(1) != payload.String {
		return nil, c.invalid("inputs have element types %s and %s", c.inType(0), c.inType(1))
	}
	if c.rule.(*model.BinaryAttrs).Legacy {
		return nil, c.unsupported("strings with the legacy broadcast (before opset 7)")
	}
	return &stringEqualKernel{}, nil
}

func init() {
	register("StringConcat", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.String || c.inType(1) != payload.String {
			return nil, c.unsupported("element types %s and %s (want string)", c.inType(0), c.inType(1))
		}
		return &stringConcatKernel{}, nil
	})
}
