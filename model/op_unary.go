package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// unaryAttr names one float attribute of a unary op and its default.
type unaryAttr struct {
	name string
	def  float32
}

// unaryDef describes one elementwise unary op type.
type unaryDef struct {
	since int64
	// alpha and beta are the float attributes read into UnaryAttrs.Alpha
	// and Beta; an empty name is none.
	alpha, beta unaryAttr
	// toBool is set for the ops whose output is bool.
	toBool bool
}

// unaryDefs are the elementwise unary ops whose output has the input's
// shape.
var unaryDefs = map[string]unaryDef{
	"Abs":             {since: 1},
	"Acos":            {since: 7},
	"Acosh":           {since: 9},
	"Asin":            {since: 7},
	"Asinh":           {since: 9},
	"Atan":            {since: 7},
	"Atanh":           {since: 9},
	"BitwiseNot":      {since: 18},
	"Ceil":            {since: 1},
	"Celu":            {since: 12, alpha: unaryAttr{"alpha", 1}},
	"Cos":             {since: 7},
	"Cosh":            {since: 9},
	"Elu":             {since: 1, alpha: unaryAttr{"alpha", 1}},
	"Erf":             {since: 9},
	"Exp":             {since: 1},
	"Floor":           {since: 1},
	"HardSigmoid":     {since: 1, alpha: unaryAttr{"alpha", 0.2}, beta: unaryAttr{"beta", 0.5}},
	"HardSwish":       {since: 14},
	"Identity":        {since: 1},
	"IsNaN":           {since: 9, toBool: true},
	"LeakyRelu":       {since: 1, alpha: unaryAttr{"alpha", 0.01}},
	"Log":             {since: 1},
	"Mish":            {since: 18},
	"Neg":             {since: 1},
	"Not":             {since: 1, toBool: true},
	"Reciprocal":      {since: 1},
	"Relu":            {since: 1},
	"Round":           {since: 11},
	"Selu":            {since: 1, alpha: unaryAttr{"alpha", 1.67326319217681884765625}, beta: unaryAttr{"gamma", 1.05070102214813232421875}},
	"Shrink":          {since: 9, alpha: unaryAttr{"lambd", 0.5}, beta: unaryAttr{"bias", 0}},
	"Sigmoid":         {since: 1},
	"Sign":            {since: 9},
	"Sin":             {since: 7},
	"Sinh":            {since: 9},
	"Softplus":        {since: 1},
	"Softsign":        {since: 1},
	"Swish":           {since: 24, alpha: unaryAttr{"alpha", 1}},
	"Sqrt":            {since: 1},
	"Tan":             {since: 7},
	"Tanh":            {since: 1},
	"ThresholdedRelu": {since: 10, alpha: unaryAttr{"alpha", 1}},
}

func init() {
	for name, d := range unaryDefs {
		RegisterOp(&Op{
			Type:       name,
			Versions:   []Version{{Since: d.since, MinIn: 1, MaxIn: 1, MaxOut: 1}},
			InputNames: []string{"X"},
			Bind:       func(n *Node, opset int64) (Rule, error) { return bindUnary(n, d) },
		})
	}
	RegisterOp(&Op{
		Type:       "Gelu",
		Versions:   []Version{{Since: 20, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			approx, err := n.String("approximate", "none")
			if err != nil {
				return nil, err
			}
			a := &GeluAttrs{}
			switch approx {
			case "none":
			case "tanh":
				a.Tanh = true
			default:
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): approximate must be \"none\" or \"tanh\", got %q", n.Label(), n.OpType, approx)
			}
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "IsInf",
		Versions:   []Version{{Since: 10, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			neg, err := n.Int("detect_negative", 1)
			if err != nil {
				return nil, err
			}
			pos, err := n.Int("detect_positive", 1)
			if err != nil {
				return nil, err
			}
			return &IsInfAttrs{UnaryAttrs: UnaryAttrs{Bool: true}, Negative: neg != 0, Positive: pos != 0}, nil
		},
	})
}

// bindUnary reads the float attributes of a unary op described by d.
func bindUnary(n *Node, d unaryDef) (Rule, error) {
	a := &UnaryAttrs{Alpha: d.alpha.def, Beta: d.beta.def, Bool: d.toBool}
	var err error
	if d.alpha.name != "" {
		if a.Alpha, err = n.Float(d.alpha.name, d.alpha.def); err != nil {
			return nil, err
		}
	}
	if d.beta.name != "" {
		if a.Beta, err = n.Float(d.beta.name, d.beta.def); err != nil {
			return nil, err
		}
	}
	if n.OpType == "Celu" && a.Alpha == 0 {
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): alpha must not be 0", n.Label(), n.OpType)
	}
	return a, nil
}

// UnaryAttrs are the attributes of an elementwise unary op (Relu, Exp,
// LeakyRelu, Not, Identity...): the output has the input's shape, and its
// element type or bool.
type UnaryAttrs struct {
	// Alpha is the op's first float attribute: alpha (LeakyRelu, Elu,
	// Celu, Selu, HardSigmoid, ThresholdedRelu, Swish) or lambd (Shrink), with
	// its default; 0 for an op without one.
	Alpha float32
	// Beta is the op's second float attribute: beta (HardSigmoid), gamma
	// (Selu) or bias (Shrink), with its default; 0 for an op without one.
	Beta float32
	// Bool is set for the ops whose output is bool (Not, IsNaN, IsInf).
	Bool bool
}

// Infer implements Rule.
func (a *UnaryAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if a.Bool {
		c.SetType(0, payload.Bool)
	}
	return nil
}

// GeluAttrs are a Gelu node's attributes.
type GeluAttrs struct {
	UnaryAttrs
	// Tanh selects the tanh approximation (approximate "tanh") over the
	// exact erf form ("none").
	Tanh bool
}

// IsInfAttrs are an IsInf node's attributes: which infinities it detects.
type IsInfAttrs struct {
	UnaryAttrs
	// Negative is detect_negative: -Inf is reported.
	Negative bool
	// Positive is detect_positive: +Inf is reported.
	Positive bool
}
