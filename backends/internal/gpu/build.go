package gpu

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// buildCtx is what an op's builder sees: the node, its input and output
// values with concrete shapes (nil for an absent one), and the planner to
// emit kernel launches into.
type buildCtx struct {
	pl    *planner
	n     *model.Node
	opset int64
	in    []*val
	out   []*val
}

// builder plans one node: it checks the node's attributes and types,
// refusing what the backend lacks with errs.Unsupported, and emits its
// kernel launches (or makes its output a view of an input).
type builder func(c *buildCtx) error

// registry maps op types to builders; each op file fills it from init.
var registry = map[string]builder{}

func register(b builder, ops ...string) {
	for _, op := range ops {
		if _, dup := registry[op]; dup {
			panic("gpu: op registered twice: " + op)
		}
		registry[op] = b
	}
}

// unsupported returns an errs.Unsupported error naming the node.
func (c *buildCtx) unsupported(format string, args ...any) error {
	return errs.New(errs.Unsupported, "node %q (%s): %s (%s backend)", c.n.Label(), c.n.OpType, fmt.Sprintf(format, args...), c.pl.cfg.Name)
}

// invalid returns an errs.InvalidArtifact error naming the node.
func (c *buildCtx) invalid(format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): %s", c.n.Label(), c.n.OpType, fmt.Sprintf(format, args...))
}

// input returns input i, or an error when it is absent.
func (c *buildCtx) input(i int) (*val, error) {
	if i >= len(c.in) || c.in[i] == nil {
		return nil, c.invalid("input %d is missing", i)
	}
	return c.in[i], nil
}

// output returns output 0.
func (c *buildCtx) output() (*val, error) {
	if len(c.out) == 0 || c.out[0] == nil {
		return nil, c.invalid("output 0 is missing")
	}
	return c.out[0], nil
}

// only refuses extra used outputs beyond the first n.
func (c *buildCtx) only(n int) error {
	for i := n; i < len(c.out); i++ {
		if c.out[i] != nil {
			return c.unsupported("output %d is not computed", i)
		}
	}
	return nil
}

// want checks that v has one of the element types.
func (c *buildCtx) want(v *val, dts ...payload.DType) error {
	for _, d := range dts {
		if v.dt == d {
			return nil
		}
	}
	return c.unsupported("%q has element type %s; the kernels take %v", v.name, v.dt, dts)
}

// constInts returns input i's values, which must be a constant once the
// input shapes are known.
func (c *buildCtx) constInts(i int) ([]int64, error) {
	v, err := c.input(i)
	if err != nil {
		return nil, err
	}
	if v.c == nil {
		return nil, c.unsupported("input %q must be a constant or computed from shapes alone", v.name)
	}
	return v.c.Int64s()
}

// constFloat returns input i's single value when it is a constant.
func (c *buildCtx) constFloat(i int) (float32, bool, error) {
	if i >= len(c.in) || c.in[i] == nil {
		return 0, false, nil
	}
	v := c.in[i]
	if v.c == nil {
		return 0, false, c.unsupported("input %q must be a constant", v.name)
	}
	f, err := v.c.Float64s()
	if err != nil {
		return 0, false, err
	}
	if len(f) != 1 {
		return 0, false, c.invalid("input %q must hold one value, holds %d", v.name, len(f))
	}
	return float32(f[0]), true, nil
}

// view makes output o a view of input i's bytes: no launch.
func (c *buildCtx) view(o, i int) error {
	in, err := c.input(i)
	if err != nil {
		return err
	}
	out := c.out[o]
	if out.size != in.size {
		return c.invalid("view %q of %d bytes over %q of %d bytes", out.name, out.size, in.name, in.size)
	}
	out.root = in.root
	out.loc = loc{off: in.loc.off}
	if in.root == in {
		out.loc.off = 0
	}
	out.c = in.c
	return nil
}

// emit appends a launch of kernel k with packed args, binding vals at
// buffer(1...) in order, over groups threadgroups of threads threads.
func (c *buildCtx) emit(k KernelID, args []byte, groups, threads [3]uint32, vals ...*val) {
	p := c.pl.p
	p.steps = append(p.steps, step{k: k, node: c.n.Label(), args: args, bufs: make([]loc, len(vals)), groups: groups, threads: threads})
	c.pl.pending = append(c.pl.pending, vals)
	p.maxBufs = max(p.maxBufs, len(vals))
}

// emit1D launches k over n threads in groups of GroupSize.
func (c *buildCtx) emit1D(k KernelID, args []byte, n int, vals ...*val) {
	if n == 0 {
		// Nothing to compute; devices refuse empty launches.
		return
	}
	g := uint32((n + GroupSize - 1) / GroupSize)
	c.emit(k, args, [3]uint32{g, 1, 1}, [3]uint32{GroupSize, 1, 1}, vals...)
}

// u32 converts a size known to fit (tensor sizes are capped well below
// 1<<31 elements by sized) to uint32.
func u32(n int) uint32 { return uint32(n) }

// contiguousStrides returns the row-major strides of shape.
func contiguousStrides(shape []int) []int {
	s := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= shape[i]
	}
	return s
}

// broadcastStrides returns the strides with which an input of shape in is
// read for an output of shape out (numpy broadcasting): 0 along broadcast
// dims, right-aligned.
func broadcastStrides(in, out []int) ([]int, bool) {
	if len(in) > len(out) {
		return nil, false
	}
	cs := contiguousStrides(in)
	s := make([]int, len(out))
	off := len(out) - len(in)
	for i := range in {
		switch in[i] {
		case out[off+i]:
			s[off+i] = cs[i]
		case 1:
			s[off+i] = 0
		default:
			return nil, false
		}
	}
	return s, true
}

// fill copies s into a fixed array of int32.
func fill(dst []int32, s []int) {
	clear(dst)
	for i, v := range s {
		dst[i] = int32(v)
	}
}

// axisOf normalises a possibly negative axis for rank r.
func (c *buildCtx) axisOf(a int64, r int) (int, error) {
	if a < 0 {
		a += int64(r)
	}
	if a < 0 || a >= int64(max(r, 1)) {
		return 0, c.invalid("axis %d out of range for rank %d", a, r)
	}
	return int(a), nil
}

// rankOK refuses ranks the strided kernels cannot index.
func (c *buildCtx) rankOK(vs ...*val) error {
	for _, v := range vs {
		if v != nil && len(v.shape) > MaxRank {
			return c.unsupported("%q has rank %d; the kernels index at most %d", v.name, len(v.shape), MaxRank)
		}
	}
	return nil
}

// splitAt returns the products of shape before axis, at it, and after it.
func splitAt(shape []int, axis int) (outer, mid, inner int) {
	outer, mid, inner = 1, 1, 1
	for i, d := range shape {
		switch {
		case i < axis:
			outer *= d
		case i == axis:
			mid = d
		default:
			inner *= d
		}
	}
	return
}

// temp returns a scratch value of the node, live only during its launches:
// its arena space is reused by later nodes.
func (c *buildCtx) temp(dt payload.DType, shape []int) (*val, error) {
	pl := c.pl
	v := pl.newVal(c.freshName("scratch"), dt, shape)
	if err := pl.sized(v); err != nil {
		return nil, err
	}
	v.last = pl.nstep
	pl.order = append(pl.order, v)
	return v, nil
}

// constOf returns a constant value made at planning time (index tables,
// weights), uploaded with the plan's other constants.
func (c *buildCtx) constOf(t *model.Tensor) *val {
	t.Name = c.freshName(t.Name)
	return c.pl.constVal(t.Name, t)
}

// freshName returns a value name of the node's, kind, that no value of the
// graph or the plan has.
func (c *buildCtx) freshName(kind string) string {
	pl := c.pl
	name := ""
	for i := 0; name == "" || pl.vals[name] != nil || pl.g.Const(name) != nil || pl.g.Values[name] != nil; i++ {
		name = fmt.Sprintf("%s:%s%d", c.n.Label(), kind, i)
	}
	return name
}
