package model

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// ruleIn is what a rule test knows of one input.
type ruleIn struct {
	dt       payload.DType
	dims     []int
	unranked bool
	absent   bool
	ints     []int64
	floats   []float64
}

// in returns a ranked input of type dt.
func in(dt payload.DType, dims ...int) ruleIn { return ruleIn{dt: dt, dims: append([]int{}, dims...)} }

// unr returns an input of type dt and unknown rank.
func unr(dt payload.DType) ruleIn { return ruleIn{dt: dt, unranked: true} }

// absent is an input left out.
var absent = ruleIn{absent: true}

// iv returns a 1-D int64 input whose values are known.
func iv(v ...int64) ruleIn {
	return ruleIn{dt: i64, dims: []int{len(v)}, ints: append([]int64{}, v...)}
}

// is returns a scalar input of type dt with a known integer value.
func is(dt payload.DType, v int64) ruleIn { return ruleIn{dt: dt, dims: []int{}, ints: []int64{v}} }

// fs returns a scalar input of type dt with a known float value.
func fs(dt payload.DType, v float64) ruleIn {
	return ruleIn{dt: dt, dims: []int{}, floats: []float64{v}}
}

// ruleCase runs one node's rule directly: at load (partial shapes) or,
// with runtime, as a backend does.
type ruleCase struct {
	name    string
	opset   int64
	runtime bool
	node    *Node
	in      []ruleIn
	want    []sh
	err     error // the sentinel an expected error wraps
}

// newRuleCtx binds c's node and fills a context with its inputs.
func newRuleCtx(c ruleCase) (Rule, *InferCtx, error) {
	opset := c.opset
	if opset == 0 {
		opset = 21
	}
	n := c.node
	n.Name = "n"
	n.Inputs = make([]string, len(c.in))
	for i, x := range c.in {
		if !x.absent {
			n.Inputs[i] = fmt.Sprintf("in%d", i)
		}
	}
	if n.Outputs == nil {
		n.Outputs = []string{"y"}
	}
	op, rule, err := BindNode(n, opset)
	if err != nil {
		return nil, nil, err
	}
	if op == nil {
		return nil, nil, fmt.Errorf("no descriptor for %s", n.OpType)
	}
	ctx := NewInferCtx(n, opset, c.runtime)
	for i, x := range c.in {
		if x.absent {
			ctx.SetAbsent(i)
			continue
		}
		ctx.SetInput(i, x.dt, x.dims, !x.unranked)
		if x.ints != nil {
			ctx.SetInts(i, x.ints)
		}
		if x.floats != nil {
			ctx.SetFloats(i, x.floats)
		}
	}
	return rule, ctx, nil
}

func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, ctx, err := newRuleCtx(c)
			if err == nil {
				err = rule.Infer(ctx)
			}
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got error %v, want one wrapping %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if ctx.NumOut() != len(c.want) {
				t.Fatalf("got %d outputs, want %d", ctx.NumOut(), len(c.want))
			}
			for j, w := range c.want {
				o := ctx.Out(j)
				got := sh{o.DType, nil}
				if o.Ranked {
					got.dims = append([]int{}, o.Dims...)
				}
				if got.String() != w.String() {
					t.Errorf("output %d: got %s, want %s", j, got, w)
				}
			}
		})
	}
}

// wantNoAllocs runs c's rule once, then fails if running it again
// allocates.
func wantNoAllocs(t *testing.T, c ruleCase) {
	t.Helper()
	c.runtime = true
	rule, ctx, err := newRuleCtx(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := rule.Infer(ctx); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(100, func() { _ = rule.Infer(ctx) }); got != 0 {
		t.Errorf("%s: got %v allocations per run, want 0", c.name, got)
	}
}

// Error kinds, short.
var (
	invalid  = errs.InvalidArtifact
	mismatch = errs.ShapeMismatch
	unsupp   = errs.Unsupported
)

const i32 = payload.Int32
