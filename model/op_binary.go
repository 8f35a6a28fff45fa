package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// binaryDef describes one elementwise binary op type.
type binaryDef struct {
	since int64
	// toBool is set for the comparisons and the logical ops.
	toBool bool
}

// binaryDefs are the elementwise binary ops. Those since opset 1 take
// the legacy broadcast and axis attributes before opset 7.
var binaryDefs = map[string]binaryDef{
	"Add":            {since: 1},
	"Sub":            {since: 1},
	"Mul":            {since: 1},
	"Div":            {since: 1},
	"Pow":            {since: 1},
	"Mod":            {since: 10},
	"BitShift":       {since: 11},
	"BitwiseAnd":     {since: 18},
	"BitwiseOr":      {since: 18},
	"BitwiseXor":     {since: 18},
	"Equal":          {since: 1, toBool: true},
	"Less":           {since: 1, toBool: true},
	"Greater":        {since: 1, toBool: true},
	"LessOrEqual":    {since: 12, toBool: true},
	"GreaterOrEqual": {since: 12, toBool: true},
	"And":            {since: 1, toBool: true},
	"Or":             {since: 1, toBool: true},
	"Xor":            {since: 1, toBool: true},
}

func init() {
	for name, d := range binaryDefs {
		in := []string{"A", "B"}
		if name == "BitShift" {
			in = []string{"X", "Y"}
		}
		RegisterOp(&Op{
			Type:       name,
			Versions:   []Version{{Since: d.since, MinIn: 2, MaxIn: 2, MaxOut: 1}},
			InputNames: in,
			Bind:       func(n *Node, opset int64) (Rule, error) { return bindBinary(n, opset, d) },
		})
	}
}

// bindBinary reads a binary op's attributes.
func bindBinary(n *Node, opset int64, d binaryDef) (Rule, error) {
	a := &BinaryAttrs{Bool: d.toBool, Axis: NoAxis}
	if d.since < 7 && opset < 7 {
		a.Legacy = true
		b, err := n.Int("broadcast", 0)
		if err != nil {
			return nil, err
		}
		if b != 0 && b != 1 {
			return nil, invalidAttr(n, "broadcast must be 0 or 1, got %d", b)
		}
		a.Broadcast = b == 1
		if n.Has("axis") {
			if a.Axis, err = n.Int("axis", 0); err != nil {
				return nil, err
			}
		}
	}
	switch n.OpType {
	case "Mod":
		fm, err := n.Int("fmod", 0)
		if err != nil {
			return nil, err
		}
		if fm != 0 && fm != 1 {
			return nil, invalidAttr(n, "fmod must be 0 or 1, got %d", fm)
		}
		a.Fmod = fm == 1
	case "BitShift":
		dir, err := n.String("direction", "")
		if err != nil {
			return nil, err
		}
		if dir != "LEFT" && dir != "RIGHT" {
			return nil, invalidAttr(n, "direction must be \"LEFT\" or \"RIGHT\", got %q", dir)
		}
		a.Left = dir == "LEFT"
	}
	return a, nil
}

// invalidAttr refuses a node with a malformed attribute.
func invalidAttr(n *Node, format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): "+format, append([]any{n.Label(), n.OpType}, args...)...)
}

// NoAxis is BinaryAttrs.Axis when the legacy axis attribute is not set.
const NoAxis = int64(-1) << 62

// BinaryAttrs are the attributes of an elementwise binary op: Add, Sub,
// Mul, Div, Pow, Mod, BitShift, the Bitwise ops, the comparisons and the
// logical And, Or, Xor. From opset 7 the output is the multidirectional
// broadcast of the two inputs' shapes; before, it has A's shape, and B
// must have A's shape or, with Broadcast, broadcast to it from Axis.
type BinaryAttrs struct {
	// Bool is set for the comparisons and the logical ops, whose output
	// is bool; the others' output has A's element type.
	Bool bool
	// Legacy is set for the ops' versions before opset 7, which take the
	// broadcast and axis attributes.
	Legacy bool
	// Broadcast is the legacy broadcast attribute: B's shape is matched
	// to a run of A's dims instead of having to equal A's.
	Broadcast bool
	// Axis is the legacy axis attribute: the dim of A where B's dims
	// start, negative counting from A's rank; NoAxis when not set, which
	// aligns B with A's last dims.
	Axis int64
	// Fmod is Mod's fmod attribute: the sign of the result follows the
	// dividend (C's fmod) rather than the divisor.
	Fmod bool
	// Left is BitShift's direction: true for "LEFT", false for "RIGHT".
	Left bool
}

// Infer implements Rule.
func (a *BinaryAttrs) Infer(c *InferCtx) error {
	var err error
	switch {
	case !a.Legacy:
		err = c.Broadcast(0, 0, 1)
	case a.Broadcast:
		err = a.legacyBroadcast(c)
	default:
		err = c.equalShapes(0, 2)
	}
	if err != nil {
		return err
	}
	if a.Bool {
		c.SetType(0, payload.Bool)
	} else {
		c.SetType(0, c.DType(0))
	}
	return nil
}

// LegacyAxis returns where B's dims start in A's under the legacy
// broadcast, for A of rank ra and B of rank rb, and false when B does
// not fit there.
func (a *BinaryAttrs) LegacyAxis(ra, rb int) (int, bool) {
	ax := int64(ra - rb)
	if a.Axis != NoAxis {
		ax = a.Axis
		if ax < 0 {
			ax += int64(ra)
		}
	}
	if rb > ra || ax < 0 || ax > int64(ra-rb) {
		return 0, false
	}
	return int(ax), true
}

// legacyBroadcast sets the output to A's shape after checking that B's
// dims match A's from the legacy axis on (a 1 in B matches any dim).
func (a *BinaryAttrs) legacyBroadcast(c *InferCtx) error {
	s, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	out := c.OutDims(0, len(s))
	copy(out, s)
	b, ok := c.Dims(1)
	if !ok {
		return nil
	}
	ax, ok := a.LegacyAxis(len(s), len(b))
	if !ok {
		return c.Errorf("B's shape %v does not fit in A's %v at axis %d", b, s, a.axisForMsg())
	}
	for i, d := range b {
		if d != 1 && !narrowDim(&out[ax+i], d) {
			return c.Errorf("B's shape %v does not broadcast to A's %v at axis %d", b, s, ax)
		}
	}
	return nil
}

// axisForMsg returns the axis attribute, or -1 when it is not set.
func (a *BinaryAttrs) axisForMsg() int64 {
	if a.Axis == NoAxis {
		return -1
	}
	return a.Axis
}
