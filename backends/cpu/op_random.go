package cpu

import (
	"math"
	"math/rand/v2"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// randomKernel runs the random ops (model.RandomAttrs) on a PCG generator
// the kernel owns. As in ONNX Runtime, the generator is seeded once, when
// the node is built: with the seed attribute's bits, so that a model
// loaded again draws the same stream, or else from a random seed. Each
// call continues the stream, so repeated calls draw anew.
type randomKernel struct {
	n   *model.Node
	a   *model.RandomAttrs
	rng *rand.Rand
	buf []float64 // draws, before conversion to the output's type
	cum []float64 // Multinomial's cumulative probabilities
}

func (k *randomKernel) run(in, out []*tensor) error {
	a := k.a
	o := out[0]
	n := o.numel()
	k.buf = growFloats(k.buf, n)
	v := k.buf
	switch a.Kind {
	case model.RandomUniformDist:
		lo, hi := float64(a.Low), float64(a.High)
		// The top of float32's range below High, which rounding must
		// not reach.
		top := hi
		if o.dt == payload.Float32 && hi > lo {
			top = float64(math.Nextafter32(float32(hi), float32(lo)))
		}
		for i := range v {
			v[i] = min(lo+(hi-lo)*k.rng.Float64(), top)
		}
	case model.RandomNormalDist:
		m, s := float64(a.Mean), float64(a.Scale)
		for i := range v {
			v[i] = m + s*k.rng.NormFloat64()
		}
	case model.BernoulliDist:
		p := floatValues(in[0], &k.cum)
		for i := range v {
			v[i] = 0
			if k.rng.Float64() < p[i] {
				v[i] = 1
			}
		}
	case model.MultinomialDist:
		if err := k.multinomial(in[0], v); err != nil {
			return err
		}
	}
	storeNumbers(o, v)
	return nil
}

// multinomial draws SampleSize classes for each row of x's
// unnormalised log-probabilities into v.
func (k *randomKernel) multinomial(x *tensor, v []float64) error {
	lp := floatValues(x, &k.cum) // widened into cum, then overwritten row by row
	nb, nc := x.shape[0], x.shape[1]
	ss := int(k.a.SampleSize)
	if nc == 0 && ss > 0 && nb > 0 {
		return shapeErr(k.n, "no classes to draw from")
	}
	for b := range nb {
		row := lp[b*nc : (b+1)*nc]
		m := math.Inf(-1)
		for _, e := range row {
			m = max(m, e)
		}
		// Cumulative sums of exp(x - max), in place.
		var s float64
		for j, e := range row {
			s += math.Exp(e - m)
			row[j] = s
		}
		for q := range ss {
			u := k.rng.Float64() * s
			c := 0
			for c < nc-1 && row[c] <= u {
				c++
			}
			v[b*ss+q] = float64(c)
		}
	}
	return nil
}

// storeNumbers writes v into t, converted to t's element type: a float
// type, an integer type, or bool (v != 0).
func storeNumbers(t *tensor, v []float64) {
	switch t.dt {
	case payload.Float32, payload.Float64:
		storeFloats(t, v)
	case payload.Float16:
		d := elems[float16.Float16](t)
		for i, x := range v {
			d[i] = float16.Fromfloat32(float32(x))
		}
	case payload.Bool:
		d := t.bools()
		for i, x := range v {
			d[i] = x != 0
		}
	case payload.Int8:
		storeInts(elems[int8](t), v)
	case payload.Int16:
		storeInts(elems[int16](t), v)
	case payload.Int32:
		storeInts(t.i32(), v)
	case payload.Int64:
		storeInts(t.i64(), v)
	case payload.Uint8:
		storeInts(t.u8(), v)
	case payload.Uint16:
		storeInts(elems[uint16](t), v)
	case payload.Uint32:
		storeInts(elems[uint32](t), v)
	case payload.Uint64:
		storeInts(elems[uint64](t), v)
	}
}

func storeInts[T ewInt](d []T, v []float64) {
	for i, x := range v[:len(d)] {
		d[i] = T(x)
	}
}

// randomOutTypes are the element types storeNumbers writes.
var randomOutTypes = []payload.DType{
	payload.Float32, payload.Float64, payload.Float16, payload.Bool,
	payload.Int8, payload.Int16, payload.Int32, payload.Int64,
	payload.Uint8, payload.Uint16, payload.Uint32, payload.Uint64,
}

func init() {
	b := func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.RandomAttrs)
		dt := a.DType
		if dt == payload.Undefined {
			dt = c.inType(0)
		}
		floats := []payload.DType{payload.Float32, payload.Float64, payload.Float16}
		switch a.Kind {
		case model.RandomUniformDist, model.RandomNormalDist:
			if !hasDType(floats, dt) {
				return nil, c.unsupported("output element type %s (supported: %v)", dt, floats)
			}
		case model.BernoulliDist, model.MultinomialDist:
			if err := c.needTypes(floats...); err != nil {
				return nil, err
			}
			if !hasDType(randomOutTypes, dt) {
				return nil, c.unsupported("output element type %s", dt)
			}
		}
		seed := rand.Uint64()
		if a.HasSeed {
			seed = uint64(math.Float32bits(a.Seed))
		}
		return &randomKernel{n: c.n, a: a, rng: rand.New(rand.NewPCG(seed, 0x6c696e74656c))}, nil
	}
	for _, op := range []string{"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Bernoulli", "Multinomial"} {
		register(op, b)
	}
}
