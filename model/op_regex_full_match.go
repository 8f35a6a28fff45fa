package model

import (
	"regexp"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:       "RegexFullMatch",
		Versions:   []Version{{Since: 20, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"X"},
		Bind:       bindRegexFullMatch,
	})
}

// RegexFullMatchAttrs are a RegexFullMatch node's attributes. The output
// is bool, of the input's shape: whether each string matches Pattern in
// full.
type RegexFullMatchAttrs struct {
	// Pattern is the pattern attribute, in RE2 syntax (what ONNX Runtime
	// uses, and Go's regexp).
	Pattern string
	// Re is Pattern compiled to match whole strings only.
	Re *regexp.Regexp
}

func bindRegexFullMatch(n *Node, opset int64) (Rule, error) {
	p, err := n.String("pattern", "")
	if err != nil {
		return nil, err
	}
	if !n.Has("pattern") {
		return nil, invalidAttr(n, "the pattern attribute is required")
	}
	re, err := regexp.Compile(`\A(?:` + p + `)\z`)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArtifact, err, "node %q (%s): pattern %q", n.Label(), n.OpType, p)
	}
	return &RegexFullMatchAttrs{Pattern: p, Re: re}, nil
}

// Infer implements Rule.
func (a *RegexFullMatchAttrs) Infer(c *InferCtx) error {
	if dt := c.DType(0); dt != payload.String && dt != payload.Undefined {
		return c.Errorf("input has element type %s, want string", dt)
	}
	c.SameShape(0, 0, payload.Bool)
	return nil
}
