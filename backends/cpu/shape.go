package cpu

import (
	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// buildKernel binds c's node to its descriptor, which checks its arity
// and parses its attributes into c.rule, then runs the op's builder.
func buildKernel(c *buildCtx) (kernel, error) {
	n := c.n
	b, err := builderOf(n)
	if err != nil {
		return nil, err
	}
	if n.Domain != "" && n.Domain != "ai.onnx" {
		c.opset = model.OpsetOf(c.g, n.Domain)
	}
	op, rule, err := model.BindNode(n, c.opset)
	if err != nil {
		return nil, err
	}
	c.op, c.rule = op, rule
	k, err := b(c)
	if err != nil {
		return nil, err
	}
	if rule == nil {
		if _, ok := k.(shaper); !ok {
			return nil, errs.New(errs.Unsupported, "node %q (%s): the op has no shape rule", n.Label(), n.OpType)
		}
	}
	return k, nil
}

// builderOf returns the builder of n's op, or an errs.Unsupported error
// naming its domain or op when the backend has none.
func builderOf(n *model.Node) (builder, error) {
	if n.Domain != "" && n.Domain != "ai.onnx" {
		if model.IsEwNode(n) {
			return buildElementwise, nil
		}
		if n.Domain == model.EwDomain && (n.OpType == "LayerNormalization" || n.OpType == "RMSNormalization" || n.OpType == "Attention") {
			return registry[n.OpType], nil
		}
		if n.Domain == model.EwDomain && n.OpType == model.ConvIntegerToFloat {
			return buildConvIntegerToFloat, nil
		}
		if customOf(n) != nil {
			return buildCustom, nil
		}
		if n.Domain == msDomain {
			if b, ok := msRegistry[n.OpType]; ok {
				return b, nil
			}
			return nil, errs.New(errs.Unsupported, "node %q (%s): op %s.%s is not supported by the cpu backend", n.Label(), n.OpType, n.Domain, n.OpType)
		}
		return nil, errs.New(errs.Unsupported, "node %q (%s): domain %q is not supported by the cpu backend (a Go kernel for it can be registered with cpu.RegisterCustomOp)", n.Label(), n.OpType, n.Domain)
	}
	b, ok := registry[n.OpType]
	if !ok {
		return nil, errs.New(errs.Unsupported, "node %q (%s): op %s is not supported by the cpu backend", n.Label(), n.OpType, n.OpType)
	}
	return b, nil
}

// outShaper computes one node's output shapes at run time: the op's rule
// from its descriptor, then the kernel's shaper if it has one.
type outShaper struct {
	n      *model.Node
	rule   model.Rule
	ctx    *model.InferCtx
	values []int // inputs whose contents the rule reads
	ibuf   [][]int64
	fbuf   [][]float64
	k      shaper
	// seen holds the input shapes of the last call whose outputs the rule
	// set in full (rank, then dims, per input; -1 for an absent one), for
	// a node whose rule reads no contents but constants': at the same
	// shapes the outputs' shapes, still in place, are reused without
	// running the rule.
	seen  []int
	valid bool
	// memo is set when the rule reads no contents but constants'.
	memo bool
}

// newOutShaper returns the shaper of a node whose kernel is k, built by
// buildKernel from c.
func newOutShaper(c *buildCtx, k kernel) *outShaper {
	s := &outShaper{n: c.n, rule: c.rule}
	s.k, _ = k.(shaper)
	if _, own := k.(selfShaper); own {
		s.rule = nil
	}
	if s.rule != nil {
		s.ctx = model.NewInferCtx(c.n, c.opset, true)
		s.values = c.op.At(c.opset).Values
		s.ibuf = make([][]int64, len(s.values))
		s.fbuf = make([][]float64, len(s.values))
		s.memo = true
		for _, i := range s.values {
			if c.n.Input(i) != "" && c.g.Const(c.n.Input(i)) == nil {
				s.memo = false
			}
		}
	}
	return s
}

// clone returns a shaper with the same rule and buffers of its own.
func (s *outShaper) clone() *outShaper {
	c := *s
	if s.ctx != nil {
		c.ctx = model.NewInferCtx(s.n, s.ctx.Opset(), true)
		c.ibuf = make([][]int64, len(s.values))
		c.fbuf = make([][]float64, len(s.values))
	}
	c.seen, c.valid = nil, false
	return &c
}

// shapes sets every output's shape from the inputs'.
func (s *outShaper) shapes(in, out []*tensor) error {
	if s.rule != nil && !s.same(in) {
		c := s.ctx
		for i := range c.NumIn() {
			t := optIn(in, i)
			if t == nil {
				c.SetAbsent(i)
				continue
			}
			c.SetInput(i, t.dt, t.shape, true)
		}
		for vi, i := range s.values {
			t := optIn(in, i)
			if t == nil {
				continue
			}
			if t.dt.IsFloat() {
				c.SetFloats(i, floatValues(t, &s.fbuf[vi]))
			} else if v, ok := intValues(t, &s.ibuf[vi]); ok {
				c.SetInts(i, v)
			}
		}
		if err := s.rule.Infer(c); err != nil {
			return err
		}
		complete := s.memo
		for j, o := range out {
			v := c.Out(j)
			if !v.Ranked {
				return shapeErr(s.n, "the rank of output %d is unknown", j)
			}
			copy(o.resize(len(v.Dims)), v.Dims)
			for _, d := range v.Dims {
				complete = complete && d >= 0
			}
		}
		if complete {
			s.remember(in)
		}
	}
	if s.k != nil {
		return s.k.shape(in, out)
	}
	return nil
}

// same reports whether in has the shapes remembered by the last call.
func (s *outShaper) same(in []*tensor) bool {
	if !s.valid {
		return false
	}
	k := 0
	for i := range s.ctx.NumIn() {
		t := optIn(in, i)
		if t == nil {
			if s.seen[k] != -1 {
				return false
			}
			k++
			continue
		}
		if s.seen[k] != len(t.shape) {
			return false
		}
		k++
		for _, d := range t.shape {
			if s.seen[k] != d {
				return false
			}
			k++
		}
	}
	return true
}

// remember records in's shapes for same; it allocates only when the
// record outgrows its buffer.
func (s *outShaper) remember(in []*tensor) {
	s.seen = s.seen[:0]
	for i := range s.ctx.NumIn() {
		t := optIn(in, i)
		if t == nil {
			s.seen = append(s.seen, -1)
			continue
		}
		s.seen = append(s.seen, len(t.shape))
		s.seen = append(s.seen, t.shape...)
	}
	s.valid = true
}

// floatValues returns t's values as float64 in *buf, grown only when too
// small.
func floatValues(t *tensor, buf *[]float64) []float64 {
	n := t.numel()
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	b := (*buf)[:n]
	switch t.dt {
	case payload.Float32:
		for i, x := range t.f32()[:n] {
			b[i] = float64(x)
		}
	case payload.Float64:
		copy(b, t.f64()[:n])
	case payload.Float16:
		for i, x := range elems[float16.Float16](t)[:n] {
			b[i] = float64(x.Float32())
		}
	case payload.BF16:
		for i, x := range elems[payload.BFloat16](t)[:n] {
			b[i] = float64(x.Float32())
		}
	}
	return b
}
