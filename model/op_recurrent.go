package model

import (
	"math"
	"strings"
)

// What the recurrent ops (RNN, GRU, LSTM) share: their direction,
// activations, clip and layout attributes, and their shape rule.

// RNNDirection is a recurrent op's direction attribute.
type RNNDirection uint8

// The directions.
const (
	RNNForward RNNDirection = iota
	RNNReverse
	RNNBidirectional
)

// Dirs returns the number of directions: 2 when bidirectional, else 1.
func (d RNNDirection) Dirs() int {
	if d == RNNBidirectional {
		return 2
	}
	return 1
}

// RNNActFunc is an activation function the recurrent ops take by name.
type RNNActFunc uint8

// The activation functions, as ONNX names them.
const (
	RNNActRelu RNNActFunc = iota + 1
	RNNActTanh
	RNNActSigmoid
	RNNActAffine
	RNNActLeakyRelu
	RNNActThresholdedRelu
	RNNActScaledTanh
	RNNActHardSigmoid
	RNNActElu
	RNNActSoftsign
	RNNActSoftplus
)

// rnnActInfo is what the activations attribute knows of one function:
// whether it reads alpha and beta, and their defaults.
type rnnActInfo struct {
	f                 RNNActFunc
	hasAlpha, hasBeta bool
	defAlpha, defBeta float32
}

// rnnActs maps the lower-cased names to the functions. The defaults of
// alpha and beta are ONNX Runtime's: 0.01 for LeakyRelu, 0.2 and 0.5
// for HardSigmoid, 1 for Elu, and 0 for every other.
var rnnActs = map[string]rnnActInfo{
	"relu":            {f: RNNActRelu},
	"tanh":            {f: RNNActTanh},
	"sigmoid":         {f: RNNActSigmoid},
	"affine":          {f: RNNActAffine, hasAlpha: true, hasBeta: true},
	"leakyrelu":       {f: RNNActLeakyRelu, hasAlpha: true, defAlpha: 0.01},
	"thresholdedrelu": {f: RNNActThresholdedRelu, hasAlpha: true},
	"scaledtanh":      {f: RNNActScaledTanh, hasAlpha: true, hasBeta: true},
	"hardsigmoid":     {f: RNNActHardSigmoid, hasAlpha: true, hasBeta: true, defAlpha: 0.2, defBeta: 0.5},
	"elu":             {f: RNNActElu, hasAlpha: true, defAlpha: 1},
	"softsign":        {f: RNNActSoftsign},
	"softplus":        {f: RNNActSoftplus},
}

// RNNActivation is one activation of a recurrent op with its
// parameters.
type RNNActivation struct {
	Func        RNNActFunc
	Alpha, Beta float32
}

// Eval computes the activation of x in float64: Relu max(0, x); Tanh;
// Sigmoid 1/(1+e^-x); Affine αx+β; LeakyRelu x, or αx below 0;
// ThresholdedRelu x above α, else 0; ScaledTanh α·tanh(βx); HardSigmoid
// min(1, max(0, αx+β)); Elu x, or α(e^x-1) below 0; Softsign x/(1+|x|);
// Softplus log(1+e^x).
func (a RNNActivation) Eval(x float64) float64 {
	al, be := float64(a.Alpha), float64(a.Beta)
	switch a.Func {
	case RNNActRelu:
		return max(x, 0)
	case RNNActTanh:
		return math.Tanh(x)
	case RNNActSigmoid:
		if x >= 0 {
			return 1 / (1 + math.Exp(-x))
		}
		e := math.Exp(x)
		return e / (1 + e)
	case RNNActAffine:
		return al*x + be
	case RNNActLeakyRelu:
		if x >= 0 {
			return x
		}
		return al * x
	case RNNActThresholdedRelu:
		if x > al {
			return x
		}
		return 0
	case RNNActScaledTanh:
		return al * math.Tanh(be*x)
	case RNNActHardSigmoid:
		return min(1, max(0, al*x+be))
	case RNNActElu:
		if x >= 0 {
			return x
		}
		return al * math.Expm1(x)
	case RNNActSoftsign:
		return x / (1 + math.Abs(x))
	case RNNActSoftplus:
		if x > 0 {
			return x + math.Log1p(math.Exp(-x))
		}
		return math.Log1p(math.Exp(x))
	}
	return x
}

// RecurrentAttrs are the attributes RNN, GRU and LSTM share. X is
// [seq, batch, input] (Layout 1: [batch, seq, input]); W, R and B hold
// Gates blocks of HiddenSize rows per direction.
type RecurrentAttrs struct {
	// HiddenSize is the hidden_size attribute; 0 when absent, in which
	// case R's last dim gives it.
	HiddenSize int
	Direction  RNNDirection
	// Activations holds the op's activations for each direction in turn,
	// forward first: f for RNN; f, g for GRU; f, g, h for LSTM.
	Activations []RNNActivation
	// Clip bounds the input of every activation to [-Clip, Clip]; 0 when
	// absent: no bound.
	Clip float32
	// Layout is 1 when X, Y and the states put the batch first (opset 14
	// on), else 0.
	Layout int
	// Gates is the number of blocks of HiddenSize rows in W and R: 1 for
	// RNN, 3 for GRU, 4 for LSTM.
	Gates int
	// ActsPerDir is the number of activations of each direction.
	ActsPerDir int
}

// bindRecurrent parses the shared attributes of a recurrent op with
// gates blocks and the default activations defs.
func bindRecurrent(n *Node, opset int64, gates int, defs ...RNNActFunc) (RecurrentAttrs, error) {
	a := RecurrentAttrs{Gates: gates, ActsPerDir: len(defs)}
	hs, err := n.Int("hidden_size", 0)
	if err != nil {
		return a, err
	}
	if n.Has("hidden_size") && (hs <= 0 || hs > int64(maxDimValue/8)) {
		return a, attrErr(n, "hidden_size must be positive, got %d", hs)
	}
	a.HiddenSize = int(hs)
	dir, err := n.String("direction", "forward")
	if err != nil {
		return a, err
	}
	switch dir {
	case "forward":
		a.Direction = RNNForward
	case "reverse":
		a.Direction = RNNReverse
	case "bidirectional":
		a.Direction = RNNBidirectional
	default:
		return a, attrErr(n, "direction %q is not forward, reverse or bidirectional", dir)
	}
	if opset >= 14 {
		l, err := n.Int("layout", 0)
		if err != nil {
			return a, err
		}
		if l != 0 && l != 1 {
			return a, attrErr(n, "layout must be 0 or 1, got %d", l)
		}
		a.Layout = int(l)
	}
	if n.Has("clip") {
		if a.Clip, err = n.Float("clip", 0); err != nil {
			return a, err
		}
		if !(a.Clip > 0) {
			return a, attrErr(n, "clip must be positive, got %g", a.Clip)
		}
	}
	if a.Activations, err = bindRNNActivations(n, a.Direction.Dirs(), defs); err != nil {
		return a, err
	}
	return a, nil
}

// bindRNNActivations reads the activations attribute, with its alphas
// and betas, for dirs directions of len(defs) activations each.
func bindRNNActivations(n *Node, dirs int, defs []RNNActFunc) ([]RNNActivation, error) {
	k := len(defs)
	at, err := n.attrOf("activations", AttrStrings)
	if err != nil {
		return nil, err
	}
	alphas, err := n.Floats("activation_alpha", nil)
	if err != nil {
		return nil, err
	}
	betas, err := n.Floats("activation_beta", nil)
	if err != nil {
		return nil, err
	}
	out := make([]RNNActivation, 0, k*dirs)
	if at == nil {
		for range dirs {
			for _, f := range defs {
				out = append(out, RNNActivation{Func: f})
			}
		}
		return out, nil
	}
	names := at.Strings
	switch {
	case len(names) == k*dirs:
	case len(names) == 2*k && dirs == 1:
		// ONNX Runtime takes the first direction's of a list of two,
		// such as RNN's documented default "Tanh, Tanh" when forward.
		names = names[:k]
	default:
		return nil, attrErr(n, "%d activations, want %d (%d for each of %d directions)", len(names), k*dirs, k, dirs)
	}
	for _, name := range names {
		info, ok := rnnActs[strings.ToLower(name)]
		if !ok {
			return nil, attrErr(n, "activation %q is not one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus", name)
		}
		act := RNNActivation{Func: info.f}
		if info.hasAlpha {
			act.Alpha = info.defAlpha
			if len(alphas) > 0 {
				act.Alpha, alphas = alphas[0], alphas[1:]
			}
		}
		if info.hasBeta {
			act.Beta = info.defBeta
			if len(betas) > 0 {
				act.Beta, betas = betas[0], betas[1:]
			}
		}
		out = append(out, act)
	}
	return out, nil
}

// rnnShape is what a recurrent op's inputs say of its sizes, -1 where
// unknown.
type rnnShape struct {
	Seq, Batch, Input, Hidden int
}

// unifyDim sets *x to d when *x is unknown; ok is false when both are
// known and differ.
func unifyDim(x *int, d int) bool {
	if *x < 0 {
		*x = d
		return true
	}
	return d < 0 || d == *x
}

// rnnMulDim is a*b, -1 when either is unknown.
func rnnMulDim(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	return a * b
}

// infer is the shared rule: it checks X (0), W (1), R (2), B (3),
// sequence_lens (4), initial_h (5) and, for LSTM, initial_c (6) and P
// (7), and sets Y (0), Y_h (1) and, for LSTM, Y_c (2).
func (a *RecurrentAttrs) infer(c *InferCtx) error {
	dirs := a.Direction.Dirs()
	s := rnnShape{Seq: -1, Batch: -1, Input: -1, Hidden: -1}
	if a.HiddenSize > 0 {
		s.Hidden = a.HiddenSize
	}
	if d, ok := c.Dims(0); ok {
		if len(d) != 3 {
			return c.Errorf("X has rank %d, want 3", len(d))
		}
		s.Seq, s.Batch, s.Input = d[0], d[1], d[2]
		if a.Layout == 1 {
			s.Seq, s.Batch = d[1], d[0]
		}
	}
	if d, ok := c.Dims(2); ok {
		if len(d) != 3 || !unifyDim(&s.Hidden, d[2]) || dimsConflict(d[0], dirs) || dimsConflict(d[1], rnnMulDim(a.Gates, s.Hidden)) {
			return c.Errorf("R has shape %v, want [%d %d %d]", d, dirs, rnnMulDim(a.Gates, s.Hidden), s.Hidden)
		}
		if s.Hidden < 0 && d[1] >= 0 {
			if d[1]%a.Gates != 0 {
				return c.Errorf("R has shape %v: dim 1 is not a multiple of %d", d, a.Gates)
			}
			s.Hidden = d[1] / a.Gates
		}
	}
	if d, ok := c.Dims(1); ok {
		if len(d) != 3 || !unifyDim(&s.Input, d[2]) || dimsConflict(d[0], dirs) || dimsConflict(d[1], rnnMulDim(a.Gates, s.Hidden)) {
			return c.Errorf("W has shape %v, want [%d %d %d]", d, dirs, rnnMulDim(a.Gates, s.Hidden), s.Input)
		}
	}
	if d, ok := c.Dims(3); ok {
		if len(d) != 2 || dimsConflict(d[0], dirs) || dimsConflict(d[1], rnnMulDim(2*a.Gates, s.Hidden)) {
			return c.Errorf("B has shape %v, want [%d %d]", d, dirs, rnnMulDim(2*a.Gates, s.Hidden))
		}
	}
	if d, ok := c.Dims(4); ok {
		if len(d) != 1 || !unifyDim(&s.Batch, d[0]) {
			return c.Errorf("sequence_lens has shape %v, want [%d]", d, s.Batch)
		}
	}
	for i := 5; i <= 6 && i < c.NumIn(); i++ {
		d, ok := c.Dims(i)
		if !ok {
			continue
		}
		bi, di := 1, 0
		if a.Layout == 1 {
			bi, di = 0, 1
		}
		if len(d) != 3 || !unifyDim(&s.Batch, d[bi]) || !unifyDim(&s.Hidden, d[2]) || dimsConflict(d[di], dirs) {
			name := "initial_h"
			if i == 6 {
				name = "initial_c"
			}
			return c.Errorf("%s has shape %v, want %v", name, d, a.stateDims(dirs, s.Batch, s.Hidden))
		}
	}
	if d, ok := c.Dims(7); ok && c.NumIn() > 7 {
		if len(d) != 2 || dimsConflict(d[0], dirs) || dimsConflict(d[1], rnnMulDim(3, s.Hidden)) {
			return c.Errorf("P has shape %v, want [%d %d]", d, dirs, rnnMulDim(3, s.Hidden))
		}
	}
	dt := c.DType(0)
	for j := range min(c.NumOut(), a.outputs()) {
		c.SetType(j, dt)
		if j == 0 {
			y := c.OutDims(0, 4)
			if a.Layout == 1 {
				y[0], y[1], y[2], y[3] = s.Batch, s.Seq, dirs, s.Hidden
			} else {
				y[0], y[1], y[2], y[3] = s.Seq, dirs, s.Batch, s.Hidden
			}
			continue
		}
		st := a.stateDims(dirs, s.Batch, s.Hidden)
		copy(c.OutDims(j, 3), st[:])
	}
	return nil
}

// outputs is the number of outputs the op has: 3 for LSTM, else 2.
func (a *RecurrentAttrs) outputs() int {
	if a.Gates == 4 {
		return 3
	}
	return 2
}

// stateDims are the dims of initial_h, Y_h and their cell-state peers.
func (a *RecurrentAttrs) stateDims(dirs, batch, hidden int) [3]int {
	if a.Layout == 1 {
		return [3]int{batch, dirs, hidden}
	}
	return [3]int{dirs, batch, hidden}
}
