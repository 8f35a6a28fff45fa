package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Domain:   EwDomain,
		Type:     EwOpType,
		Versions: []Version{{Since: 1, MinIn: 1, MaxIn: Many, MaxOut: 1}},
		Bind:     bindElementwise,
		NoFold:   true,
	})
	// FuseNorms's node below opset 17: LayerNormalization as opset
	// 17 defines it.
	RegisterOp(&Op{
		Domain:     EwDomain,
		Type:       "LayerNormalization",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"X", "Scale", "B"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			return LookupOp("", "LayerNormalization").Bind(n, 17)
		},
	})
	// FuseNorms's node below opset 23: RMSNormalization as opset 23
	// defines it.
	RegisterOp(&Op{
		Domain:     EwDomain,
		Type:       "RMSNormalization",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"X", "scale"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			return LookupOp("", "RMSNormalization").Bind(n, 23)
		},
	})
	// FuseAttention's node: Attention as opset 23 defines it, with Q, K,
	// V and an optional attn_mask that must cover every key
	// (AttentionAttrs.MaskExact).
	RegisterOp(&Op{
		Domain:     EwDomain,
		Type:       "Attention",
		Versions:   []Version{{Since: 1, MinIn: 3, MaxIn: 4, MaxOut: 1}},
		InputNames: []string{"Q", "K", "V", "attn_mask"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			r, err := LookupOp("", "Attention").Bind(n, 23)
			if err != nil {
				return nil, err
			}
			a := r.(*AttentionAttrs)
			a.MaskExact = true
			return a, nil
		},
	})
}

// ElementwiseAttrs is the rule of a node FuseElementwise wrote: its
// program, whose inputs all have the first input's shape.
type ElementwiseAttrs struct {
	Prog *EwProgram
}

// bindElementwise refuses a node that carries no program (one a file
// wrote) or whose program does not fit its inputs.
func bindElementwise(n *Node, _ int64) (Rule, error) {
	if n.Fused == nil || n.Fused.Prog == nil {
		return nil, errs.New(errs.Unsupported, "node %q (%s): domain %q is internal to lintel", n.Label(), n.OpType, n.Domain)
	}
	p := n.Fused.Prog
	if err := p.Check(); err != nil {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): %v", n.Label(), n.OpType, err)
	}
	if p.Inputs != len(n.Inputs) {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): program of %d inputs on %d", n.Label(), n.OpType, p.Inputs, len(n.Inputs))
	}
	return &ElementwiseAttrs{Prog: p}, nil
}

// Check reports a program whose registers, ops or constants are out of
// place, as an errs.InvalidArtifact error.
func (p *EwProgram) Check() error {
	if p.Inputs < 1 || len(p.Steps) == 0 || len(p.Steps) > EwMaxSteps {
		return errs.New(errs.InvalidArtifact, "elementwise program of %d inputs and %d steps", p.Inputs, len(p.Steps))
	}
	for s, st := range p.Steps {
		top := p.Inputs + s
		want := 0
		switch {
		case ewUnaryOps[st.Op]:
			want = 2
		case st.Op == "Clip":
			want = 2
		case st.Op == "Identity":
		case ewBinaryOps[st.Op]:
			if st.Y < 0 {
				want = 1
			}
		default:
			return errs.New(errs.InvalidArtifact, "elementwise step %d: op %q", s, st.Op)
		}
		binary := ewBinaryOps[st.Op]
		if st.X < 0 || st.X >= top || st.Y >= top || (!binary && st.Y >= 0) || len(st.K) != want {
			return errs.New(errs.InvalidArtifact, "elementwise step %d (%s): registers %d, %d of %d, %d constants", s, st.Op, st.X, st.Y, top, len(st.K))
		}
	}
	return nil
}

// Infer implements Rule: the output has input 0's shape, and every input
// is float32 of that shape.
func (a *ElementwiseAttrs) Infer(c *InferCtx) error {
	d0, ok0 := c.Dims(0)
	for i := range c.NumIn() {
		if dt := c.DType(i); dt != payload.Float32 && dt != payload.Undefined {
			return c.Errorf("input %d is %s, want float32", i, dt)
		}
		if i == 0 || !ok0 {
			continue
		}
		d, ok := c.Dims(i)
		if !ok {
			continue
		}
		if len(d) != len(d0) {
			return c.Errorf("input %d has rank %d, want %d", i, len(d), len(d0))
		}
		for j := range d {
			if d[j] >= 0 && d0[j] >= 0 && d[j] != d0[j] {
				return c.Errorf("input %d has shape %v, want %v", i, d, d0)
			}
		}
	}
	c.SameShape(0, 0, payload.Float32)
	return nil
}
