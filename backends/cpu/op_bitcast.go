package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// bitcastKernel runs BitCast: it copies the input's bytes, which the
// descriptor's rule (model.BitCastAttrs) has checked are as wide as the
// output's. The 4- and 2-bit types hold one element a byte (ADR 24), so
// an output of those types keeps the element's low bits, sign-extended
// for int4 and int2, and a bool output is 1 for any nonzero byte: lintel's
// booleans are 0 or 1.
type bitcastKernel struct {
	n *model.Node
}

func (k *bitcastKernel) run(in, out []*tensor) error {
	s, d := in[0].data, out[0].data
	copy(d, s)
	switch out[0].dt {
	case payload.I4:
		for i, b := range d {
			d[i] = byte(payload.Int4(b).Int8())
		}
	case payload.I2:
		for i, b := range d {
			d[i] = byte(payload.Int2(b).Int8())
		}
	case payload.U4, payload.F4E2M1:
		for i := range d {
			d[i] &= 0xf
		}
	case payload.U2:
		for i := range d {
			d[i] &= 0x3
		}
	case payload.Bool:
		for i, b := range d {
			if b != 0 {
				d[i] = 1
			}
		}
	}
	return nil
}

func init() {
	register("BitCast", func(c *buildCtx) (kernel, error) {
		to := c.rule.(*model.BitCastAttrs).To
		if from := c.inType(0); !from.Valid() || from == payload.String {
			return nil, c.unsupported("bitcasting from %s", from)
		}
		if !to.Valid() || to == payload.String {
			return nil, c.unsupported("bitcasting to %s", to)
		}
		if from := c.inType(0); from.Bits() != to.Bits() {
			return nil, c.invalid("%s has %d bits, %s has %d: BitCast needs the same width", from, from.Bits(), to, to.Bits())
		}
		return &bitcastKernel{n: c.n}, nil
	})
}
