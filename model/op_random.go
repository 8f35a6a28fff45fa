package model

import "github.com/lintel-ml/lintel/payload"

// RandomKind is the distribution a random op draws from.
type RandomKind uint8

// The random ops' distributions.
const (
	// RandomUniformDist draws from [Low, High).
	RandomUniformDist RandomKind = iota
	// RandomNormalDist draws from the normal distribution of Mean and
	// Scale (its standard deviation).
	RandomNormalDist
	// BernoulliDist draws 1 with the input's probability, else 0.
	BernoulliDist
	// MultinomialDist draws class indices from the input's unnormalised
	// log-probabilities.
	MultinomialDist
)

func init() {
	for _, o := range []struct {
		op    string
		since int64
		in    int
		kind  RandomKind
	}{
		{"RandomUniform", 1, 0, RandomUniformDist},
		{"RandomNormal", 1, 0, RandomNormalDist},
		{"RandomUniformLike", 1, 1, RandomUniformDist},
		{"RandomNormalLike", 1, 1, RandomNormalDist},
		{"Bernoulli", 15, 1, BernoulliDist},
		{"Multinomial", 7, 1, MultinomialDist},
	} {
		RegisterOp(&Op{
			Type:       o.op,
			Versions:   []Version{{Since: o.since, MinIn: o.in, MaxIn: o.in, MaxOut: 1}},
			InputNames: []string{"input"},
			Bind: func(n *Node, opset int64) (Rule, error) {
				return bindRandom(n, o.kind, o.in == 0)
			},
			NoFold: true,
		})
	}
}

func bindRandom(n *Node, kind RandomKind, shaped bool) (Rule, error) {
	a := &RandomAttrs{Kind: kind, Low: 0, High: 1, Scale: 1, SampleSize: 1}
	var err error
	if n.Has("seed") {
		if a.Seed, err = n.Float("seed", 0); err != nil {
			return nil, err
		}
		a.HasSeed = true
	}
	def := int64(payload.Undefined) // the input's
	switch {
	case shaped:
		def = int64(payload.Float32)
	case kind == MultinomialDist:
		def = int64(payload.Int32)
	}
	dt, err := n.Int("dtype", def)
	if err != nil {
		return nil, err
	}
	if dt != int64(payload.Undefined) && (dt < 1 || dt > int64(payload.BF16) || !payload.DType(dt).Valid()) {
		return nil, attrErr(n, "dtype %d is not an element type", dt)
	}
	a.DType = payload.DType(dt)
	switch kind {
	case RandomUniformDist:
		if a.Low, err = n.Float("low", 0); err != nil {
			return nil, err
		}
		if a.High, err = n.Float("high", 1); err != nil {
			return nil, err
		}
	case RandomNormalDist:
		if a.Mean, err = n.Float("mean", 0); err != nil {
			return nil, err
		}
		if a.Scale, err = n.Float("scale", 1); err != nil {
			return nil, err
		}
	case MultinomialDist:
		if a.SampleSize, err = n.Int("sample_size", 1); err != nil {
			return nil, err
		}
		if a.SampleSize < 0 {
			return nil, attrErr(n, "sample_size must not be negative, got %d", a.SampleSize)
		}
		if a.DType != payload.Int32 && a.DType != payload.Int64 {
			return nil, attrErr(n, "dtype must be int32 or int64, got %s", a.DType)
		}
	}
	if shaped {
		if !n.Has("shape") {
			return nil, attrMissing(n, "shape")
		}
		if a.Shape, err = n.Ints("shape", nil); err != nil {
			return nil, err
		}
		for _, d := range a.Shape {
			if d < 0 || d > int64(maxDimValue) {
				return nil, attrErr(n, "shape %v has a negative or too large dim", a.Shape)
			}
		}
	}
	return a, nil
}

// RandomAttrs are the attributes of a random op: RandomUniform,
// RandomNormal (output shape Shape), RandomUniformLike, RandomNormalLike,
// Bernoulli (the input's shape) and Multinomial (batch×SampleSize, from a
// batch×classes input). A Seed makes the op's stream of draws the same
// from one load to the next; without one it differs. These ops are never
// folded (NoFold).
type RandomAttrs struct {
	Kind RandomKind
	// DType is the output's element type; payload.Undefined for the
	// input's (the default of the *Like ops and Bernoulli).
	DType payload.DType
	// Shape is RandomUniform's and RandomNormal's output shape.
	Shape []int64
	// Low and High bound the uniform draws.
	Low, High float32
	// Mean and Scale are the normal draws' mean and standard deviation.
	Mean, Scale float32
	// Seed seeds the generator when HasSeed.
	Seed    float32
	HasSeed bool
	// SampleSize is Multinomial's number of draws per batch item.
	SampleSize int64
}

// Infer implements Rule.
func (a *RandomAttrs) Infer(c *InferCtx) error {
	dt := a.DType
	if dt == payload.Undefined {
		dt = c.DType(0)
	}
	switch {
	case a.Shape != nil || c.NumIn() == 0:
		c.SetType(0, dt)
		out := c.OutDims(0, len(a.Shape))
		for i, d := range a.Shape {
			out[i] = int(d)
		}
	case a.Kind == MultinomialDist:
		c.SetType(0, dt)
		x, ok := c.Dims(0)
		if !ok {
			c.SetUnknownDims(0, 2)
			c.OutDims(0, 2)[1] = int(a.SampleSize)
			return nil
		}
		if len(x) != 2 {
			return c.Errorf("input %v must be batch×classes", x)
		}
		c.SetDims(0, x)
		c.OutDims(0, 2)[1] = int(a.SampleSize)
	default:
		c.SameShape(0, 0, dt)
	}
	return nil
}
