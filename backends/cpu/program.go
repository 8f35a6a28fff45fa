package cpu

import (
	"github.com/lintel-ml/lintel/backends/internal/meta"
	"sort"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// value kinds.
const (
	kindComputed = iota // produced by a step into a planned slot
	kindInput           // a graph input: views the caller's payload
	kindConst           // a constant: views the model's bytes
	kindAlias           // a view of another value's bytes
)

// valueInfo is a value's static description in a program.
type valueInfo struct {
	name  string
	dt    payload.DType
	rank  int   // static rank, -1 when unknown
	shape []int // static shape (-1 for unknown dims), nil when rank unknown
	kind  int
	// vk is the ONNX kind of value: tensor, sequence or optional.
	vk   model.ValueKind
	slot int // planned buffer, for kindComputed
	// alias is, for kindAlias, the value whose bytes this one views.
	alias int
	// carry is the index in program.carries of the carried output whose
	// buffers this value is written to, -1 for none (such a value has no
	// slot).
	carry int
	c     *model.Tensor // for kindConst
}

// step is one kernel application.
type step struct {
	n *model.Node
	k kernel
	// shaper sets the outputs' shapes; exec copies it per instance.
	shaper *outShaper
	// in holds value indices, -1 for an absent input; after the node's
	// inputs come the outer values its subgraphs use (capturer).
	in  []int
	out []int // value indices, -1 for an unused output
	// aliasOf is the input position an aliasing kernel views, or -1.
	aliasOf int
	// w is the kernel when it runs subgraphs, which stop with the call's
	// context too.
	w watcher
}

// program is a compiled graph: kernels in order, values and the buffer
// plan. It is read-only once compiled.
type program struct {
	label   string
	values  []valueInfo
	steps   []step
	inputs  []int // graph inputs, in order
	outputs []int // graph outputs, in order
	nslots  int
	// stackable: InferBatch may stack same-shaped items along axis 0.
	stackable bool
	opts      compute.Options
	g         *model.Graph
	// pool is the model's helper threads (nil for one thread) and gemm
	// the packed-SGEMM scratch its kernels share.
	pool *workerPool
	gemm *gemmCtx
	// share holds the read-only state instances of one artifact share;
	// the program keeps it alive.
	share *shared
	// carries are compute.Options.Carries, taken out of inputs and
	// outputs.
	carries []carry
}

// compile builds kernels for every node of g (sorted and optimized) and
// plans buffers. Kernels keep what they precompute in sh (nil: nothing is
// shared).
func compile(g *model.Graph, opts compute.Options, label string, sh *shared) (*program, error) {
	pool := newWorkerPool(opts.Threads)
	p, err := compileWith(g, opts, label, sh, newGemmCtx(pool))
	if err == nil {
		p.gemm.choosePrefetch()
		err = p.applyCarries()
	}
	if err != nil {
		pool.close()
		return nil, err
	}
	p.pool = pool
	return p, nil
}

// compileWith is compile with the SGEMM context (and so the helper
// threads) of the program it belongs to: a subgraph's program shares its
// model's.
func compileWith(g *model.Graph, opts compute.Options, label string, sh *shared, gemm *gemmCtx) (*program, error) {
	p := &program{label: label, opts: opts, g: g, share: sh, gemm: gemm}
	index := map[string]int{}
	add := func(name string, vi valueInfo) int {
		vi.name = name
		vi.alias = -1
		vi.slot = -1
		vi.carry = -1
		if t := g.Values[name]; t != nil {
			if vi.dt == payload.Undefined {
				vi.dt = t.DType
			}
			vi.vk = t.Kind
			if t.RankKnown {
				vi.rank = len(t.Shape)
				vi.shape = t.Shape
			}
		}
		p.values = append(p.values, vi)
		index[name] = len(p.values) - 1
		return len(p.values) - 1
	}
	for _, in := range g.Inputs {
		if !in.DType.Valid() && in.DType != payload.String {
			return nil, errs.New(errs.Unsupported, "%s: input %q has element type %s", label, in.Name, in.DType)
		}
		i := add(in.Name, valueInfo{kind: kindInput, dt: in.DType, rank: -1})
		p.values[i].vk = in.Kind
		if in.RankKnown {
			p.values[i].rank = len(in.Shape)
			p.values[i].shape = in.Shape
		}
		p.inputs = append(p.inputs, i)
	}
	for _, name := range sortedNames(g.Initializers) {
		t := g.Initializers[name]
		if err := t.Check(); err != nil {
			return nil, err
		}
		c := t
		if len(t.Raw) > 0 && !payload.IsAligned(t.Raw, t.DType.Size()) {
			c = &model.Tensor{Name: t.Name, DType: t.DType, Shape: t.Shape, Raw: model.AlignedBytes(t.Raw)}
		}
		add(name, valueInfo{kind: kindConst, dt: t.DType, rank: len(t.Shape), shape: t.Shape, c: c})
	}
	for _, n := range g.Nodes {
		if _, err := builderOf(n); err != nil {
			return nil, err
		}
		c := &buildCtx{g: g, n: n, opts: opts, opset: g.Opset, gemm: p.gemm, share: sh}
		st := step{n: n, aliasOf: -1}
		for _, name := range n.Inputs {
			if name == "" {
				st.in = append(st.in, -1)
				c.in = append(c.in, model.ValueInfo{})
				continue
			}
			vi, ok := index[name]
			if !ok {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): input %q is not defined", n.Label(), n.OpType, name)
			}
			st.in = append(st.in, vi)
			c.in = append(c.in, staticInfo(g, &p.values[vi]))
		}
		for _, name := range n.Outputs {
			vi := model.ValueInfo{Name: name}
			if t := g.Values[name]; t != nil {
				vi = *t
			}
			if name != "" && !vi.DType.Valid() && vi.DType != payload.String {
				return nil, errs.New(errs.Unsupported, "node %q (%s): element type of output %q is unknown or unsupported (%s)", n.Label(), n.OpType, name, vi.DType)
			}
			c.out = append(c.out, vi)
		}
		if err := checkKinds(c); err != nil {
			return nil, err
		}
		k, err := buildKernel(c)
		if err != nil {
			return nil, err
		}
		st.k = k
		st.shaper = newOutShaper(c, k)
		st.w, _ = k.(watcher)
		if cp, ok := k.(capturer); ok {
			for _, name := range cp.captures() {
				vi, ok := index[name]
				if !ok {
					return nil, errs.New(errs.InvalidArtifact, "node %q (%s): its subgraphs use %q, which is not defined before it", n.Label(), n.OpType, name)
				}
				st.in = append(st.in, vi)
			}
		}
		if a, ok := k.(aliaser); ok {
			st.aliasOf = a.aliasInput()
			if st.aliasOf >= len(st.in) || st.in[st.aliasOf] < 0 {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): input %d is missing", n.Label(), n.OpType, st.aliasOf)
			}
		}
		for oi, name := range n.Outputs {
			if name == "" {
				st.out = append(st.out, -1)
				continue
			}
			if _, dup := index[name]; dup {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): output %q is defined twice", n.Label(), n.OpType, name)
			}
			vi := valueInfo{kind: kindComputed, dt: c.out[oi].DType, rank: -1}
			if oi == 0 && st.aliasOf >= 0 {
				vi.kind = kindAlias
				vi.alias = st.in[st.aliasOf]
			}
			j := add(name, vi)
			if vi.kind == kindAlias {
				p.values[j].alias = vi.alias
			}
			st.out = append(st.out, j)
		}
		p.steps = append(p.steps, st)
	}
	for _, o := range g.Outputs {
		vi, ok := index[o.Name]
		if !ok {
			return nil, errs.New(errs.InvalidArtifact, "%s: graph output %q is not produced", label, o.Name)
		}
		p.outputs = append(p.outputs, vi)
	}
	p.plan()
	p.stackable = p.analyzeStacking() && !p.hasContainers()
	return p, nil
}

// staticInfo returns what a builder may know of a value statically.
func staticInfo(g *model.Graph, v *valueInfo) model.ValueInfo {
	vi := model.ValueInfo{Name: v.name, DType: v.dt, Kind: v.vk}
	if v.rank >= 0 {
		vi.RankKnown = true
		vi.Shape = v.shape
	}
	if t := g.Values[v.name]; t != nil && t.RankKnown && !vi.RankKnown {
		vi.RankKnown = true
		vi.Shape = t.Shape
	}
	return vi
}

// root follows aliases to the value that owns the bytes.
func (p *program) root(v int) int {
	for p.values[v].kind == kindAlias {
		v = p.values[v].alias
	}
	return v
}

// plan assigns every computed value a buffer slot, reusing the slots of
// values whose last reader has run. A value's lifetime covers every alias
// of it; graph outputs live to the end.
func (p *program) plan() {
	last := make([]int, len(p.values))
	for i := range last {
		last[i] = -1
	}
	for si, st := range p.steps {
		for _, v := range st.in {
			if v >= 0 {
				last[p.root(v)] = si
			}
		}
		for _, v := range st.out {
			if v >= 0 && last[p.root(v)] < si {
				last[p.root(v)] = si
			}
		}
	}
	for _, v := range p.outputs {
		last[p.root(v)] = len(p.steps)
	}
	var free []int
	dying := make([][]int, len(p.steps)+1)
	for i, l := range last {
		if l >= 0 && p.values[i].kind == kindComputed && p.values[i].carry < 0 {
			dying[l] = append(dying[l], i)
		}
	}
	for si, st := range p.steps {
		for _, v := range st.out {
			if v < 0 || p.values[v].kind != kindComputed || p.values[v].carry >= 0 {
				continue
			}
			if len(free) > 0 {
				p.values[v].slot = free[len(free)-1]
				free = free[:len(free)-1]
			} else {
				p.values[v].slot = p.nslots
				p.nslots++
			}
		}
		// Values whose last use is this step free their slot after it
		// (never before: a step's outputs must not share its inputs').
		for _, v := range dying[si] {
			free = append(free, p.values[v].slot)
		}
	}
}

// metadata describes the program's inputs and outputs. orig is the graph
// as decoded, before optimization.
func (p *program) metadata(orig *model.Graph) compute.ModelMetadata {
	md := compute.ModelMetadata{
		PreferredInput:  memclass.Host,
		PreferredOutput: memclass.Host,
		AcceptedInput:   memclass.HostAccessible,
	}
	ins, outs := orig.Inputs, p.g.Outputs
	if len(p.carries) > 0 {
		// Carried values are neither given nor returned.
		carried := map[string]bool{}
		for _, c := range p.carries {
			carried[p.values[c.in].name], carried[p.values[c.out].name] = true, true
		}
		drop := func(vs []model.ValueInfo) []model.ValueInfo {
			var kept []model.ValueInfo
			for _, v := range vs {
				if !carried[v.Name] {
					kept = append(kept, v)
				}
			}
			return kept
		}
		ins, outs = drop(ins), drop(outs)
	}
	md.Inputs, md.MaxInputBytes = meta.Tensors(ins, nil)
	md.Outputs, md.MaxOutputBytes = meta.Tensors(outs, p.g.Values)
	return md
}

func sortedNames(m map[string]*model.Tensor) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
