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
	// FuseIntegerScale's node after a ConvInteger (see
	// ConvIntegerToFloat).
	RegisterOp(&Op{
		Domain:     EwDomain,
		Type:       ConvIntegerToFloat,
		Versions:   []Version{{Since: 1, MinIn: 5, MaxIn: 6, MaxOut: 1}},
		InputNames: []string{"x", "w", "x_zero_point", "w_zero_point", "scale", "B"},
		Bind:       bindConvIntegerToFloat,
	})
	// FuseAttention's node: Attention as opset 23 defines it, with Q, K,
	// V, an optional attn_mask that must cover every key
	// (AttentionAttrs.MaskExact), and past_key and past_value with the
	// present outputs where it took in a cache's Concats.
	RegisterOp(&Op{
		Domain:     EwDomain,
		Type:       "Attention",
		Versions:   []Version{{Since: 1, MinIn: 3, MaxIn: 6, MaxOut: 3}},
		InputNames: []string{"Q", "K", "V", "attn_mask", "past_key", "past_value"},
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
// program, whose inputs broadcast together as the unfused nodes'
// operands did.
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

// Infer implements Rule: every input is float32, and the output has the
// multidirectional broadcast of their shapes, the shape the unfused
// nodes end with.
func (a *ElementwiseAttrs) Infer(c *InferCtx) error {
	for i := range c.NumIn() {
		if dt := c.DType(i); dt != payload.Float32 && dt != payload.Undefined {
			return c.Errorf("input %d is %s, want float32", i, dt)
		}
	}
	if err := c.Broadcast(0); err != nil {
		return err
	}
	c.SetType(0, payload.Float32)
	return nil
}

// EwSpan reports how an input of shape in broadcasts to a program's
// output of shape out when its dims, aligned to the right, are 1 except
// along one run of consecutive axes where they equal out's: output
// element e (row-major) reads input element (e/inner)%span, inner being
// the product of out's dims after the run and span the input's element
// count. A per-channel [1, C, 1, 1] against [N, C, H, W] has inner H·W;
// a bias [C] against [N, T, C] has inner 1. It reports false for any
// other shape (more dims than out, a dim that neither is 1 nor matches),
// and for an input of out's own element count, which needs no span.
func EwSpan(in, out []int) (inner, span int, ok bool) {
	if len(in) > len(out) {
		return 0, 0, false
	}
	off := len(out) - len(in)
	first, last := -1, -1
	for j, v := range in {
		if v != 1 {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	inner, span = 1, 1
	if first >= 0 {
		for j := first; j <= last; j++ {
			if in[j] != out[off+j] {
				return 0, 0, false
			}
			span *= in[j]
		}
		for _, v := range out[off+last+1:] {
			inner *= v
		}
	}
	total := 1
	for _, v := range out {
		total *= v
	}
	if span == total {
		return 0, 0, false
	}
	return inner, span, true
}

// ConvIntegerToFloatAttrs are the rule of a ConvIntegerToFloat node:
// ConvInteger's attributes, and whether a Relu follows the bias.
type ConvIntegerToFloatAttrs struct {
	ConvAttrs
	Relu bool
}

// bindConvIntegerToFloat binds ConvInteger's attributes and the node's
// fused activation, which may only be Relu.
func bindConvIntegerToFloat(n *Node, _ int64) (Rule, error) {
	a := &ConvIntegerToFloatAttrs{}
	if fu := n.Fused; fu != nil {
		if fu.Bias || fu.Prog != nil || (fu.Act != "" && fu.Act != "Relu") {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): fused tail other than Relu", n.Label(), n.OpType)
		}
		a.Relu = fu.Act == "Relu"
	}
	var err error
	a.Window, a.Group, err = bindConvCommon(n)
	return a, err
}

// Infer implements Rule.
func (a *ConvIntegerToFloatAttrs) Infer(c *InferCtx) error {
	err := convAs(c, &a.ConvAttrs, 1, -1)
	c.SetType(0, payload.Float32)
	return err
}
