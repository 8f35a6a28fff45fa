package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// ConvIntegerToFloat (model.ConvIntegerToFloat): ConvInteger whose int32
// sums become float32 as they are stored, sum·scale + bias[channel] and
// Relu, instead of in three more passes over the output (Cast, the
// scale's Mul, the bias's Add and Relu). The wide grid writes each
// output row from its own sums (qconvKernel.runWide); the other paths
// compute the sums in the output's bytes and turn each block of output
// positions into float32 right after its product, while it is in cache.

// qconvFloat is the float32 tail of a ConvIntegerToFloat kernel: the
// constant bias of one value an output channel (nil: none), whether
// Relu follows, and the scale of the call, one value or one an output
// channel, read from the node's input at run time.
type qconvFloat struct {
	bias  []float32
	relu  bool
	scale []float32
}

// row writes output channel ch's row dst from its sums src, which may be
// the same memory: float32(src[j])·scale, plus the channel's bias, then
// Relu, each rounded as the unfused nodes round it.
func (f *qconvFloat) row(dst []float32, src []int32, ch int) {
	s := f.scale[:1]
	if len(f.scale) > 1 {
		s = f.scale[ch : ch+1]
	}
	qScaleRow(dst, src, s, nil)
	switch {
	case f.bias != nil && f.relu:
		addConstRelu32(dst, f.bias[ch])
	case f.bias != nil:
		addConst32(dst, f.bias[ch])
	case f.relu:
		actRelu32(dst)
	}
}

// rows turns rows rows of n sums of c, ld apart, for output channels
// ch0, ch0+1, ..., into float32 values in the same bytes.
func (f *qconvFloat) rows(c []int32, ld, rows, n, ch0 int) {
	y := f32Alias(c)
	for r := range rows {
		f.row(y[r*ld:r*ld+n], c[r*ld:r*ld+n], ch0+r)
	}
}

// bind checks the call's scale (input 4) against the m output channels
// and keeps it for row.
func (f *qconvFloat) bind(n *model.Node, in []*tensor, m int) error {
	s := optIn(in, 4)
	if s == nil || s.dt != payload.Float32 {
		return shapeErr(n, "scale: want a float32 input")
	}
	if c := s.numel(); c != 1 && c != m {
		return shapeErr(n, "scale of shape %v: want one value or %d", s.shape, m)
	}
	f.scale = s.f32()
	if f.bias != nil && len(f.bias) != m {
		return shapeErr(n, "bias of %d values for %d output channels", len(f.bias), m)
	}
	return nil
}

// buildConvIntegerToFloat builds ConvInteger's kernel with the float32
// tail of the node's scale, bias and Relu.
func buildConvIntegerToFloat(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.ConvIntegerToFloatAttrs)
	if err := convIntegerTypes(c); err != nil {
		return nil, err
	}
	if t := c.inType(4); t != payload.Float32 {
		return nil, c.invalid("scale of element type %s (want float32)", t)
	}
	f := &qconvFloat{relu: a.Relu}
	if c.n.Input(5) != "" {
		b := c.constInput(5)
		if b == nil || b.DType != payload.Float32 {
			return nil, c.invalid("bias: want a constant float32 tensor")
		}
		v, err := model.View[float32](b)
		if err != nil {
			return nil, c.invalid("bias: %v", err)
		}
		f.bias = v
	}
	if err := checkWindow(c, &a.Window); err != nil {
		return nil, err
	}
	k, err := buildQConv(c, &a.Window, a.Group, 1, false)
	if err != nil {
		return nil, err
	}
	k.(*qconvKernel).toF = f
	return k, nil
}
