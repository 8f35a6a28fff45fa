package model

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// aTP is a type attribute of kind k and element type dt, of shape dims.
func aTP(dt payload.DType, k ValueKind, dims ...int) Attr {
	return Attr{Name: "type", Type: AttrTypeProto, TP: &ValueInfo{DType: dt, Kind: k, Shape: dims, RankKnown: true}}
}

// TestSequenceRules checks the sequence and optional ops' rules: the
// element type, kind of value and shape of their output.
func TestSequenceRules(t *testing.T) {
	seq, opt, optSeq, ten := KindSequence, KindOptional, KindOptionalSequence, KindTensor
	cases := []struct {
		name  string
		node  *Node
		opset int64
		in    []ruleIn
		kinds []ValueKind // of the inputs, tensors when nil
		dt    payload.DType
		kind  ValueKind
		dims  []int // nil: unranked
		err   error
	}{
		{name: "empty: float by default", node: nd("SequenceEmpty", nil, nil), dt: f32, kind: seq},
		{name: "empty: dtype", node: nd("SequenceEmpty", nil, nil, aI("dtype", int64(payload.Int64))), dt: i64, kind: seq},
		{name: "empty: bad dtype", node: nd("SequenceEmpty", nil, nil, aI("dtype", 300)), err: invalid},
		{name: "construct", node: nd("SequenceConstruct", nil, nil), in: []ruleIn{in(f32, 2), in(f32, 3)}, dt: f32, kind: seq},
		{name: "construct: mixed types", node: nd("SequenceConstruct", nil, nil), in: []ruleIn{in(f32, 2), in(i64, 3)}, err: invalid},
		{name: "construct: no input", node: nd("SequenceConstruct", nil, nil), in: nil, err: invalid},
		{name: "insert", node: nd("SequenceInsert", nil, nil), in: []ruleIn{unr(f32), in(f32, 2), is(i64, 0)}, kinds: []ValueKind{seq, ten, ten}, dt: f32, kind: seq},
		{name: "insert: wrong type", node: nd("SequenceInsert", nil, nil), in: []ruleIn{unr(f32), in(i32, 2)}, kinds: []ValueKind{seq, ten}, err: invalid},
		{name: "erase", node: nd("SequenceErase", nil, nil), in: []ruleIn{unr(i32)}, kinds: []ValueKind{seq}, dt: i32, kind: seq},
		{name: "at: unknown element shape", node: nd("SequenceAt", nil, nil), in: []ruleIn{unr(f32), is(i64, 1)}, kinds: []ValueKind{seq, ten}, dt: f32, kind: ten},
		{name: "at: element shape given", node: nd("SequenceAt", nil, nil), in: []ruleIn{in(f32, 2, -1), is(i64, 1)}, kinds: []ValueKind{seq, ten}, dt: f32, kind: ten, dims: []int{2, -1}},
		{name: "length", node: nd("SequenceLength", nil, nil), in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, dt: i64, kind: ten, dims: []int{}},
		{name: "split", node: nd("SplitToSequence", nil, nil, aI("axis", 1)), in: []ruleIn{in(f32, 3, 6)}, dt: f32, kind: seq},
		{name: "split: bad axis", node: nd("SplitToSequence", nil, nil, aI("axis", 2)), in: []ruleIn{in(f32, 3, 6)}, err: invalid},
		{name: "concat", node: nd("ConcatFromSequence", nil, nil, aI("axis", 0)), in: []ruleIn{in(f32, 2, 3)}, kinds: []ValueKind{seq}, dt: f32, kind: ten, dims: []int{-1, -1}},
		{name: "concat: new axis at the end", node: nd("ConcatFromSequence", nil, nil, aI("axis", -1), aI("new_axis", 1)), in: []ruleIn{in(f32, 2, 3)}, kinds: []ValueKind{seq}, dt: f32, kind: ten, dims: []int{-1, -1, -1}},
		{name: "concat: unranked", node: nd("ConcatFromSequence", nil, nil, aI("axis", 0)), in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, dt: f32, kind: ten},
		{name: "concat: bad axis", node: nd("ConcatFromSequence", nil, nil, aI("axis", 2)), in: []ruleIn{in(f32, 2, 3)}, kinds: []ValueKind{seq}, err: invalid},
		{name: "concat: no axis", node: nd("ConcatFromSequence", nil, nil), in: []ruleIn{in(f32, 2, 3)}, kinds: []ValueKind{seq}, err: invalid},
		{name: "optional of a sequence", node: nd("Optional", nil, nil), in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, dt: f32, kind: optSeq},
		{name: "optional of a tensor", node: nd("Optional", nil, nil), in: []ruleIn{in(f32, 2)}, dt: f32, kind: opt, dims: []int{2}},
		{name: "empty optional tensor", node: nd("Optional", nil, nil, aTP(f32, KindTensor, 5, -1)), dt: f32, kind: opt, dims: []int{5, -1}},
		{name: "empty optional tensor of unknown rank", node: nd("Optional", nil, nil, Attr{Name: "type", Type: AttrTypeProto, TP: &ValueInfo{DType: i64}}), dt: i64, kind: opt},
		{name: "empty optional sequence", node: nd("Optional", nil, nil, aTP(f32, KindSequence, 5)), dt: f32, kind: optSeq},
		{name: "empty optional: no type", node: nd("Optional", nil, nil), err: invalid},
		{name: "empty optional: type of no element type", node: nd("Optional", nil, nil, aTP(payload.Undefined, KindTensor)), err: invalid},
		{name: "empty optional: optional type", node: nd("Optional", nil, nil, aTP(f32, KindOptional)), err: invalid},
		{name: "empty optional: type with no value", node: nd("Optional", nil, nil, Attr{Name: "type", Type: AttrTypeProto}), err: invalid},
		{name: "empty optional: int type attribute", node: nd("Optional", nil, nil, aI("type", 1)), err: invalid},
		{name: "optional of a tensor, typed", node: nd("Optional", nil, nil, aTP(f32, KindTensor, 2)), in: []ruleIn{in(f32, 2)}, dt: f32, kind: opt, dims: []int{2}},
		{name: "optional of a sequence, typed", node: nd("Optional", nil, nil, aTP(f32, KindSequence)), in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, dt: f32, kind: optSeq},
		{name: "optional: type of another element type", node: nd("Optional", nil, nil, aTP(i64, KindTensor, 2)), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "optional: type of another kind", node: nd("Optional", nil, nil, aTP(f32, KindSequence)), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "get element of an optional sequence", node: nd("OptionalGetElement", nil, nil), in: []ruleIn{unr(f32)}, kinds: []ValueKind{optSeq}, dt: f32, kind: seq},
		{name: "get element of an optional tensor", node: nd("OptionalGetElement", nil, nil), in: []ruleIn{in(i64, 4)}, kinds: []ValueKind{opt}, dt: i64, kind: ten, dims: []int{4}},
		{name: "has element of an optional", node: nd("OptionalHasElement", nil, nil), in: []ruleIn{unr(f32)}, kinds: []ValueKind{optSeq}, dt: payload.Bool, kind: ten, dims: []int{}},
		{name: "identity keeps the kind", node: nd("Identity", nil, nil), in: []ruleIn{unr(f32)}, kinds: []ValueKind{seq}, dt: f32, kind: seq},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, ctx, err := newRuleCtx(ruleCase{node: c.node, opset: c.opset, in: c.in})
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
			o := ctx.Out(0)
			if o.DType != c.dt || o.Kind != c.kind {
				t.Errorf("got a %s of %s, want a %s of %s", o.Kind, o.DType, c.kind, c.dt)
			}
			if c.dims == nil {
				if o.Ranked {
					t.Errorf("got dims %v, want an unknown rank", o.Dims)
				}
			} else if !o.Ranked || !slices.Equal(o.Dims, c.dims) && !(len(o.Dims) == 0 && len(c.dims) == 0) {
				t.Errorf("got dims %v (ranked %v), want %v", o.Dims, o.Ranked, c.dims)
			}
		})
	}
}

func TestValueKindString(t *testing.T) {
	cases := []struct {
		k        ValueKind
		want     string
		seq, opt bool
	}{
		{KindTensor, "tensor", false, false},
		{KindSequence, "sequence", true, false},
		{KindOptional, "optional", false, true},
		{KindOptionalSequence, "optional sequence", true, true},
		{ValueKind(9), "unknown kind", false, false},
	}
	for _, c := range cases {
		if got := c.k.String(); got != c.want || c.k.IsSequence() != c.seq || c.k.IsOptional() != c.opt {
			t.Errorf("kind %d: got %q (sequence %v, optional %v), want %q (%v, %v)", c.k, got, c.k.IsSequence(), c.k.IsOptional(), c.want, c.seq, c.opt)
		}
	}
}
