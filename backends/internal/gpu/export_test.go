package gpu

import (
	"encoding/binary"
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// MaxPlans is maxPlans, for the tests.
const MaxPlans = maxPlans

// PlanCount returns how many plans m keeps.
func PlanCount[In, Out any](m *Model[In, Out]) int { return len(m.plans) }

// CheckArenaLayout plans art's graph at shapes and checks the arena layout:
// no two values live at the same step overlap, space is reused, and the
// view named view shares the bytes of the value named of.
func CheckArenaLayout(art *artifacts.Artifact, shapes [][]int, view, of string) error {
	s, err := specialise(art.Graph().Clone(), shapes)
	if err != nil {
		return err
	}
	p := &planner{cfg: &Config{Name: "t"}, label: "t", g: s, vals: map[string]*val{}, constIdx: map[*model.Tensor]int{}, maxBytes: 1 << 30, p: &plan{inShapes: shapes}}
	if err := p.run(); err != nil {
		return err
	}
	type span struct{ off, end, from, to int }
	var spans []span
	sum := 0
	for _, v := range p.vals {
		if v.root != v || v.loc.kind != locArena {
			continue
		}
		s := span{v.loc.off, v.loc.off + alignUp(max(v.size, 1), arenaAlign), v.def, max(v.last, v.def)}
		sum += s.end - s.off
		for _, q := range spans {
			if q.to >= s.from && q.from <= s.to && q.off < s.end && s.off < q.end {
				return fmt.Errorf("values overlap: %+v and %+v", q, s)
			}
		}
		spans = append(spans, s)
	}
	if p.p.arenaSize >= sum+len(p.p.inOff)*arenaAlign*2 {
		return fmt.Errorf("arena of %d bytes reuses nothing (sum of values %d)", p.p.arenaSize, sum)
	}
	if a, b := p.vals[view], p.vals[of]; a == nil || b == nil || a.root != b.root {
		return fmt.Errorf("%s is not a view of %s", view, of)
	}
	for _, st := range p.p.steps {
		for _, l := range st.bufs {
			if l.kind == locArena && (l.off%arenaAlign != 0 || l.off >= p.p.arenaSize) {
				return fmt.Errorf("step %s binds offset %d (arena %d)", st.node, l.off, p.p.arenaSize)
			}
		}
	}
	return nil
}

// PlanKernels plans art's graph with cfg at shapes and returns the kernels
// its steps launch, in order.
func PlanKernels(cfg *Config, art *artifacts.Artifact, shapes [][]int) ([]KernelID, error) {
	p, err := buildPlan(cfg, art.Graph().Clone(), shapes, "t", 1<<30, nil)
	if err != nil {
		return nil, err
	}
	var ks []KernelID
	for _, st := range p.steps {
		ks = append(ks, st.k)
	}
	return ks, nil
}

// HalfPlan plans art's graph with cfg and 16-bit weights of type wt at
// shapes, and returns the kernels its steps launch, the ABType of each
// GEMM step and the bytes of the plan's constants.
func HalfPlan(cfg *Config, wt payload.DType, art *artifacts.Artifact, shapes [][]int) (ks []KernelID, ab []uint32, constBytes int, err error) {
	g := art.Graph().Clone()
	half, err := weightType(cfg, wt, g)
	if err != nil {
		return nil, nil, 0, err
	}
	p, err := buildPlan(cfg, g, shapes, "t", 1<<30, half)
	if err != nil {
		return nil, nil, 0, err
	}
	for _, st := range p.steps {
		ks = append(ks, st.k)
		if st.k == KGemm {
			var a GemmArgs
			if _, err := binary.Decode(st.args, binary.LittleEndian, &a); err != nil {
				return nil, nil, 0, err
			}
			ab = append(ab, a.ABType)
		}
	}
	for _, t := range p.consts {
		constBytes += len(t.Raw)
	}
	return ks, ab, constBytes, nil
}
