package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// The quantized ops of ONNX Runtime's contrib domain that its
// quantization tools emit (docs/transformers.md lists what each runs).

func init() {
	binary := func(typ string) {
		RegisterOp(&Op{
			Domain: MSDomain,
			Type:   typ,
			// The zero points are optional, inputs 2 and 5: the backends
			// check that B (3) and the scales are present.
			Versions: []Version{{Since: 1, MinIn: 2, MaxIn: 8, MaxOut: 1}},
			InputNames: []string{"A", "A_scale", "A_zero_point", "B", "B_scale", "B_zero_point",
				"C_scale", "C_zero_point"},
			Bind: func(n *Node, _ int64) (Rule, error) { return &QLinearBinaryAttrs{Mul: typ == "QLinearMul"}, nil },
		})
	}
	binary("QLinearAdd")
	binary("QLinearMul")
	lookup := func(typ string) {
		RegisterOp(&Op{
			Domain: MSDomain,
			Type:   typ,
			// X_zero_point, input 2, is optional: the backends check
			// that Y_scale (3) is present.
			Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 5, MaxOut: 1}},
			InputNames: []string{"X", "X_scale", "X_zero_point", "Y_scale", "Y_zero_point"},
			Bind: func(n *Node, _ int64) (Rule, error) {
				a := &QLinearLookupAttrs{Leaky: typ == "QLinearLeakyRelu"}
				if a.Leaky {
					var err error
					if a.Alpha, err = n.Float("alpha", 0.01); err != nil {
						return nil, err
					}
				}
				return a, nil
			},
		})
	}
	lookup("QLinearSigmoid")
	lookup("QLinearLeakyRelu")
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "QLinearGlobalAveragePool",
		Versions:   []Version{{Since: 1, MinIn: 5, MaxIn: 5, MaxOut: 1}},
		InputNames: []string{"X", "x_scale", "x_zero_point", "y_scale", "y_zero_point"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			cl, err := flagAttr(n, "channels_last", false)
			return &QLinearGlobalAveragePoolAttrs{ChannelsLast: cl}, err
		},
	})
	RegisterOp(&Op{
		Domain: MSDomain,
		Type:   "QLinearAveragePool",
		// The zero points are optional: the backends check that
		// y_scale (3) is present.
		Versions:   []Version{{Since: 1, MinIn: 4, MaxIn: 5, MaxOut: 1}},
		InputNames: []string{"X", "x_scale", "x_zero_point", "y_scale", "y_zero_point"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &QLinearAveragePoolAttrs{}
			var err error
			if a.Window, err = bindWindow(n, true); err != nil {
				return nil, err
			}
			if a.Window.KernelShape == nil {
				return nil, attrMissing(n, "kernel_shape")
			}
			for _, d := range a.Window.Dilations {
				if d != 1 {
					return nil, errs.New(errs.Unsupported, "node %q (%s): dilations %v (ONNX Runtime's kernel has none)", n.Label(), n.OpType, a.Window.Dilations)
				}
			}
			if a.CountIncludePad, err = flagAttr(n, "count_include_pad", false); err != nil {
				return nil, err
			}
			a.ChannelsLast, err = flagAttr(n, "channels_last", false)
			return a, err
		},
	})
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "QLinearConcat",
		Versions:   []Version{{Since: 1, MinIn: 5, MaxIn: Many, MaxOut: 1}},
		InputNames: []string{"Y_scale", "Y_zero_point", "inputs"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			if !n.Has("axis") {
				return nil, attrMissing(n, "axis")
			}
			if (len(n.Inputs)-2)%3 != 0 {
				return nil, invalidAttr(n, "%d inputs: want Y_scale, Y_zero_point and (X, X_scale, X_zero_point) triples", len(n.Inputs))
			}
			a, err := n.Int("axis", 0)
			return &QLinearConcatAttrs{Axis: a}, err
		},
	})
	RegisterOp(&Op{
		Domain:   MSDomain,
		Type:     "QGemm",
		Versions: []Version{{Since: 1, MinIn: 6, MaxIn: 9, MaxOut: 1}},
		InputNames: []string{"A", "a_scale", "a_zero_point", "B", "b_scale", "b_zero_point", "C",
			"y_scale", "y_zero_point"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &QGemmAttrs{}
			var err error
			if a.TransA, err = flagAttr(n, "transA", false); err != nil {
				return nil, err
			}
			if a.TransB, err = flagAttr(n, "transB", false); err != nil {
				return nil, err
			}
			a.Alpha, err = n.Float("alpha", 1)
			return a, err
		},
	})
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "DynamicQuantizeMatMul",
		Versions:   []Version{{Since: 1, MinIn: 3, MaxIn: 5, MaxOut: 1}},
		InputNames: []string{"A", "B", "b_scale", "b_zero_point", "bias"},
		Bind:       func(n *Node, _ int64) (Rule, error) { return &QMatMulToFloatAttrs{Dynamic: true}, nil },
	})
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "MatMulIntegerToFloat",
		Versions:   []Version{{Since: 1, MinIn: 4, MaxIn: 7, MaxOut: 1}},
		InputNames: []string{"A", "B", "a_scale", "b_scale", "a_zero_point", "b_zero_point", "bias"},
		Bind:       func(n *Node, _ int64) (Rule, error) { return &QMatMulToFloatAttrs{}, nil },
	})
}

// QLinearBinaryAttrs are the attributes of QLinearAdd and QLinearMul: they
// have none. A and B, 8-bit and of one type, broadcast as Add's operands;
// each is dequantized with its scalar scale and zero point, added or
// multiplied, and quantized with C's.
type QLinearBinaryAttrs struct {
	// Mul is QLinearMul; QLinearAdd otherwise.
	Mul bool
}

// Infer implements Rule.
func (a *QLinearBinaryAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	return c.Broadcast(0, 0, 3)
}

// QLinearLookupAttrs are the attributes of QLinearSigmoid and
// QLinearLeakyRelu: the 8-bit X is dequantized with its scalar scale and
// zero point, the activation applied, and the result quantized with Y's.
// The output has X's shape and type.
type QLinearLookupAttrs struct {
	// Leaky is QLinearLeakyRelu, with slope Alpha (default 0.01) below
	// zero; QLinearSigmoid otherwise.
	Leaky bool
	Alpha float32
}

// Infer implements Rule.
func (a *QLinearLookupAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	return nil
}

// QLinearGlobalAveragePoolAttrs are a QLinearGlobalAveragePool node's
// attributes: the 8-bit X, of rank 3 or more, is averaged over its spatial
// dims (all but the first two, or but the first and last when
// ChannelsLast), which become 1 in the output.
type QLinearGlobalAveragePoolAttrs struct {
	ChannelsLast bool
}

// Infer implements Rule.
func (a *QLinearGlobalAveragePoolAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	if len(x) < 3 {
		return c.Errorf("X has shape %v: want rank 3 or more", x)
	}
	out := c.OutDims(0, len(x))
	copy(out, x)
	lo, hi := 2, len(x)
	if a.ChannelsLast {
		lo, hi = 1, len(x)-1
	}
	for i := lo; i < hi; i++ {
		out[i] = 1
	}
	return nil
}

// QLinearAveragePoolAttrs are a QLinearAveragePool node's attributes:
// AveragePool's window (no dilations) over the 8-bit X of one to three
// spatial dims, NCHW or, with ChannelsLast, NHWC. As ONNX Runtime's
// kernel computes it, each window's values are dequantized with X's
// scalar scale and zero point and summed in float32 in order, the sum
// divided by the kernel's size (CountIncludePad) or by the number of
// input values the window covers, and quantized with Y's; a window the
// size of the whole image without pads is GlobalAveragePool's integer
// average instead.
type QLinearAveragePoolAttrs struct {
	Window          Window
	CountIncludePad bool
	ChannelsLast    bool
}

// Infer implements Rule.
func (a *QLinearAveragePoolAttrs) Infer(c *InferCtx) error {
	w := &a.Window
	nd := len(w.KernelShape)
	c.SetType(0, c.DType(0))
	x, ok := c.Dims(0)
	if !ok {
		if err := c.RankOK(nd + 2); err != nil {
			return err
		}
		c.SetUnknownDims(0, nd+2)
		return nil
	}
	if nd > 3 {
		return c.Errorf("kernel_shape %v: at most 3 spatial dims", w.KernelShape)
	}
	sp := 2 // the first spatial dim
	if a.ChannelsLast {
		sp = 1
	}
	_, err := poolOutDims(c, w, x, sp)
	return err
}

// QLinearConcatAttrs are a QLinearConcat node's attributes: its inputs
// are Y_scale and Y_zero_point, then one (X, X_scale, X_zero_point)
// triple per tensor; each X is requantized to Y's scale and zero point
// and the tensors joined along Axis as Concat joins them.
type QLinearConcatAttrs struct {
	Axis int64
}

// Infer implements Rule.
func (a *QLinearConcatAttrs) Infer(c *InferCtx) error {
	c.SetType(0, qlinearOutType(c, 1))
	return concatDims(c, a.Axis, 2, 3)
}

// QGemmAttrs are a QGemm node's attributes: Y = Alpha·op(A - a_zero_point)
// ·op(B - b_zero_point)·a_scale·b_scale + C·Alpha·a_scale·b_scale, the
// product in int32, C an int32 bias that broadcasts to (M, N); Y is
// quantized with y_scale and y_zero_point when they are given, float32
// otherwise. b_scale and b_zero_point hold one value or one per column.
type QGemmAttrs struct {
	TransA, TransB bool
	Alpha          float32
}

// Infer implements Rule.
func (a *QGemmAttrs) Infer(c *InferCtx) error {
	g := GemmAttrs{TransA: a.TransA, TransB: a.TransB, BroadcastC: true}
	var saved [2]Value
	copy(saved[:], c.in[1:3])
	c.in[1], c.in[2] = c.in[3], Value{}
	if len(c.in) > 6 {
		c.in[2] = c.in[6]
	}
	err := g.Infer(c)
	copy(c.in[1:3], saved[:])
	dt := payload.Float32
	if c.Has(8) {
		dt = c.DType(8)
	}
	c.SetType(0, dt)
	return err
}

// QMatMulToFloatAttrs are the attributes of DynamicQuantizeMatMul and
// MatMulIntegerToFloat: they have none. Y, float, is MatMul's product of
// A - a_zero_point and B - b_zero_point, in int32, times a_scale·b_scale,
// plus the bias (one value per column). DynamicQuantizeMatMul quantizes
// its float A to uint8 first, as DynamicQuantizeLinear does; b_scale and
// b_zero_point hold one value or one per column.
type QMatMulToFloatAttrs struct {
	Dynamic bool
}

// Infer implements Rule.
func (a *QMatMulToFloatAttrs) Infer(c *InferCtx) error {
	n, err := matmulDims(c, 0, 1)
	if a.Dynamic {
		c.SetType(0, c.DType(0))
	} else {
		c.SetType(0, c.DType(2))
	}
	if err != nil {
		return err
	}
	bi := 6
	if a.Dynamic {
		bi = 4
	}
	if b, ok := c.Dims(bi); ok && (len(b) != 1 || dimsConflict(b[0], n)) {
		return c.Errorf("bias has shape %v, want [%d] (B's columns)", b, n)
	}
	return nil
}
