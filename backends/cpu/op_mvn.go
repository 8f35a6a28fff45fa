package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// mvnEpsilon is the epsilon of MeanVarianceNormalization's function body.
const mvnEpsilon = 1e-9

// mvnKernel runs MeanVarianceNormalization (model.MVNAttrs). Each element
// belongs to the group of its indices along the axes not reduced; the
// groups' sums are kept in float64.
type mvnKernel struct {
	a  *model.MVNAttrs
	dt payload.DType
	// gst are the group strides of each dim (0 for a reduced one), ctr
	// the multi-index, sum and sq the groups' sums.
	gst, ctr []int
	sum, sq  []float64
}

// plan sets the group strides for shape s and returns the number of
// groups and of elements per group.
func (k *mvnKernel) plan(s []int) (groups, per int) {
	r := len(s)
	k.gst = growInts(&k.gst, r)
	k.ctr = growInts(&k.ctr, r)
	for i := range k.gst {
		k.gst[i] = 1 // mark kept
	}
	for _, ax := range k.a.Axes {
		if a, ok := wrapAxis(ax, r); ok {
			k.gst[a] = 0
		}
	}
	groups, per = 1, 1
	for i := r - 1; i >= 0; i-- {
		if k.gst[i] == 0 {
			per *= s[i]
			continue
		}
		k.gst[i] = groups
		groups *= s[i]
	}
	return groups, per
}

func (k *mvnKernel) run(in, out []*tensor) error {
	s := in[0].shape
	groups, per := k.plan(s)
	k.sum = growFloats(k.sum, groups)
	k.sq = growFloats(k.sq, groups)
	switch k.dt {
	case payload.Float32:
		mvn(k, out[0].f32(), in[0].f32(), s, per)
	case payload.Float64:
		mvn(k, out[0].f64(), in[0].f64(), s, per)
	}
	return nil
}

// next advances the multi-index k.ctr over shape s by one element and
// returns the group of the element it reaches, given g, the group of the
// one it leaves.
func (k *mvnKernel) next(s []int, g int) int {
	for j := len(s) - 1; j >= 0; j-- {
		k.ctr[j]++
		g += k.gst[j]
		if k.ctr[j] < s[j] {
			return g
		}
		g -= k.gst[j] * k.ctr[j]
		k.ctr[j] = 0
	}
	return g
}

func mvn[T ewFloat](k *mvnKernel, d, x []T, s []int, per int) {
	n := mulDims(s)
	clear(k.sum)
	clear(k.sq)
	clear(k.ctr)
	g := 0
	for i := range n {
		k.sum[g] += float64(x[i])
		g = k.next(s, g)
	}
	for i := range k.sum {
		k.sum[i] /= float64(max(per, 1))
	}
	for i := range n {
		t := float64(x[i]) - k.sum[g]
		k.sq[g] += t * t
		g = k.next(s, g)
	}
	for i := range k.sq {
		k.sq[i] = 1 / math.Sqrt(k.sq[i]/float64(max(per, 1))+mvnEpsilon)
	}
	for i := range n {
		d[i] = T((float64(x[i]) - k.sum[g]) * k.sq[g])
		g = k.next(s, g)
	}
}

func init() {
	register("MeanVarianceNormalization", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		return &mvnKernel{a: c.rule.(*model.MVNAttrs), dt: c.inType(0)}, nil
	})
}
