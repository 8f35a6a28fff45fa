package gpu

import (
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// locKind says which memory a value lives in during a call.
type locKind uint8

const (
	locNone  locKind = iota
	locArena         // the call's arena, at off
	locConst         // constant idx of the plan, at off
	locInput         // graph input idx, at off
)

// loc is where a value's bytes are during a call.
type loc struct {
	kind locKind
	idx  int
	off  int
}

// val is one value of a specialised graph, while planning.
type val struct {
	name  string
	dt    payload.DType
	shape []int
	size  int // bytes
	c     *model.Tensor
	loc   loc
	// root is the value whose bytes this one views (itself when it owns
	// them); def and last are the steps that write and last read the
	// root's bytes.
	root      *val
	def, last int
}

// numel returns the value's element count.
func (v *val) numel() int { return payload.NumElems(v.shape) }

// step is one kernel launch of a plan.
type step struct {
	k       KernelID
	node    string
	args    []byte
	bufs    []loc
	groups  [3]uint32
	threads [3]uint32
}

// outInfo is where a graph output is found after a call.
type outInfo struct {
	name  string
	dt    payload.DType
	shape []int
	loc   loc
	size  int
}

// plan is a graph specialised to one set of input shapes: its kernel
// launches in order, the arena layout of every intermediate value, the
// constants the kernels read, and where the outputs end up. It is
// read-only once built.
type plan struct {
	inShapes [][]int
	steps    []step
	// inOff is where each input is staged in the arena when its payload
	// cannot be bound in place; inSize its byte size.
	inOff, inSize []int
	arenaSize     int
	consts        []*model.Tensor
	// constBufs are the device buffers of consts, set when a model adopts
	// the plan.
	constBufs []BufID
	outputs   []outInfo
	// maxBufs is the most buffers one step binds.
	maxBufs int
}

// arenaAlign is the alignment of every value in the arena, enough for
// any buffer offset Metal or CUDA accepts.
const arenaAlign = 256

// planner builds a plan.
type planner struct {
	cfg      *Config
	label    string
	g        *model.Graph
	vals     map[string]*val
	order    []*val // values placed in the arena, in creation order
	p        *plan
	constIdx map[*model.Tensor]int
	nstep    int
	maxBytes int
	// half is the model's 16-bit weights, nil for float32 ones.
	half *halfWeights
	// pending holds, per step, the values it binds; layout turns them
	// into locations.
	pending [][]*val
}

// specialise returns a copy of g with its inputs fixed to shapes, optimized
// again so that everything that depends only on shapes is folded.
func specialise(g *model.Graph, shapes [][]int) (*model.Graph, error) {
	s := g.Clone()
	for i := range s.Inputs {
		in := &s.Inputs[i]
		in.Shape = append([]int(nil), shapes[i]...)
		in.RankKnown = true
		in.DimParams = nil
		vi := *in
		s.Values[in.Name] = &vi
	}
	if err := model.Optimize(s, cpu.Evaluate); err != nil {
		return nil, err
	}
	return s, nil
}

// buildPlan specialises g to the input shapes and plans it, with half's
// 16-bit weights unless it is nil.
func buildPlan(cfg *Config, g *model.Graph, shapes [][]int, label string, maxBytes int, half *halfWeights) (p *plan, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, errs.New(errs.ExecutionFailed, "%s: %s: internal error while planning: %v", label, cfg.Name, r)
		}
	}()
	s, err := specialise(g, shapes)
	if err != nil {
		return nil, err
	}
	pl := &planner{cfg: cfg, label: label, g: s, vals: map[string]*val{}, constIdx: map[*model.Tensor]int{}, maxBytes: maxBytes, half: half,
		p: &plan{inShapes: cloneShapes(shapes)}}
	if err := pl.run(); err != nil {
		return nil, err
	}
	return pl.p, nil
}

func cloneShapes(shapes [][]int) [][]int {
	out := make([][]int, len(shapes))
	for i, s := range shapes {
		out[i] = append([]int{}, s...)
	}
	return out
}

func (pl *planner) run() error {
	s := pl.g
	for j, in := range s.Inputs {
		v := pl.newVal(in.Name, in.DType, in.Shape)
		if err := pl.sized(v); err != nil {
			return err
		}
		v.def = -1
		v.loc = loc{kind: locInput, idx: j}
		pl.p.inSize = append(pl.p.inSize, v.size)
		pl.order = append(pl.order, v)
	}
	for si, n := range s.Nodes {
		pl.nstep = si
		if err := pl.node(n); err != nil {
			return err
		}
	}
	end := len(s.Nodes)
	for _, o := range s.Outputs {
		v, err := pl.get(o.Name)
		if err != nil {
			return err
		}
		v.root.last = end
		pl.p.outputs = append(pl.p.outputs, outInfo{name: o.Name, dt: v.dt, shape: v.shape, size: v.size})
	}
	pl.layout()
	for i, o := range s.Outputs {
		pl.p.outputs[i].loc = pl.vals[o.Name].locNow()
	}
	if pl.half != nil {
		pl.p.pruneConsts()
	}
	return nil
}

// locNow returns the value's location, following views to the owner.
func (v *val) locNow() loc {
	l := v.root.loc
	if v.root != v {
		l.off += v.loc.off
	}
	return l
}

func (pl *planner) newVal(name string, dt payload.DType, shape []int) *val {
	v := &val{name: name, dt: dt, shape: append([]int{}, shape...), def: pl.nstep, last: -1}
	v.root = v
	pl.vals[name] = v
	return v
}

// sized sets v.size, refusing unknown or oversized shapes.
func (pl *planner) sized(v *val) error {
	for _, d := range v.shape {
		if d < 0 {
			return errs.New(errs.Unsupported, "%s: %s: the shape of %q depends on values computed on the device", pl.label, pl.cfg.Name, v.name)
		}
	}
	n := v.numel()
	if n < 0 || n > pl.maxBytes/max(v.dt.Size(), 1) {
		return errs.New(errs.ResourceUnavailable, "%s: %s: %q of shape %v exceeds the tensor size cap of %d bytes", pl.label, pl.cfg.Name, v.name, v.shape, pl.maxBytes)
	}
	v.size = n * v.dt.Size()
	return nil
}

// get returns the value named name: a planned one or a constant.
func (pl *planner) get(name string) (*val, error) {
	if v := pl.vals[name]; v != nil {
		return v, nil
	}
	t := pl.g.Const(name)
	if t == nil {
		return nil, errs.New(errs.InvalidArtifact, "%s: %s: value %q is not defined", pl.label, pl.cfg.Name, name)
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	return pl.constVal(name, t), nil
}

// constVal returns a new value named name that binds constant t, which
// joins the plan's constants the first time a value binds it.
func (pl *planner) constVal(name string, t *model.Tensor) *val {
	v := pl.newVal(name, t.DType, t.Shape)
	v.c = t
	v.size = len(t.Raw)
	v.def = -1
	idx, ok := pl.constIdx[t]
	if !ok {
		idx = len(pl.p.consts)
		pl.p.consts = append(pl.p.consts, t)
		pl.constIdx[t] = idx
	}
	v.loc = loc{kind: locConst, idx: idx}
	return v
}

// node plans one node of the specialised graph.
func (pl *planner) node(n *model.Node) error {
	if n.Domain != "" && n.Domain != "ai.onnx" {
		return errs.New(errs.Unsupported, "node %q (%s): domain %q is not supported by the %s backend", n.Label(), n.OpType, n.Domain, pl.cfg.Name)
	}
	b := registry[n.OpType]
	if b == nil {
		return errs.New(errs.Unsupported, "node %q (%s): op %s is not supported by the %s backend", n.Label(), n.OpType, n.OpType, pl.cfg.Name)
	}
	c := &buildCtx{pl: pl, n: n, opset: pl.g.Opset}
	for _, name := range n.Inputs {
		if name == "" {
			c.in = append(c.in, nil)
			continue
		}
		v, err := pl.get(name)
		if err != nil {
			return err
		}
		c.in = append(c.in, v)
	}
	for _, name := range n.Outputs {
		if name == "" {
			c.out = append(c.out, nil)
			continue
		}
		if pl.vals[name] != nil || pl.g.Const(name) != nil {
			return errs.New(errs.InvalidArtifact, "node %q (%s): output %q is defined twice", n.Label(), n.OpType, name)
		}
		vi := pl.g.Values[name]
		if vi == nil || !vi.RankKnown || !vi.DType.Valid() {
			return errs.New(errs.Unsupported, "node %q (%s): the type or shape of output %q is unknown", n.Label(), n.OpType, name)
		}
		v := pl.newVal(name, vi.DType, vi.Shape)
		if err := pl.sized(v); err != nil {
			return err
		}
		c.out = append(c.out, v)
	}
	if err := b(c); err != nil {
		return err
	}
	for _, v := range c.in {
		if v != nil && v.root.last < pl.nstep {
			v.root.last = pl.nstep
		}
	}
	for _, v := range c.out {
		if v == nil || v.root != v {
			continue
		}
		if v.last < pl.nstep {
			v.last = pl.nstep
		}
		pl.order = append(pl.order, v)
	}
	return nil
}

// layout gives every arena value an offset, reusing the space of values
// whose last reader has run: a value's bytes are live from the step that
// writes them to the step that last reads them (or any view of them), both
// included; graph outputs live to the end. Offsets are first-fit among the
// values live at the same time.
func (pl *planner) layout() {
	type iv struct{ off, end, from, to int }
	var placed []iv
	for _, v := range pl.order {
		if v.loc.kind == locConst {
			continue
		}
		from, to := v.def, v.last
		if to < from {
			to = from
		}
		size := alignUp(max(v.size, 1), arenaAlign)
		off := 0
		for moved := true; moved; {
			moved = false
			for _, q := range placed {
				if q.to < from || q.from > to {
					continue
				}
				if off < q.end && q.off < off+size {
					off = q.end
					moved = true
				}
			}
		}
		placed = append(placed, iv{off: off, end: off + size, from: from, to: to})
		if v.loc.kind == locInput {
			pl.p.inOff = append(pl.p.inOff, off)
			continue
		}
		v.loc = loc{kind: locArena, off: off}
		pl.p.arenaSize = max(pl.p.arenaSize, off+size)
	}
	for _, in := range pl.p.inOff {
		pl.p.arenaSize = max(pl.p.arenaSize, in+arenaAlign)
	}
	for i := range pl.p.inOff {
		pl.p.arenaSize = max(pl.p.arenaSize, pl.p.inOff[i]+alignUp(max(pl.p.inSize[i], 1), arenaAlign))
	}
	// Steps recorded value pointers; resolve them now that offsets exist.
	for i := range pl.p.steps {
		st := &pl.p.steps[i]
		for j := range st.bufs {
			st.bufs[j] = pl.pending[i][j].locNow()
		}
	}
}

func alignUp(n, a int) int { return (n + a - 1) / a * a }
