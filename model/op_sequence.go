package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// The sequence ops (docs/adr/0026-sequences-and-optionals.md). None may
// be folded: a folded constant is a tensor, never a sequence.
func init() {
	seqOp := func(typ string, minIn, maxIn int, names []string, bind func(n *Node, opset int64) (Rule, error)) {
		RegisterOp(&Op{
			Type:       typ,
			Versions:   []Version{{Since: 11, MinIn: minIn, MaxIn: maxIn, MaxOut: 1}},
			InputNames: names,
			Bind:       bind,
			NoFold:     true,
		})
	}
	seqOp("SequenceEmpty", 0, 0, nil, func(n *Node, opset int64) (Rule, error) {
		dt, err := n.Int("dtype", int64(payload.Float32))
		if err != nil {
			return nil, err
		}
		if dt <= 0 || dt > 255 || (!payload.DType(dt).Valid() && payload.DType(dt) != payload.String) {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): dtype %d is not an element type", n.Label(), n.OpType, dt)
		}
		return &SequenceEmptyAttrs{DType: payload.DType(dt)}, nil
	})
	seqOp("SequenceConstruct", 1, Many, []string{"inputs"}, func(n *Node, opset int64) (Rule, error) { return &SequenceConstructAttrs{}, nil })
	seqOp("SequenceInsert", 2, 3, []string{"input_sequence", "tensor", "position"}, func(n *Node, opset int64) (Rule, error) { return &SequenceInsertAttrs{}, nil })
	seqOp("SequenceErase", 1, 2, []string{"input_sequence", "position"}, func(n *Node, opset int64) (Rule, error) { return &SequenceEraseAttrs{}, nil })
	seqOp("SequenceAt", 2, 2, []string{"input_sequence", "position"}, func(n *Node, opset int64) (Rule, error) { return &SequenceAtAttrs{}, nil })
	seqOp("SequenceLength", 1, 1, []string{"input_sequence"}, func(n *Node, opset int64) (Rule, error) { return &SequenceLengthAttrs{}, nil })
	seqOp("SplitToSequence", 1, 2, []string{"input", "split"}, func(n *Node, opset int64) (Rule, error) {
		a := &SplitToSequenceAttrs{}
		var err error
		if a.Axis, err = n.Int("axis", 0); err != nil {
			return nil, err
		}
		keep, err := n.Int("keepdims", 1)
		if err != nil {
			return nil, err
		}
		a.KeepDims = keep != 0
		return a, nil
	})
	seqOp("ConcatFromSequence", 1, 1, []string{"input_sequence"}, func(n *Node, opset int64) (Rule, error) {
		a := &ConcatFromSequenceAttrs{}
		if !n.Has("axis") {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): attribute axis is required", n.Label(), n.OpType)
		}
		var err error
		if a.Axis, err = n.Int("axis", 0); err != nil {
			return nil, err
		}
		na, err := n.Int("new_axis", 0)
		if err != nil {
			return nil, err
		}
		a.NewAxis = na != 0
		return a, nil
	})
}

// seqOut sets output j to a sequence of elements of type dt and unknown
// shape.
func seqOut(c *InferCtx, j int, dt payload.DType) {
	c.SetType(j, dt)
	c.SetUnranked(j)
	c.SetKind(j, KindSequence)
}

// checkElem refuses input i when its element type is known and not dt.
func checkElem(c *InferCtx, i int, dt payload.DType) error {
	if t := c.DType(i); t != payload.Undefined && dt != payload.Undefined && t != dt {
		return c.Errorf("input %d holds %s, the sequence %s", i, t, dt)
	}
	return nil
}

// SequenceEmptyAttrs are a SequenceEmpty node's attributes: the output is
// an empty sequence of DType elements.
type SequenceEmptyAttrs struct {
	// DType is the dtype attribute, float by default.
	DType payload.DType
}

// Infer implements Rule.
func (a *SequenceEmptyAttrs) Infer(c *InferCtx) error {
	seqOut(c, 0, a.DType)
	return nil
}

// SequenceConstructAttrs are a SequenceConstruct node's (none): the
// output is the sequence of its inputs, which share an element type.
type SequenceConstructAttrs struct{}

// Infer implements Rule.
func (a *SequenceConstructAttrs) Infer(c *InferCtx) error {
	dt := c.DType(0)
	for i := 1; i < c.NumIn(); i++ {
		if !c.Has(i) {
			return c.Errorf("input %d is required", i)
		}
		if err := checkElem(c, i, dt); err != nil {
			return err
		}
	}
	seqOut(c, 0, dt)
	return nil
}

// SequenceInsertAttrs are a SequenceInsert node's (none): the output is
// the sequence with the tensor inserted at position (an int scalar,
// negative from the end; the end when absent).
type SequenceInsertAttrs struct{}

// Infer implements Rule.
func (a *SequenceInsertAttrs) Infer(c *InferCtx) error {
	if err := checkElem(c, 1, c.DType(0)); err != nil {
		return err
	}
	dt := c.DType(0)
	if dt == payload.Undefined {
		dt = c.DType(1)
	}
	seqOut(c, 0, dt)
	return nil
}

// SequenceEraseAttrs are a SequenceErase node's (none): the output is the
// sequence without the tensor at position (the last when absent).
type SequenceEraseAttrs struct{}

// Infer implements Rule.
func (a *SequenceEraseAttrs) Infer(c *InferCtx) error {
	seqOut(c, 0, c.DType(0))
	return nil
}

// SequenceAtAttrs are a SequenceAt node's (none): the output is the
// tensor at position, whose shape is the sequence's element shape when
// the graph gives one.
type SequenceAtAttrs struct{}

// Infer implements Rule.
func (a *SequenceAtAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	c.SetKind(0, KindTensor)
	return nil
}

// SequenceLengthAttrs are a SequenceLength node's (none): the output is
// the number of tensors, an int64 scalar.
type SequenceLengthAttrs struct{}

// Infer implements Rule.
func (a *SequenceLengthAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Int64)
	c.OutDims(0, 0)
	c.SetKind(0, KindTensor)
	return nil
}

// SplitToSequenceAttrs are a SplitToSequence node's attributes: the input
// is cut along Axis into pieces of the split input's lengths (a scalar:
// pieces of that length, the last shorter; a 1-D list: those lengths), or
// into pieces of length 1 without it, which lose the axis unless
// KeepDims.
type SplitToSequenceAttrs struct {
	// Axis is the axis to cut; negatives count from the end.
	Axis int64
	// KeepDims keeps the axis of length-1 pieces when split is absent.
	KeepDims bool
}

// Infer implements Rule.
func (a *SplitToSequenceAttrs) Infer(c *InferCtx) error {
	if r := c.Rank(0); r >= 0 {
		if _, err := c.Axis(a.Axis, r); err != nil {
			return err
		}
	}
	seqOut(c, 0, c.DType(0))
	return nil
}

// ConcatFromSequenceAttrs are a ConcatFromSequence node's attributes: the
// output joins the sequence's tensors along Axis, or stacks them along a
// new axis Axis when NewAxis (then Axis may be the rank, counting from
// rank+1 when negative).
type ConcatFromSequenceAttrs struct {
	// Axis is the axis attribute (required).
	Axis int64
	// NewAxis is new_axis=1.
	NewAxis bool
}

// Infer implements Rule.
func (a *ConcatFromSequenceAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	c.SetKind(0, KindTensor)
	r := c.Rank(0)
	if r < 0 {
		c.SetUnranked(0)
		return nil
	}
	if a.NewAxis {
		r++
	}
	if _, err := c.Axis(a.Axis, r); err != nil {
		return err
	}
	c.SetUnknownDims(0, r)
	return nil
}
