package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "MatMulInteger",
		Versions:   []Version{{Since: 10, MinIn: 2, MaxIn: 4, MaxOut: 1}},
		InputNames: []string{"A", "B", "a_zero_point", "b_zero_point"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &MatMulIntegerAttrs{}, nil },
	})
	RegisterOp(&Op{
		Type: "QLinearMatMul",
		// A ninth input is the int32 bias FuseQDQ folds in.
		Versions:   []Version{{Since: 10, MinIn: 8, MaxIn: 9, MaxOut: 1}},
		InputNames: []string{"a", "a_scale", "a_zero_point", "b", "b_scale", "b_zero_point", "y_scale", "y_zero_point", "bias"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &QLinearMatMulAttrs{Bias: n.Fused != nil && n.Fused.Bias}
			switch {
			case a.Bias && n.Input(8) == "":
				return nil, attrErr(n, "the fused bias input is missing")
			case !a.Bias && n.NumInputs() > 8:
				return nil, attrErr(n, "%d inputs, the op takes 8", n.NumInputs())
			}
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "ConvInteger",
		Versions:   []Version{{Since: 10, MinIn: 2, MaxIn: 4, MaxOut: 1}},
		InputNames: []string{"x", "w", "x_zero_point", "w_zero_point"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ConvIntegerAttrs{}
			var err error
			a.Window, a.Group, err = bindConvCommon(n)
			return a, err
		},
	})
	RegisterOp(&Op{
		Type:     "QLinearConv",
		Versions: []Version{{Since: 10, MinIn: 8, MaxIn: 9, MaxOut: 1}},
		InputNames: []string{"x", "x_scale", "x_zero_point", "w", "w_scale", "w_zero_point",
			"y_scale", "y_zero_point", "B"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &QLinearConvAttrs{}
			var err error
			a.Window, a.Group, err = bindConvCommon(n)
			return a, err
		},
	})
}

// MatMulIntegerAttrs are a MatMulInteger node's attributes: it has none.
// The int32 output is MatMul's product of A - a_zero_point and
// B - b_zero_point, 8-bit integers; a_zero_point holds one value or one
// per row of A, b_zero_point one value or one per column of B.
type MatMulIntegerAttrs struct{}

// QLinearMatMulAttrs are a QLinearMatMul node's attributes: it has none.
// The int32 product of a - a_zero_point and b - b_zero_point is scaled by
// a_scale * b_scale / y_scale, rounded half to even, offset by
// y_zero_point and saturated to y_zero_point's type. b_scale and
// b_zero_point hold one value or one per column of b.
type QLinearMatMulAttrs struct {
	// Bias is set when FuseQDQ folded a Gemm's int32 bias in: its ninth
	// input, one int32 per column, is added to every row of the int32
	// product before the scaling.
	Bias bool
}

// ConvIntegerAttrs are a ConvInteger node's attributes, Conv's but for the
// bias: the int32 output convolves x - x_zero_point with w - w_zero_point
// (one value, or one per output channel), the padding reading as the zero
// point.
type ConvIntegerAttrs ConvAttrs

// QLinearConvAttrs are a QLinearConv node's attributes, Conv's: the int32
// convolution of x - x_zero_point with w - w_zero_point (one value or one
// per output channel), plus the int32 bias B, is scaled by
// x_scale * w_scale / y_scale (w_scale one value or one per output
// channel), rounded half to even, offset by y_zero_point and saturated to
// its type.
type QLinearConvAttrs ConvAttrs

// Infer implements Rule.
func (a *MatMulIntegerAttrs) Infer(c *InferCtx) error {
	_, err := matmulDims(c, 0, 1)
	c.SetType(0, payload.Int32)
	return err
}

// Infer implements Rule.
func (a *QLinearMatMulAttrs) Infer(c *InferCtx) error {
	_, err := matmulDims(c, 0, 3)
	c.SetType(0, qlinearOutType(c, 7))
	return err
}

// qlinearOutType is the element type of a QLinear op's output: its zero
// point's (input zi), else its first input's.
func qlinearOutType(c *InferCtx, zi int) payload.DType {
	if dt := c.DType(zi); dt != payload.Undefined {
		return dt
	}
	return c.DType(0)
}

// convAs runs Conv's rule with w (input wi) and the bias (input bi, or
// none when bi < 0) moved into Conv's slots 1 and 2, then puts the inputs
// back.
func convAs(c *InferCtx, a *ConvAttrs, wi, bi int) error {
	var saved [2]Value
	copy(saved[:], c.in[1:min(3, len(c.in))])
	c.in[1] = c.in[wi]
	var bias Value
	if bi >= 0 && bi < len(c.in) {
		bias = c.in[bi]
	}
	if len(c.in) > 2 {
		c.in[2] = bias
	}
	err := a.Infer(c)
	copy(c.in[1:min(3, len(c.in))], saved[:])
	return err
}

// Infer implements Rule.
func (a *ConvIntegerAttrs) Infer(c *InferCtx) error {
	err := convAs(c, (*ConvAttrs)(a), 1, -1)
	c.SetType(0, payload.Int32)
	return err
}

// Infer implements Rule.
func (a *QLinearConvAttrs) Infer(c *InferCtx) error {
	err := convAs(c, (*ConvAttrs)(a), 3, 8)
	c.SetType(0, qlinearOutType(c, 7))
	return err
}
