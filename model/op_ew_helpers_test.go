package model

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// ewAbsent marks an input left out in a ewCase.
var ewAbsent = sh{dt: 255}

// ewCase runs one op's descriptor on inputs described by sh values
// (nil dims: unknown rank; ewAbsent: not given).
type ewCase struct {
	name    string
	op      string
	opset   int64
	attrs   []Attr
	in      []sh
	nout    int // outputs; 1 when 0
	runtime bool
	want    []sh
	err     error // the sentinel an error must wrap
}

// runEwRules binds each case's node, runs its rule and compares the outputs.
func runEwRules(t *testing.T, cases []ewCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := runRule(tc)
			if tc.err != nil {
				if err == nil {
					t.Fatalf("got %v, want an error wrapping %v", got, tc.err)
				}
				if !errors.Is(err, tc.err) {
					t.Fatalf("got error %v, want one wrapping %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %v", err, tc.want)
			}
			for j, w := range tc.want {
				if got[j].String() != w.String() {
					t.Errorf("output %d: got %s, want %s", j, got[j], w)
				}
			}
		})
	}
}

// runRule binds tc's node and runs its rule once.
func runRule(tc ewCase) ([]sh, error) {
	n, c, rule, err := bindCase(tc)
	if err != nil {
		return nil, err
	}
	if err := rule.Infer(c); err != nil {
		return nil, err
	}
	out := make([]sh, len(n.Outputs))
	for j := range out {
		o := c.Out(j)
		out[j].dt = o.DType
		if o.Ranked {
			out[j].dims = append([]int{}, o.Dims...)
		}
	}
	return out, nil
}

// bindCase builds tc's node and context and binds its rule.
func bindCase(tc ewCase) (*Node, *InferCtx, Rule, error) {
	opset := tc.opset
	if opset == 0 {
		opset = 21
	}
	nout := max(tc.nout, 1)
	n := &Node{Name: "n", OpType: tc.op, Attrs: tc.attrs}
	for i, s := range tc.in {
		name := ""
		if s.dt != ewAbsent.dt {
			name = string(rune('a' + i))
		}
		n.Inputs = append(n.Inputs, name)
	}
	for j := range nout {
		n.Outputs = append(n.Outputs, string(rune('y'-j)))
	}
	_, rule, err := BindNode(n, opset)
	if err != nil {
		return nil, nil, nil, err
	}
	if rule == nil {
		return nil, nil, nil, errors.New("no descriptor for " + tc.op)
	}
	c := NewInferCtx(n, opset, tc.runtime)
	for i, s := range tc.in {
		if s.dt == ewAbsent.dt {
			continue
		}
		c.SetInput(i, s.dt, s.dims, s.dims != nil)
	}
	return n, c, rule, nil
}

// unranked is an expected or given type of unknown rank.
func unrankedSh(dt payload.DType) sh { return sh{dt: dt} }
