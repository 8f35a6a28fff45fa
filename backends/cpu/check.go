package cpu

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"os"
)

// Issue is one thing in a model that the backend cannot run.
type Issue struct {
	// Node is the node's label (its name, or op type and first output),
	// or "" for an issue that is not about one node, such as a graph
	// input of an unsupported element type.
	Node string
	// Op is the node's op type, and Domain its domain ("" for the default
	// ONNX domain). Both are "" when Node is.
	Op     string
	Domain string
	// Err says what is wrong; it wraps compute.ErrUnsupported for what the
	// backend lacks, ErrInvalidArtifact for what is malformed.
	Err error
}

// Check lists everything in art that LoadModel would refuse, one Issue
// per node (nodes inside the subgraphs of If, Loop and Scan too), where
// LoadModel stops at the first. It returns nil when the
// model loads. Like LoadModel it looks at the graph after the load-time
// passes (identity removal, constant folding), so nodes that are folded
// away are not reported.
func Check(art *artifacts.Artifact, opts compute.Options) (issues []Issue) {
	if art == nil || art.Graph() == nil {
		return []Issue{{Err: errs.New(errs.InvalidArtifact, "cpu: nil artifact")}}
	}
	if _, err := weightHalf(opts.WeightType); err != nil {
		return []Issue{{Err: err}}
	}
	g := art.Graph().Clone()
	if err := optimize(g); err != nil {
		issues = append(issues, Issue{Err: err})
		g = art.Graph().Clone()
	}
	for _, in := range g.Inputs {
		if !in.DType.Valid() && in.DType != payload.String {
			issues = append(issues, Issue{Err: errs.New(errs.Unsupported, "%s: input %q has element type %s", art.Label(), in.Name, in.DType)})
		}
	}
	for _, n := range g.Nodes {
		issues = append(issues, checkDeep(g, n, opts, 0)...)
	}
	return issues
}

// checkDeep returns the issues of n, a node of g, and of the nodes of its
// subgraphs at every depth. An issue inside a subgraph names the node
// that holds it in its error; the holding node is reported only when its
// subgraphs have no issue of their own.
func checkDeep(g *model.Graph, n *model.Node, opts compute.Options, depth int) []Issue {
	var nested []Issue
	if depth < maxCheckDepth {
		for _, sg := range model.NodeSubgraphs(n) {
			sub, _ := subgraphGraph(g, sg)
			for _, m := range sg.Nodes {
				if m == nil {
					continue
				}
				for _, is := range checkDeep(sub, m, opts, depth+1) {
					is.Err = model.Within(n, sg, is.Err)
					nested = append(nested, is)
				}
			}
		}
	}
	if len(nested) > 0 {
		return nested
	}
	if err := checkNode(g, n, opts); err != nil {
		return []Issue{{Node: n.Label(), Op: n.OpType, Domain: n.Domain, Err: err}}
	}
	return nil
}

// maxCheckDepth bounds how deep Check looks into nested subgraphs.
const maxCheckDepth = 64

// optimize runs the load-time passes, turning a panic into an error.
func optimize(g *model.Graph) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errs.New(errs.InvalidArtifact, "cpu: internal error while optimizing: %v", r)
		}
	}()
	return optimizeGraph(g)
}

// optimizeGraph runs the passes LoadModel runs before compiling: the
// QDQ node units' fusion, the model's Optimize, WidenHalf (a float16 or
// bfloat16 graph computes in float32 between its inputs and outputs),
// then the fusions the kernels take.
func optimizeGraph(g *model.Graph) error {
	if err := fuseQDQ(g); err != nil {
		return err
	}
	if err := model.Optimize(g, evalNode); err != nil {
		return err
	}
	if _, err := model.WidenHalf(g); err != nil {
		return err
	}
	if err := model.FuseAttention(g); err != nil {
		return err
	}
	if err := model.FuseNorms(g); err != nil {
		return err
	}
	if err := model.FuseIntegerScale(g); err != nil {
		return err
	}
	if err := model.FuseActivations(g); err != nil {
		return err
	}
	if err := model.SplitBatchNorm(g); err != nil {
		return err
	}
	return model.FuseElementwise(g)
}

// fuseQDQ runs FuseQDQ on g, sorted and typed, before any folding (which
// would turn the weights' DequantizeLinear into float constants).
// LINTEL_QDQ_FUSION=0 in the environment, read at each load, turns it
// off, for measuring what it gains.
func fuseQDQ(g *model.Graph) error {
	if os.Getenv("LINTEL_QDQ_FUSION") == "0" {
		return nil
	}
	if err := model.Sort(g); err != nil {
		return err
	}
	if err := model.InferTypes(g); err != nil {
		return err
	}
	return model.FuseQDQ(g)
}

// checkNode runs n's kernel builder as compile would and returns its
// error, if any.
func checkNode(g *model.Graph, n *model.Node, opts compute.Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errs.New(errs.InvalidArtifact, "node %q (%s): internal error while checking: %v", n.Label(), n.OpType, r)
		}
	}()
	if _, err := builderOf(n); err != nil {
		return err
	}
	c := &buildCtx{g: g, n: n, opts: opts, opset: g.Opset}
	for _, name := range n.Inputs {
		c.in = append(c.in, staticOf(g, name))
	}
	for _, name := range n.Outputs {
		vi := model.ValueInfo{Name: name}
		if t := g.Values[name]; t != nil {
			vi = *t
		}
		if name != "" && !vi.DType.Valid() {
			if upstreamUnknown(c.in) {
				// An input's type is unknown because of an earlier node,
				// which is reported: this one would load once it does.
				return nil
			}
			return errs.New(errs.Unsupported, "node %q (%s): element type of output %q is unknown or unsupported (%s)", n.Label(), n.OpType, name, vi.DType)
		}
		c.out = append(c.out, vi)
	}
	_, err = buildKernel(c)
	return err
}

// staticOf returns what is known statically of the value name: its
// recorded type, or a constant's type and shape.
func staticOf(g *model.Graph, name string) model.ValueInfo {
	if name == "" {
		return model.ValueInfo{}
	}
	if t := g.Values[name]; t != nil {
		return *t
	}
	if t := g.Initializers[name]; t != nil {
		return model.ValueInfo{Name: name, DType: t.DType, Shape: t.Shape, RankKnown: true}
	}
	return model.ValueInfo{Name: name}
}

// upstreamUnknown reports whether a given input's element type is unknown.
func upstreamUnknown(in []model.ValueInfo) bool {
	for _, v := range in {
		if v.Name != "" && v.DType == payload.Undefined {
			return true
		}
	}
	return false
}
