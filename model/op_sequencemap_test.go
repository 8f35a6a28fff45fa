package model

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// TestSequenceMapRule checks SequenceMap's binding, its body's formal
// inputs and its outputs' types.
func TestSequenceMapRule(t *testing.T) {
	seq, ten := KindSequence, KindTensor
	// body returns a body of nIn inputs whose outputs are typed as
	// inference leaves them: a float tensor of dims (nil: unranked) and
	// an int64 [1].
	body := func(nIn int, dims []int) *Graph {
		g := NewGraph()
		for range nIn {
			g.Inputs = append(g.Inputs, ValueInfo{Name: "b"})
		}
		g.Outputs = []ValueInfo{{Name: "y", DType: f32, Shape: dims, RankKnown: dims != nil}, {Name: "s", DType: i64, Shape: []int{1}, RankKnown: true}}
		return g
	}
	cases := []struct {
		name  string
		body  *Graph
		outs  []string
		in    []ruleIn
		kinds []ValueKind
		dims  []int // of output 0; nil: unranked
		err   error
	}{
		{name: "one sequence", body: body(1, []int{2, -1}), in: []ruleIn{in(f32, 2, 3)}, kinds: []ValueKind{seq}, dims: []int{2, -1}},
		{name: "a sequence, a tensor", body: body(2, nil), in: []ruleIn{unr(f32), in(f32, 3)}, kinds: []ValueKind{seq, ten}},
		{name: "two sequences", body: body(2, []int{}), in: []ruleIn{unr(f32), unr(i64)}, kinds: []ValueKind{seq, seq}, dims: []int{}},
		{name: "input 0 is a tensor", body: body(1, nil), in: []ruleIn{in(f32, 2)}, kinds: []ValueKind{ten}, err: invalid},
		{name: "input 1 is an optional", body: body(2, nil), in: []ruleIn{unr(f32), unr(f32)}, kinds: []ValueKind{seq, KindOptional}, err: invalid},
		{name: "body inputs differ", body: body(2, nil), in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, err: invalid},
		{name: "body outputs differ", body: body(1, nil), outs: []string{"y"}, in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, err: invalid},
		{name: "no body", in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, err: invalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := nd("SequenceMap", nil, c.outs)
			if c.body != nil {
				n.Attrs = []Attr{aG("body", c.body)}
			}
			if c.outs == nil {
				n.Outputs = []string{"y", "s"}
			}
			rule, ctx, err := newRuleCtx(ruleCase{node: n, opset: 17, in: c.in})
			if err == nil {
				for i, k := range c.kinds {
					ctx.SetInputKind(i, k)
				}
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
			for j, dt := range []payload.DType{f32, i64} {
				if o := ctx.Out(j); o.DType != dt || o.Kind != seq {
					t.Errorf("output %d: got a %s of %s, want a sequence of %s", j, o.Kind, o.DType, dt)
				}
			}
			o := ctx.Out(0)
			if c.dims == nil {
				if o.Ranked {
					t.Errorf("got dims %v, want an unknown rank", o.Dims)
				}
			} else if !o.Ranked || !slices.Equal(o.Dims, c.dims) && !(len(o.Dims) == 0 && len(c.dims) == 0) {
				t.Errorf("got dims %v (ranked %v), want %v", o.Dims, o.Ranked, c.dims)
			}
			formal := rule.(SubgraphRule).SubgraphInputs(ctx, 0)
			for i, v := range formal {
				if v.DType != ctx.DType(i) || v.Kind != ten {
					t.Errorf("body input %d: got a %s of %s, want a tensor of %s", i, v.Kind, v.DType, ctx.DType(i))
				}
			}
		})
	}
}
