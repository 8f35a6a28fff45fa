package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// seqKernel runs the ops on sequence and optional values (see seq.go):
// the sequence ops, and Optional, OptionalGetElement and Identity on a
// sequence or optional. Its shape method sets every output's shape: a
// sequence output's is [], the executor's one-element placeholder.
type seqKernel struct {
	n  *model.Node
	op string
	// axis, keep and newAxis are SplitToSequence's and
	// ConcatFromSequence's attributes.
	axis          int64
	keep, newAxis bool
	// pos is the position SequenceInsert, SequenceErase and SequenceAt
	// resolved in shape, for run.
	pos int
	buf []int64
}

func (k *seqKernel) selfShaped() {}

// position reads the optional position input i of a sequence of n
// tensors; def is its default, hi the largest position allowed.
func (k *seqKernel) position(in []*tensor, i, n, def, hi int) (int, error) {
	t := optIn(in, i)
	if t == nil {
		return def, nil
	}
	v, ok := intValues(t, &k.buf)
	if !ok || len(v) != 1 {
		return 0, shapeErr(k.n, "position must be an int32 or int64 scalar")
	}
	p := v[0]
	if p < -int64(n) || p > int64(hi) {
		return 0, shapeErr(k.n, "position %d is out of range for a sequence of %d tensors", p, n)
	}
	if p < 0 {
		p += int64(n)
	}
	return int(p), nil
}

func (k *seqKernel) shape(in, out []*tensor) error {
	o := out[0]
	switch k.op {
	case "SequenceInsert":
		n := len(in[0].items)
		p, err := k.position(in, 2, n, n, n)
		if err != nil {
			return err
		}
		if in[1].dt != in[0].dt {
			return shapeErr(k.n, "tensor of %s into a sequence of %s", in[1].dt, in[0].dt)
		}
		k.pos = p
	case "SequenceErase":
		n := len(in[0].items)
		if n == 0 {
			return shapeErr(k.n, "erasing from an empty sequence")
		}
		p, err := k.position(in, 1, n, n-1, n-1)
		if err != nil {
			return err
		}
		k.pos = p
	case "SequenceAt":
		n := len(in[0].items)
		if in[1] == nil {
			return shapeErr(k.n, "position is required")
		}
		p, err := k.position(in, 1, n, 0, n-1)
		if err != nil {
			return err
		}
		k.pos = p
		copy(o.resize(len(in[0].items[p].shape)), in[0].items[p].shape)
		return nil
	case "SequenceLength":
		o.resize(0)
		return nil
	case "ConcatFromSequence":
		return k.concatShape(in, o)
	case "SplitToSequence":
		if _, ok := wrapAxis(k.axis, len(in[0].shape)); !ok {
			return shapeErr(k.n, "axis %d is out of range for rank %d", k.axis, len(in[0].shape))
		}
	case "copy":
		if !in[0].seq {
			if in[0].none {
				o.resize(0)
			} else {
				copy(o.resize(len(in[0].shape)), in[0].shape)
			}
			return nil
		}
	case "get":
		if in[0].none {
			return shapeErr(k.n, "the optional input has no element")
		}
		if !in[0].seq {
			copy(o.resize(len(in[0].shape)), in[0].shape)
			return nil
		}
	}
	o.resize(0)
	return nil
}

// concatShape sets ConcatFromSequence's output shape.
func (k *seqKernel) concatShape(in []*tensor, o *tensor) error {
	items := in[0].items
	if len(items) == 0 {
		return shapeErr(k.n, "the sequence is empty")
	}
	s0 := items[0].shape
	r := len(s0)
	or := r
	if k.newAxis {
		or++
	}
	a, ok := wrapAxis(k.axis, or)
	if !ok {
		return shapeErr(k.n, "axis %d is out of range for rank %d", k.axis, or)
	}
	shape := o.resize(or)
	total := 0
	for _, it := range items {
		if len(it.shape) != r {
			return shapeErr(k.n, "tensors of shapes %v and %v", s0, it.shape)
		}
		for d := range r {
			if (k.newAxis || d != a) && it.shape[d] != s0[d] {
				return shapeErr(k.n, "tensors of shapes %v and %v", s0, it.shape)
			}
		}
		if !k.newAxis {
			total += it.shape[a]
		}
	}
	if k.newAxis {
		copy(shape[:a], s0[:a])
		shape[a] = len(items)
		copy(shape[a+1:], s0[a:])
		return nil
	}
	copy(shape, s0)
	shape[a] = total
	return nil
}

func (k *seqKernel) run(in, out []*tensor) error {
	o := out[0]
	o.none = false
	switch k.op {
	case "SequenceEmpty":
		o.setLen(0)
	case "SequenceConstruct":
		o.setLen(len(in))
		for i, t := range in {
			o.items[i].copyFrom(t)
		}
	case "SequenceInsert":
		s := in[0].items
		o.setLen(len(s) + 1)
		for i, t := range s[:k.pos] {
			o.items[i].copyFrom(t)
		}
		o.items[k.pos].copyFrom(in[1])
		for i, t := range s[k.pos:] {
			o.items[k.pos+1+i].copyFrom(t)
		}
	case "SequenceErase":
		s := in[0].items
		o.setLen(len(s) - 1)
		for i, t := range s[:k.pos] {
			o.items[i].copyFrom(t)
		}
		for i, t := range s[k.pos+1:] {
			o.items[k.pos+i].copyFrom(t)
		}
	case "SequenceAt":
		copy(o.data, in[0].items[k.pos].data)
	case "SequenceLength":
		o.i64()[0] = int64(len(in[0].items))
	case "SplitToSequence":
		return k.split(in, o)
	case "ConcatFromSequence":
		k.concat(in[0].items, o)
	case "copy", "get":
		copyValue(o, in[0])
		if k.op == "get" {
			o.none = false
		}
	}
	return nil
}

// split runs SplitToSequence.
func (k *seqKernel) split(in []*tensor, o *tensor) error {
	x := in[0]
	a, _ := wrapAxis(k.axis, len(x.shape))
	dim := x.shape[a]
	outer := 1
	for _, d := range x.shape[:a] {
		outer *= d
	}
	inner := x.dt.Size()
	for _, d := range x.shape[a+1:] {
		inner *= d
	}
	var sizes []int64
	var chunk int64
	bySizes := false // a 1-D split (sizes may be empty, for an empty axis)
	squeeze := false
	if s := optIn(in, 1); s == nil {
		chunk, squeeze = 1, !k.keep
	} else {
		v, ok := intValues(s, &k.buf)
		if !ok {
			return shapeErr(k.n, "split must be int32 or int64")
		}
		if len(s.shape) == 0 {
			if len(v) != 1 || v[0] <= 0 {
				return shapeErr(k.n, "split must be positive")
			}
			chunk = v[0]
		} else {
			sizes, bySizes = v, true
			sum := int64(0)
			for _, l := range v {
				if l < 0 {
					return shapeErr(k.n, "split %v has a negative length", v)
				}
				sum += l
			}
			if sum != int64(dim) {
				return shapeErr(k.n, "split %v does not sum to the axis length %d", v, dim)
			}
		}
	}
	n := len(sizes)
	if !bySizes {
		n = int((int64(dim) + chunk - 1) / chunk)
	}
	o.setLen(n)
	start := 0
	for i := range n {
		l := int(chunk)
		if bySizes {
			l = int(sizes[i])
		}
		l = min(l, dim-start)
		it := o.items[i]
		it.dt = x.dt
		if squeeze {
			sh := it.resize(len(x.shape) - 1)
			copy(sh, x.shape[:a])
			copy(sh[a:], x.shape[a+1:])
		} else {
			copy(it.resize(len(x.shape)), x.shape)
			it.shape[a] = l
		}
		need := outer * l * inner
		if cap(it.data) < need {
			it.data = alignedBytes(need)
		}
		it.data = it.data[:need]
		for j := range outer {
			copy(it.data[j*l*inner:(j+1)*l*inner], x.data[(j*dim+start)*inner:(j*dim+start+l)*inner])
		}
		start += l
	}
	return nil
}

// concat runs ConcatFromSequence into o, whose shape is set.
func (k *seqKernel) concat(items []*tensor, o *tensor) {
	a, _ := wrapAxis(k.axis, len(o.shape))
	outer := 1
	for _, d := range o.shape[:a] {
		outer *= d
	}
	inner := o.dt.Size()
	for _, d := range o.shape[a+1:] {
		inner *= d
	}
	row := o.shape[a] * inner
	off := 0
	for _, it := range items {
		l := 1
		if !k.newAxis {
			l = it.shape[a]
		}
		w := l * inner
		for j := range outer {
			copy(o.data[j*row+off:j*row+off+w], it.data[j*w:(j+1)*w])
		}
		off += w
	}
}

// newSeqKernel checks the element type (strings are not supported: their
// bytes are an encoding) and the kind of input 0.
func newSeqKernel(c *buildCtx, op string, seqIn bool) (*seqKernel, error) {
	for _, v := range c.in {
		if v.DType == payload.String {
			return nil, c.unsupported("sequences and optionals of strings are not supported")
		}
	}
	if c.n.OpType == "SequenceEmpty" {
		if dt := c.rule.(*model.SequenceEmptyAttrs).DType; dt == payload.String {
			return nil, c.unsupported("sequences and optionals of strings are not supported")
		}
	}
	if seqIn && (len(c.in) == 0 || !c.in[0].Kind.IsSequence()) {
		return nil, c.unsupported("input 0 is not a sequence")
	}
	switch op {
	case "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase", "SplitToSequence":
		if len(c.out) == 0 || !c.out[0].Kind.IsSequence() {
			return nil, c.unsupported("output 0 is not known to be a sequence")
		}
	}
	return &seqKernel{n: c.n, op: op}, nil
}

func init() {
	for _, op := range []string{"SequenceEmpty", "SequenceConstruct", "SplitToSequence"} {
		register(op, func(c *buildCtx) (kernel, error) {
			k, err := newSeqKernel(c, op, false)
			if err != nil {
				return nil, err
			}
			if a, ok := c.rule.(*model.SplitToSequenceAttrs); ok {
				k.axis, k.keep = a.Axis, a.KeepDims
			}
			return k, nil
		})
	}
	for _, op := range []string{"SequenceInsert", "SequenceErase", "SequenceAt", "SequenceLength", "ConcatFromSequence"} {
		register(op, func(c *buildCtx) (kernel, error) {
			k, err := newSeqKernel(c, op, true)
			if err != nil {
				return nil, err
			}
			if a, ok := c.rule.(*model.ConcatFromSequenceAttrs); ok {
				k.axis, k.newAxis = a.Axis, a.NewAxis
			}
			return k, nil
		})
	}
}
