package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "QuantizeLinear",
		Versions:   []Version{{Since: 10, MinIn: 2, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"x", "y_scale", "y_zero_point"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &QuantizeLinearAttrs{Saturate: true}
			var err error
			if a.Quant, err = bindQuant(n, opset); err != nil {
				return nil, err
			}
			if opset >= 19 {
				if a.Saturate, err = flagAttr(n, "saturate", true); err != nil {
					return nil, err
				}
			}
			if opset >= 21 {
				if a.OutputDType, err = quantDTypeAttr(n, "output_dtype", QuantizedType); err != nil {
					return nil, err
				}
			}
			if opset >= 25 {
				if a.Precision, err = quantDTypeAttr(n, "precision", quantPrecision); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "DequantizeLinear",
		Versions:   []Version{{Since: 10, MinIn: 2, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"x", "x_scale", "x_zero_point"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &DequantizeLinearAttrs{}
			var err error
			if a.Quant, err = bindQuant(n, opset); err != nil {
				return nil, err
			}
			if opset >= 23 {
				if a.OutputDType, err = quantDTypeAttr(n, "output_dtype", quantPrecision); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "DynamicQuantizeLinear",
		Versions:   []Version{{Since: 11, MinIn: 1, MaxIn: 1, MaxOut: 3}},
		InputNames: []string{"x"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &DynamicQuantizeLinearAttrs{}, nil },
	})
}

// Quant is what QuantizeLinear and DequantizeLinear share: how the scale
// and zero point map onto the input. A scale of one element applies to
// every element (per tensor); a 1-D scale holds one value per index of
// Axis (per axis, from opset 13); with BlockSize set, the scale has the
// input's rank and one value per BlockSize consecutive indices of Axis
// (blocked, from opset 21). The zero point, when given, has the scale's
// shape.
type Quant struct {
	// Axis is axis (default 1), negative counting from the back; it
	// matters for per-axis and blocked quantization only.
	Axis int64
	// BlockSize is block_size: 0 unless the quantization is blocked.
	BlockSize int64
	// PerTensorOnly is set before opset 13, which had no axis: the
	// scale must then be a single value.
	PerTensorOnly bool
}

// QuantizeLinearAttrs are a QuantizeLinear node's attributes. The output
// is saturate(round(x / y_scale) + y_zero_point), rounding half to even,
// of the zero point's type (OutputDType, or uint8, without one). To the
// float 8 and float 4 types, x / y_scale + y_zero_point is converted with
// their rounding instead.
type QuantizeLinearAttrs struct {
	Quant
	// Saturate is saturate (opset 19, default true): whether a value out
	// of a float 8 type's range becomes its largest value rather than
	// infinity or NaN. Integer outputs always saturate.
	Saturate bool
	// OutputDType is output_dtype (opset 21): the output's element type
	// when there is no zero point; Undefined when absent.
	OutputDType payload.DType
	// Precision is precision (opset 25): the float type the division is
	// computed in; Undefined when absent.
	Precision payload.DType
}

// DequantizeLinearAttrs are a DequantizeLinear node's attributes. The
// output is (x - x_zero_point) * x_scale, of x_scale's element type
// unless OutputDType says otherwise.
type DequantizeLinearAttrs struct {
	Quant
	// OutputDType is output_dtype (opset 23): the output's element type;
	// Undefined when absent.
	OutputDType payload.DType
}

// DynamicQuantizeLinearAttrs are a DynamicQuantizeLinear node's
// attributes: it has none. From float32 x it computes a uint8 scale and
// zero point that cover x's range and 0 (scale (max-min)/255, zero point
// round(-min/scale)), and quantizes x with them.
type DynamicQuantizeLinearAttrs struct{}

// QuantizedType reports whether dt is an element type QuantizeLinear can
// produce: the 8-, 16-, 4- and 2-bit integers, the float 8 types and
// float4e2m1.
func QuantizedType(dt payload.DType) bool {
	switch dt {
	case payload.Int8, payload.Uint8, payload.Int16, payload.Uint16,
		payload.I4, payload.U4, payload.I2, payload.U2,
		payload.F8E4M3FN, payload.F8E4M3FNUZ, payload.F8E5M2, payload.F8E5M2FNUZ, payload.F4E2M1:
		return true
	}
	return false
}

// quantPrecision reports whether dt is a float type the quantization ops
// compute in.
func quantPrecision(dt payload.DType) bool {
	switch dt {
	case payload.Float32, payload.Float16, payload.BF16, payload.Float64:
		return true
	}
	return false
}

// quantDTypeAttr reads an optional element-type attribute; 0 or absent
// is Undefined.
func quantDTypeAttr(n *Node, name string, ok func(payload.DType) bool) (payload.DType, error) {
	v, err := n.Int(name, 0)
	if err != nil || v == 0 {
		return payload.Undefined, err
	}
	if v < 0 || v > maxONNXDType || !ok(payload.DType(v)) {
		return payload.Undefined, invalidAttr(n, "%s %d is not an element type the op takes", name, v)
	}
	return payload.DType(v), nil
}

// bindQuant reads axis and block_size with the defaults of opset.
func bindQuant(n *Node, opset int64) (Quant, error) {
	q := Quant{Axis: 1, PerTensorOnly: opset < 13}
	var err error
	if opset >= 13 {
		if q.Axis, err = n.Int("axis", 1); err != nil {
			return q, err
		}
	}
	if opset >= 21 {
		if q.BlockSize, err = n.Int("block_size", 0); err != nil {
			return q, err
		}
		if q.BlockSize < 0 || q.BlockSize > int64(maxDimValue) {
			return q, invalidAttr(n, "block_size %d", q.BlockSize)
		}
	}
	return q, nil
}

// Infer checks the scale (input si) and zero point (input si+1) against
// x (input 0), and sets output 0 to x's shape and element type dt.
func (q *Quant) infer(c *InferCtx, si int, dt payload.DType) error {
	c.SameShape(0, 0, dt)
	s, sok := c.Dims(si)
	if z, zok := c.Dims(si + 1); zok && sok && !sameQuantShape(s, z) {
		return c.Errorf("zero point of shape %v for a scale of shape %v", z, s)
	}
	if !sok {
		return nil
	}
	x, xok := c.Dims(0)
	ns, known, err := c.Numel(s)
	if err != nil {
		return err
	}
	switch {
	case q.BlockSize == 0 && len(s) <= 1 && known && ns == 1:
		return nil // per tensor
	case q.PerTensorOnly:
		return c.Errorf("scale of shape %v: opset %d takes a single scale", s, c.Opset())
	case !xok:
		return nil
	}
	ax, err := c.Axis(q.Axis, len(x))
	if err != nil {
		return err
	}
	if q.BlockSize == 0 {
		if len(s) != 1 {
			return c.Errorf("scale of shape %v: want one value or one per index of axis %d of %v", s, q.Axis, x)
		}
		if dimsConflict(s[0], x[ax]) {
			return c.Errorf("scale of %d values for axis %d of %v", s[0], q.Axis, x)
		}
		return nil
	}
	if len(s) != len(x) {
		return c.Errorf("blocked scale of shape %v for an input of shape %v", s, x)
	}
	bs := int(q.BlockSize)
	for i, d := range x {
		want := d
		if i == ax && d >= 0 {
			want = (d + bs - 1) / bs
		}
		if dimsConflict(s[i], want) {
			return c.Errorf("blocked scale of shape %v for an input of shape %v with block_size %d on axis %d", s, x, bs, ax)
		}
	}
	return nil
}

// sameQuantShape reports whether a zero point of dims z fits a scale of
// dims s: the same shape, or one value each (a scalar and a 1-element
// vector mix, as ONNX Runtime allows).
func sameQuantShape(s, z []int) bool {
	if len(s) == len(z) {
		for i := range s {
			if dimsConflict(s[i], z[i]) {
				return false
			}
		}
		return true
	}
	return len(s) <= 1 && len(z) <= 1 && (len(s) == 0 || s[0] == 1 || s[0] < 0) && (len(z) == 0 || z[0] == 1 || z[0] < 0)
}

// OutType returns the output's element type for a zero point of type zp
// (Undefined when absent).
func (a *QuantizeLinearAttrs) OutType(zp payload.DType) payload.DType {
	switch {
	case zp != payload.Undefined:
		return zp
	case a.OutputDType != payload.Undefined:
		return a.OutputDType
	}
	return payload.Uint8
}

// Infer implements Rule.
func (a *QuantizeLinearAttrs) Infer(c *InferCtx) error {
	zp := c.DType(2)
	if zp != payload.Undefined && a.OutputDType != payload.Undefined && zp != a.OutputDType {
		return c.Errorf("output_dtype %s and a zero point of type %s", a.OutputDType, zp)
	}
	return a.infer(c, 1, a.OutType(zp))
}

// OutType returns the output's element type for a scale of type scale.
func (a *DequantizeLinearAttrs) OutType(scale payload.DType) payload.DType {
	if a.OutputDType != payload.Undefined {
		return a.OutputDType
	}
	return scale
}

// Infer implements Rule.
func (a *DequantizeLinearAttrs) Infer(c *InferCtx) error {
	if z := c.DType(2); z != payload.Undefined && c.DType(0) != payload.Undefined && z != c.DType(0) {
		return c.Errorf("input of type %s and a zero point of type %s", c.DType(0), z)
	}
	return a.infer(c, 1, a.OutType(c.DType(1)))
}

// Infer implements Rule.
func (a *DynamicQuantizeLinearAttrs) Infer(c *InferCtx) error {
	c.SameShape(0, 0, payload.Uint8)
	c.SetType(1, payload.Float32)
	c.OutDims(1, 0)
	c.SetType(2, payload.Uint8)
	c.OutDims(2, 0)
	return nil
}
