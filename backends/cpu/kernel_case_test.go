package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// kernelCase is one kernel run with its expected output (values within
// 1e-5) or the sentinel its error wraps.
type kernelCase struct {
	name  string
	c     nodeCase
	ins   []*tensor
	shape []int
	want  []float64
	err   error
}

// runKernelCases runs each case through runNode and checks the result.
func runKernelCases(t *testing.T, cases []kernelCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outs, err := runNode(t, c.c, c.ins...)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got error %v, want one wrapping %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if !sameShape(outs[0].shape, c.shape) {
				t.Fatalf("got shape %v, want %v", outs[0].shape, c.shape)
			}
			got := toF64(outs[0])
			if len(got) != len(c.want) {
				t.Fatalf("got %d values %v, want %v", len(got), got, c.want)
			}
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 1e-5 {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

// wantSteadyNoAllocs builds c's kernel, runs its shapes and run once to
// grow its scratch, then fails if running them again allocates.
func wantSteadyNoAllocs(t *testing.T, c nodeCase, ins ...*tensor) {
	t.Helper()
	g := model.NewGraph()
	g.Opset = c.opset
	bc := &buildCtx{g: g, n: c.node, opset: c.opset}
	for i, in := range ins {
		vi := model.ValueInfo{}
		if in != nil {
			vi = model.ValueInfo{Name: c.node.Input(i), DType: in.dt, Shape: in.shape, RankKnown: true}
		}
		bc.in = append(bc.in, vi)
	}
	dt := payload.Float32
	if len(c.outTypes) > 0 {
		dt = c.outTypes[0]
	}
	bc.out = []model.ValueInfo{{Name: "y", DType: dt}}
	k, err := buildKernel(bc)
	if err != nil {
		t.Fatal(err)
	}
	sh := newOutShaper(bc, k)
	out := []*tensor{{dt: dt}}
	step := func() {
		if err := sh.shapes(ins, out); err != nil {
			t.Fatal(err)
		}
		if n := out[0].numel() * dt.Size(); cap(out[0].data) < n {
			out[0].data = alignedBytes(n)
		} else {
			out[0].data = out[0].data[:n]
		}
		if err := k.run(ins, out); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if got := testing.AllocsPerRun(20, step); got != 0 {
		t.Errorf("%s: got %v allocations per run, want 0", c.node.OpType, got)
	}
}
