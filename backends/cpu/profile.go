package cpu

import (
	"time"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/model"
)

// maxTraceEvents bounds a profiled model's timeline; later node runs are
// counted in Profile.Dropped.
const maxTraceEvents = 1 << 15

// profiler records node times for compute.Options.Profile. Its buffers
// are made when the model is initialised, so recording allocates nothing.
type profiler struct {
	calls   int64
	total   []time.Duration
	runs    []int64
	flops   []int64
	events  []compute.TraceEvent
	dropped int64
	start   time.Time
}

func newProfiler(p *program) *profiler {
	n := len(p.steps)
	return &profiler{total: make([]time.Duration, n), runs: make([]int64, n), flops: make([]int64, n),
		events: make([]compute.TraceEvent, 0, maxTraceEvents)}
}

// record adds one run of step si, which started at t0 and took d.
func (pr *profiler) record(x *exec, si int, t0 time.Time, d time.Duration) {
	if pr.start.IsZero() {
		pr.start = t0
	}
	pr.total[si] += d
	pr.runs[si]++
	pr.flops[si] += stepFLOPs(x.p.steps[si].n, x.ins[si], x.outs[si])
	if len(pr.events) < cap(pr.events) {
		pr.events = append(pr.events, compute.TraceEvent{Node: si, Call: pr.calls, Start: t0.Sub(pr.start), Dur: d})
	} else {
		pr.dropped++
	}
}

// snapshot copies what pr recorded for program p.
func (pr *profiler) snapshot(p *program) compute.Profile {
	out := compute.Profile{Calls: pr.calls, Dropped: pr.dropped, Nodes: make([]compute.NodeProfile, len(p.steps)),
		Events: append([]compute.TraceEvent(nil), pr.events...)}
	for i, st := range p.steps {
		out.Nodes[i] = compute.NodeProfile{Node: st.n.Label(), Op: opLabel(st.n), Calls: pr.runs[i], Total: pr.total[i], FLOPs: pr.flops[i]}
	}
	return out
}

// reset drops what pr recorded.
func (pr *profiler) reset() {
	pr.calls, pr.dropped, pr.start = 0, 0, time.Time{}
	pr.events = pr.events[:0]
	clear(pr.total)
	clear(pr.runs)
	clear(pr.flops)
}

// opLabel is n's op type with what was fused into it ("Conv+Relu").
func opLabel(n *model.Node) string {
	if n.Fused == nil {
		return n.OpType
	}
	s := n.OpType
	if n.Fused.Bias {
		s += "+Bias"
	}
	if n.Fused.Act != "" {
		s += "+" + n.Fused.Act
	}
	if p := n.Fused.Prog; p != nil && !model.IsEwNode(n) {
		s += "+Elementwise"
	}
	return s
}

// stepFLOPs counts the floating-point operations of one run of a node
// whose count follows from its shapes: two per multiply-add of MatMul,
// Gemm, Conv and ConvTranspose; 0 for other ops.
func stepFLOPs(n *model.Node, in, out []*tensor) int64 {
	if len(in) < 2 || in[0] == nil || in[1] == nil || len(out) == 0 {
		return 0
	}
	a, w := in[0].shape, in[1].shape
	switch n.OpType {
	case "MatMul":
		if len(a) == 0 {
			return 0
		}
		return 2 * int64(out[0].numel()) * int64(a[len(a)-1])
	case "Gemm":
		if len(a) != 2 {
			return 0
		}
		k := a[1]
		if t, _ := n.Int("transA", 0); t != 0 {
			k = a[0]
		}
		return 2 * int64(out[0].numel()) * int64(k)
	case "Conv":
		if len(w) == 0 || w[0] == 0 {
			return 0
		}
		return 2 * int64(out[0].numel()) * int64(max(mulDims(w), 0)/w[0])
	case "ConvTranspose":
		if len(w) == 0 || w[0] == 0 {
			return 0
		}
		return 2 * int64(in[0].numel()) * int64(max(mulDims(w), 0)/w[0])
	}
	return 0
}

// Profile returns a copy of what the model recorded since Init, Reset or
// ResetProfile; it is empty unless the model was built with
// compute.Options.Profile.
func (m *Model[In, Out]) Profile() compute.Profile {
	if m == nil || m.x == nil || m.x.prof == nil {
		return compute.Profile{}
	}
	if err := m.enter(); err != nil {
		return compute.Profile{}
	}
	defer m.leave()
	if m.x == nil || m.x.prof == nil {
		return compute.Profile{}
	}
	return m.x.prof.snapshot(m.prog)
}

// ResetProfile drops what the model has recorded.
func (m *Model[In, Out]) ResetProfile() {
	if m == nil || m.x == nil || m.x.prof == nil {
		return
	}
	if m.enter() != nil {
		return
	}
	defer m.leave()
	if m.x != nil && m.x.prof != nil {
		m.x.prof.reset()
	}
}

var _ compute.Profiler = (*Model[int, int])(nil)
