package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "StringNormalizer",
		Versions:   []Version{{Since: 10, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"X"},
		Bind:       bindStringNormalizer,
	})
}

// The case_change_action values of StringNormalizer.
const (
	CaseNone = iota
	CaseLower
	CaseUpper
)

// StringNormalizerAttrs are a StringNormalizer node's attributes. The
// input is [C] or [1, C]; the output has the same rank and holds the
// strings that are not stop words, case-changed. How many remain
// depends on the input's contents: with stop words the rule leaves the
// last dim unknown (-1) and backends fill it in. When every string is a
// stop word the output holds one empty string, as ONNX Runtime gives it;
// an empty input gives an empty output.
type StringNormalizerAttrs struct {
	// CaseChange is CaseNone, CaseLower or CaseUpper.
	CaseChange int
	// CaseSensitive is is_case_sensitive: stop words match exactly, not
	// ignoring case.
	CaseSensitive bool
	// Stopwords are the strings removed.
	Stopwords []string
	// Locale is the locale attribute ("" when absent).
	Locale string
}

func bindStringNormalizer(n *Node, opset int64) (Rule, error) {
	a := &StringNormalizerAttrs{}
	act, err := n.String("case_change_action", "NONE")
	if err != nil {
		return nil, err
	}
	switch act {
	case "NONE":
	case "LOWER":
		a.CaseChange = CaseLower
	case "UPPER":
		a.CaseChange = CaseUpper
	default:
		return nil, invalidAttr(n, "case_change_action must be NONE, LOWER or UPPER, got %q", act)
	}
	cs, err := n.Int("is_case_sensitive", 0)
	if err != nil {
		return nil, err
	}
	if cs != 0 && cs != 1 {
		return nil, invalidAttr(n, "is_case_sensitive must be 0 or 1, got %d", cs)
	}
	a.CaseSensitive = cs == 1
	sw, err := n.attrOf("stopwords", AttrStrings)
	if err != nil {
		return nil, err
	}
	if sw != nil {
		a.Stopwords = sw.Strings
	}
	if a.Locale, err = n.String("locale", ""); err != nil {
		return nil, err
	}
	return a, nil
}

// Infer implements Rule.
func (a *StringNormalizerAttrs) Infer(c *InferCtx) error {
	if dt := c.DType(0); dt != payload.String && dt != payload.Undefined {
		return c.Errorf("input has element type %s, want string", dt)
	}
	c.SetType(0, payload.String)
	d, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	switch {
	case len(d) == 1:
	case len(d) == 2 && (d[0] == 1 || d[0] < 0):
	default:
		return c.Errorf("input shape %v: want [C] or [1, C]", d)
	}
	out := c.OutDims(0, len(d))
	copy(out, d)
	if len(a.Stopwords) > 0 && out[len(d)-1] != 0 {
		out[len(d)-1] = -1
	}
	return nil
}
