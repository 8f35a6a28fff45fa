package cpu

import (
	"context"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Subgraphs.
//
// The kernels of If, Loop and Scan compile each of their subgraphs once,
// at load, into a program of its own, and keep an executor for it. A
// subgraph's program takes its formal inputs, then the values of the
// enclosing graphs it uses (its captures) as inputs; the enclosing
// graphs' constants it uses become its own. The node's step passes the
// captured values after the node's inputs (capturer), so the planner keeps
// them alive until the node has run and the stacking analysis sees them.
//
// A subgraph's outputs live in its executor's buffers, or view its
// inputs: the kernels copy them out before anything else runs.

// subRun is one compiled subgraph with its run-time state.
type subRun struct {
	p *program
	x *exec
	// formal is the number of formal inputs; from[j] is the position,
	// in the node kernel's inputs, of the value that feeds captured input
	// formal+j.
	formal int
	from   []int
}

// subCaptures returns the union of the captures of gs, in order of first
// use: the values of c's graph a control-flow kernel needs.
func subCaptures(c *buildCtx, gs ...*model.Graph) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range gs {
		for _, name := range model.Captures(g) {
			if !seen[name] && c.g.Const(name) == nil {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}

// subgraphGraph returns sg, a subgraph of a node of outer, as a graph
// compile can run: its formal inputs and then the non-constant values of
// outer it uses (captures), as inputs; the constants of outer it uses
// are its initializers.
func subgraphGraph(outer, sg *model.Graph) (g *model.Graph, captures []string) {
	g = &model.Graph{
		Name:         sg.Name,
		Inputs:       append([]model.ValueInfo(nil), sg.Inputs...),
		Outputs:      sg.Outputs,
		Nodes:        sg.Nodes,
		Initializers: sg.Initializers,
		Values:       make(map[string]*model.ValueInfo, len(sg.Values)),
		Opset:        outer.Opset,
		Opsets:       outer.Opsets,
		IRVersion:    outer.IRVersion,
	}
	for k, v := range sg.Values {
		g.Values[k] = v
	}
	for _, name := range model.Captures(sg) {
		if t := outer.Const(name); t != nil {
			if len(g.Initializers) == len(sg.Initializers) {
				g.Initializers = make(map[string]*model.Tensor, len(sg.Initializers)+1)
				for k, v := range sg.Initializers {
					g.Initializers[k] = v
				}
			}
			g.Initializers[name] = t
			vi := model.ValueInfo{Name: name, DType: t.DType, Shape: t.Shape, RankKnown: true}
			g.Values[name] = &vi
			continue
		}
		vi := staticOf(outer, name)
		vi.Name = name
		g.Inputs = append(g.Inputs, vi)
		g.Values[name] = &vi
		captures = append(captures, name)
	}
	return g, captures
}

// compileSub compiles sg, held by c's node in attribute attr, for a
// kernel whose captured inputs are caps.
func compileSub(c *buildCtx, sg *model.Graph, caps []string) (*subRun, error) {
	g, own := subgraphGraph(c.g, sg)
	// The subgraph gets the load-time passes the main graph got: its
	// Constant nodes and what depends only on them fold into constants,
	// which the kernels then prepare once (packed weights) instead of
	// on every run.
	g = g.Clone()
	if err := optimize(g); err != nil {
		return nil, model.Within(c.n, sg, err)
	}
	for _, in := range sg.Inputs {
		if in.DType == payload.String {
			return nil, c.unsupported("string values in subgraphs")
		}
	}
	opts := c.opts
	opts.Profile = false
	p, err := compileWith(g, opts, c.n.Label(), c.share, c.gemmCtx())
	if err != nil {
		return nil, model.Within(c.n, sg, err)
	}
	for i := range p.values {
		if p.values[i].dt == payload.String {
			return nil, c.unsupported("string values in subgraphs")
		}
	}
	if p.hasContainers() && c.n.OpType != "If" && c.n.OpType != "Loop" {
		return nil, c.unsupported("sequence or optional values as subgraph inputs or outputs")
	}
	s := &subRun{p: p, x: newExec(p), formal: len(sg.Inputs), from: make([]int, len(own))}
	for j, name := range own {
		s.from[j] = -1
		for k, cname := range caps {
			if cname == name {
				s.from[j] = len(c.n.Inputs) + k
			}
		}
		if s.from[j] < 0 {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): subgraph value %q is not captured", c.n.Label(), c.n.OpType, name)
		}
	}
	return s, nil
}

// bindCaptures sets the subgraph's captured inputs from the kernel's
// inputs in.
func (s *subRun) bindCaptures(in []*tensor) error {
	for j, k := range s.from {
		if err := s.bind(s.formal+j, in[k]); err != nil {
			return err
		}
	}
	return nil
}

// bind sets formal input i to t.
func (s *subRun) bind(i int, t *tensor) error {
	if t.seq || t.none || s.p.values[s.p.inputs[i]].vk != model.KindTensor {
		return s.x.bindValue(i, t)
	}
	return s.x.setInput(i, t.dt, t.shape, t.data)
}

// outType returns the element type of the subgraph's output j.
func (s *subRun) outType(j int) payload.DType { return s.p.values[s.p.outputs[j]].dt }

// inType returns the element type of the subgraph's formal input i.
func (s *subRun) inType(i int) payload.DType { return s.p.values[s.p.inputs[i]].dt }

// setShape points t's shape at a copy of shape, growing it only when too
// small.
func setShape(t *tensor, shape []int) { copy(t.resize(len(shape)), shape) }

// holdCopy copies src into the kernel-owned tensor dst, growing dst's
// aligned buffer only when too small.
func holdCopy(dst, src *tensor) {
	if src.seq || src.none || dst.seq {
		dst.dt, dst.seq = src.dt, src.seq
		setShape(dst, src.shape)
		copyValue(dst, src)
		return
	}
	dst.dt = src.dt
	setShape(dst, src.shape)
	n := len(src.data)
	if cap(dst.data) < n {
		dst.data = alignedBytes(n)
	}
	dst.data = dst.data[:n]
	copy(dst.data, src.data)
}

// watch makes the subgraph's executor stop with the node's call.
func (s *subRun) watch(done <-chan struct{}, ctx context.Context) {
	s.x.done, s.x.ctx = done, ctx
}
