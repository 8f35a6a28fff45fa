package gpu

import (
	"github.com/lintel-ml/lintel/model"
	"math"

	"github.com/lintel-ml/lintel/payload"
)

var unaryCodes = map[string]uint32{
	"Relu": URelu, "Sigmoid": USigmoid, "Tanh": UTanh, "Exp": UExp, "Log": ULog, "Sqrt": USqrt,
	"Neg": UNeg, "Abs": UAbs, "Erf": UErf, "Gelu": UGelu, "LeakyRelu": ULeaky, "Clip": UClip,
	"HardSigmoid": UHardSigmoid, "HardSwish": UHardSwish, "Reciprocal": UReciprocal,
}

var binaryCodes = map[string]uint32{
	"Add": BAdd, "Sub": BSub, "Mul": BMul, "Div": BDiv, "Pow": BPow, "Min": BMin, "Max": BMax,
	"Equal": BEqual, "Less": BLess, "Greater": BGreater, "LessOrEqual": BLessEq, "GreaterOrEqual": BGreaterEq,
}

func init() {
	register(buildUnary, "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Neg", "Abs", "Erf", "Gelu",
		"LeakyRelu", "Clip", "HardSigmoid", "HardSwish", "Reciprocal")
	register(buildBinary, "Add", "Sub", "Mul", "Div", "Pow", "Min", "Max")
	register(buildCompare, "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")
	register(buildWhere, "Where")
	register(buildNot, "Not")
	register(buildCast, "Cast")
}

func buildUnary(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	if err := c.want(x, payload.Float32); err != nil {
		return err
	}
	a := UnaryArgs{N: u32(y.numel()), Op: unaryCodes[c.n.OpType]}
	switch c.n.OpType {
	case "Gelu":
		s, err := c.n.String("approximate", "none")
		if err != nil {
			return err
		}
		switch s {
		case "none":
		case "tanh":
			a.Op = UGeluTanh
		default:
			return c.unsupported("approximate %q", s)
		}
	case "LeakyRelu":
		if a.Alpha, err = c.n.Float("alpha", 0.01); err != nil {
			return err
		}
	case "HardSigmoid":
		if a.Alpha, err = c.n.Float("alpha", 0.2); err != nil {
			return err
		}
		if a.Beta, err = c.n.Float("beta", 0.5); err != nil {
			return err
		}
	case "Clip":
		a.Alpha, a.Beta = -math.MaxFloat32, math.MaxFloat32
		if c.opset < 11 {
			if a.Alpha, err = c.n.Float("min", a.Alpha); err != nil {
				return err
			}
			if a.Beta, err = c.n.Float("max", a.Beta); err != nil {
				return err
			}
			break
		}
		if v, ok, err := c.constFloat(1); err != nil {
			return err
		} else if ok {
			a.Alpha = v
		}
		if v, ok, err := c.constFloat(2); err != nil {
			return err
		} else if ok {
			a.Beta = v
		}
	}
	c.emit1D(KUnary, Pack(nil, &a), y.numel(), x, y)
	return nil
}

// binaryArgsFor fills the strides with which x and z are read for y.
func (c *buildCtx) binaryArgsFor(op uint32, x, z, y *val) (BinaryArgs, error) {
	if err := c.rankOK(x, z, y); err != nil {
		return BinaryArgs{}, err
	}
	sa, ok1 := broadcastStrides(x.shape, y.shape)
	sb, ok2 := broadcastStrides(z.shape, y.shape)
	if !ok1 || !ok2 {
		return BinaryArgs{}, c.invalid("shapes %v and %v do not broadcast to %v", x.shape, z.shape, y.shape)
	}
	a := BinaryArgs{N: u32(y.numel()), Op: op, Rank: u32(len(y.shape))}
	fill(a.Shape[:], y.shape)
	fill(a.SA[:], sa)
	fill(a.SB[:], sb)
	return a, nil
}

func buildBinary(c *buildCtx) error {
	if err := c.legacyBroadcastOK(); err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	if err := c.want(y, payload.Float32); err != nil {
		return err
	}
	var ins []*val
	for _, v := range c.in {
		if v != nil {
			if err := c.want(v, payload.Float32); err != nil {
				return err
			}
			ins = append(ins, v)
		}
	}
	if len(ins) == 0 {
		return c.invalid("no inputs")
	}
	op := binaryCodes[c.n.OpType]
	if len(ins) == 1 {
		// A variadic Min or Max of one input copies it.
		a := UnaryArgs{N: u32(y.numel()), Op: UCopy}
		c.emit1D(KUnary, Pack(nil, &a), y.numel(), ins[0], y)
		return nil
	}
	if len(ins) > 2 && op != BMin && op != BMax {
		return c.invalid("%d inputs", len(ins))
	}
	acc := ins[0]
	for _, z := range ins[1:] {
		// Later rounds read y as they write it, element by element.
		a, err := c.binaryArgsFor(op, acc, z, y)
		if err != nil {
			return err
		}
		c.emit1D(KBinary, Pack(nil, &a), y.numel(), acc, z, y)
		acc = y
	}
	return nil
}

func buildCompare(c *buildCtx) error {
	if err := c.legacyBroadcastOK(); err != nil {
		return err
	}
	x, err := c.input(0)
	if err != nil {
		return err
	}
	z, err := c.input(1)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	for _, v := range []*val{x, z} {
		if err := c.want(v, payload.Float32); err != nil {
			return err
		}
	}
	a, err := c.binaryArgsFor(binaryCodes[c.n.OpType], x, z, y)
	if err != nil {
		return err
	}
	c.emit1D(KCompare, Pack(nil, &a), y.numel(), x, z, y)
	return nil
}

func buildWhere(c *buildCtx) error {
	cond, err := c.input(0)
	if err != nil {
		return err
	}
	x, err := c.input(1)
	if err != nil {
		return err
	}
	z, err := c.input(2)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	if err := c.want(cond, payload.Bool); err != nil {
		return err
	}
	for _, v := range []*val{x, z} {
		if err := c.want(v, payload.Float32); err != nil {
			return err
		}
	}
	if err := c.rankOK(cond, x, z, y); err != nil {
		return err
	}
	sc, ok0 := broadcastStrides(cond.shape, y.shape)
	sa, ok1 := broadcastStrides(x.shape, y.shape)
	sb, ok2 := broadcastStrides(z.shape, y.shape)
	if !ok0 || !ok1 || !ok2 {
		return c.invalid("shapes %v, %v and %v do not broadcast to %v", cond.shape, x.shape, z.shape, y.shape)
	}
	a := WhereArgs{N: u32(y.numel()), Rank: u32(len(y.shape))}
	fill(a.Shape[:], y.shape)
	fill(a.SC[:], sc)
	fill(a.SA[:], sa)
	fill(a.SB[:], sb)
	c.emit1D(KWhere, Pack(nil, &a), y.numel(), cond, x, z, y)
	return nil
}

func buildNot(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	if err := c.want(x, payload.Bool); err != nil {
		return err
	}
	a := UnaryArgs{N: u32(y.numel())}
	c.emit1D(KNot, Pack(nil, &a), y.numel(), x, y)
	return nil
}

// castCode returns the cast kernel's code for dt.
func castCode(dt payload.DType) (uint32, bool) {
	switch dt {
	case payload.Float32:
		return TF32, true
	case payload.Int32:
		return TI32, true
	case payload.Int64:
		return TI64, true
	case payload.Bool:
		return TBool, true
	}
	return 0, false
}

func buildCast(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	if x.dt == y.dt {
		return c.view(0, 0)
	}
	from, ok1 := castCode(x.dt)
	to, ok2 := castCode(y.dt)
	// The kernel converts through float32, exact for everything but
	// integers beyond 2^24, so integer-to-integer casts are refused.
	if !ok1 || !ok2 || (from != TF32 && to != TF32 && from != TBool && to != TBool) {
		return c.unsupported("cast from %s to %s", x.dt, y.dt)
	}
	a := CastArgs{N: u32(y.numel()), From: from, To: to}
	c.emit1D(KCast, Pack(nil, &a), y.numel(), x, y)
	return nil
}

// legacyBroadcastOK refuses a node of an opset before 7 whose broadcast
// and axis attributes align input B with dims of A other than its last
// ones: the kernels broadcast as numpy does, from the last dims, which
// those opsets give only when axis leaves B's dims at A's end.
func (c *buildCtx) legacyBroadcastOK() error {
	if c.opset >= 7 {
		return nil
	}
	_, rule, err := model.BindNode(c.n, c.opset)
	if err != nil {
		return err
	}
	a, ok := rule.(*model.BinaryAttrs)
	if !ok || !a.Legacy || !a.Broadcast || a.Axis == model.NoAxis {
		return nil
	}
	if len(c.in) < 2 || c.in[0] == nil || c.in[1] == nil {
		return nil
	}
	ra, rb := int64(len(c.in[0].shape)), int64(len(c.in[1].shape))
	ax := a.Axis
	if ax < 0 {
		ax += ra
	}
	if ax+rb != ra {
		return c.unsupported("broadcast along axis %d of a rank-%d input (opset %d)", a.Axis, ra, c.opset)
	}
	return nil
}
