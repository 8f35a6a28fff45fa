// Package profile is the code of the guide "Profiling a model"
// (docs/profiling.md): loading a float32 model on the CPU backend with
// profiling on, reading where its time went, warming it up, and bounding
// a call's time with a context.
package profile

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// T is the payload type: one float32 tensor in, one out.
type T = payload.Tensor[float32]

// Load loads the model at path on the CPU backend, recording node times
// when profile is set, and warms it at one input shape so that the first
// real call at that shape allocates nothing.
func Load(path string, shape []int, profile bool) (*cpu.Model[T, T], error) {
	art, err := artifacts.Open(path)
	if err != nil {
		return nil, err
	}
	m, err := cpu.New[T, T](compute.Options{Threads: 1, Profile: profile}).LoadModel(art)
	if err != nil {
		return nil, err
	}
	if err := m.Init(); err != nil {
		m.Close()
		return nil, err
	}
	// One shape per model input; add a set per shape the service sees.
	if err := m.Warm([][]int{shape}); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// Report writes the top nodes of m's profile, most time first, and
// starts a new one. A model that does not record profiles (one of a GPU
// backend, or built without Options.Profile) writes nothing.
func Report(w io.Writer, m any, top int) {
	prof, ok := m.(compute.Profiler)
	if !ok {
		return
	}
	p := prof.Profile()
	defer prof.ResetProfile()
	if p.Calls == 0 {
		return
	}
	nodes := slices.Clone(p.Nodes)
	slices.SortFunc(nodes, func(a, b compute.NodeProfile) int { return cmp.Compare(b.Total, a.Total) })
	fmt.Fprintf(w, "%d calls\n", p.Calls)
	for _, n := range nodes[:min(top, len(nodes))] {
		perCall := n.Total / time.Duration(p.Calls)
		fmt.Fprintf(w, "%-20s %-20s %10v per call\n", n.Node, n.Op, perCall)
	}
}

// InferWithin runs m on in with at most d of compute. timedOut reports
// that the deadline stopped the call (between two nodes on the CPU
// backend); out is then not written.
func InferWithin(m compute.ContextModel[T, T], d time.Duration, in, out *T) (timedOut bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	err = m.InferOneContext(ctx, in, out)
	return errors.Is(err, context.DeadlineExceeded), err
}

// NewBatcher starts a batcher over models and warms every model at every
// batch size it will run, with copies of sample, before it serves.
func NewBatcher(models []*cpu.Model[T, T], sample *T, opts batch.Options) (*batch.Batcher[T, T, *cpu.Model[T, T]], error) {
	b, err := batch.NewBatcher[T, T](models, opts)
	if err != nil {
		return nil, err
	}
	if err := b.Warm(sample); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}
