package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// steadyAllocs builds c's kernel as runNode does, runs the node's rule,
// shaper and kernel once on ins, and returns the allocations of each
// further run.
func steadyAllocs(tb testing.TB, c nodeCase, ins ...*tensor) float64 {
	tb.Helper()
	step := newStepper(tb, c, ins...)
	step()
	return testing.AllocsPerRun(20, func() { step() })
}

// newStepper builds c's kernel as runNode does and returns a function
// that runs the node's rule, shaper and kernel on ins, as the executor
// does on each call, and returns the outputs, reused from call to call.
func newStepper(tb testing.TB, c nodeCase, ins ...*tensor) func() []*tensor {
	tb.Helper()
	bc := caseCtx(c, ins)
	outs := make([]*tensor, len(bc.out))
	for i, o := range bc.out {
		outs[i] = &tensor{dt: o.DType}
	}
	k, err := buildKernel(bc)
	if err != nil {
		tb.Fatalf("build: %v", err)
	}
	s := newOutShaper(bc, k)
	return func() []*tensor {
		if err := s.shapes(ins, outs); err != nil {
			tb.Fatal(err)
		}
		for _, o := range outs {
			if sz := o.numel() * o.dt.Size(); len(o.data) != sz {
				o.data = alignedBytes(sz)
			}
		}
		if err := k.run(ins, outs); err != nil {
			tb.Fatal(err)
		}
		return outs
	}
}

// f64sOf widens v.
func f64sOf(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// outTypesOf lists the element types of ts, for nodeCase.outTypes.
func outTypesOf(ts ...*tensor) []payload.DType {
	out := make([]payload.DType, len(ts))
	for i, t := range ts {
		out[i] = t.dt
	}
	return out
}
