package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// groupNormKernel runs GroupNormalization (model.GroupNormAttrs), with
// the statistics in float64 whatever the stash type.
type groupNormKernel struct {
	a  *model.GroupNormAttrs
	dt payload.DType
	// pool splits the (batch, group) pairs; par and the call fields hold
	// the current call's split.
	pool      *workerPool
	par       parFor
	cin, cout []*tensor
}

func (k *groupNormKernel) run(in, out []*tensor) error {
	s := in[0].shape
	g := int(k.a.NumGroups)
	k.cin, k.cout = in, out
	k.par.run(k.pool, k, s[0]*g, 6*mulDims(s[1:])/max(g, 1))
	k.cin, k.cout = nil, nil
	return nil
}

// runRange normalises (batch, group) pairs [lo, hi) of the current call.
func (k *groupNormKernel) runRange(_, lo, hi int) {
	in, out := k.cin, k.cout
	s := in[0].shape
	switch k.dt {
	case payload.Float32:
		groupNorm(k.a, out[0].f32(), in[0].f32(), in[1].f32(), in[2].f32(), s, lo, hi)
	case payload.Float64:
		groupNorm(k.a, out[0].f64(), in[0].f64(), in[1].f64(), in[2].f64(), s, lo, hi)
	}
}

// groupNorm normalises (batch, group) pairs [lo, hi), numbered batch
// major.
func groupNorm[T ewFloat](a *model.GroupNormAttrs, d, x, scale, bias []T, s []int, lo, hi int) {
	nc := s[1]
	sp := mulDims(s[2:])
	g := int(a.NumGroups)
	cpg := nc / g
	size := cpg * sp
	eps := float64(a.Epsilon)
	for u := lo; u < hi; u++ {
		n, gi := u/g, u%g
		base := (n*nc + gi*cpg) * sp
		xs := x[base : base+size]
		var mean, v float64
		for _, e := range xs {
			mean += float64(e)
		}
		mean /= float64(max(size, 1))
		for _, e := range xs {
			t := float64(e) - mean
			v += t * t
		}
		inv := 1 / math.Sqrt(v/float64(max(size, 1))+eps)
		for ci := range cpg {
			p := gi
			if a.PerChannel {
				p = gi*cpg + ci
			}
			sc, b := float64(scale[p]), float64(bias[p])
			o := base + ci*sp
			for j, e := range x[o : o+sp] {
				d[o+j] = T((float64(e)-mean)*inv*sc + b)
			}
		}
	}
}

func init() {
	register("GroupNormalization", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		for i := 1; i < 3; i++ {
			if c.inType(i) != c.inType(0) {
				return nil, c.unsupported("input %d element type %s, X %s", i, c.inType(i), c.inType(0))
			}
		}
		return &groupNormKernel{a: c.rule.(*model.GroupNormAttrs), dt: c.inType(0), pool: c.pool()}, nil
	})
}
