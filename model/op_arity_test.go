package model

import (
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Every descriptor's arity is checked when a node is bound.
func TestCheckArity(t *testing.T) {
	cases := []struct {
		op     string
		opset  int64
		inputs []string
		want   string // "" accepted; else a part of the error
	}{
		{"Relu", 17, []string{"x"}, ""},
		{"Relu", 17, []string{""}, "required input 0"},
		{"Relu", 17, nil, "required input 0"},
		{"Shape", 17, []string{""}, "required input 0"},
		{"Add", 17, []string{"x"}, "required input 1"},
		{"Clip", 17, []string{"x", "", "m"}, ""},
		{"Slice", 9, []string{"x"}, "starts attribute is missing"},
		{"Slice", 13, []string{"x", "s", ""}, "input 2 (ends)"},
		{"Slice", 13, []string{"x", "s", "e", "", "st"}, ""},
		{"Unsqueeze", 11, []string{"x"}, "axes attribute is missing"},
		{"Unsqueeze", 13, []string{"x"}, "(axes)"},
		{"Resize", 13, []string{"x", "", "s"}, ""},
		{"BatchNormalization", 15, []string{"x", "s", "b", "m"}, "input 4 (input_var)"},
		{"Concat", 13, []string{"a", "", "b"}, "input 1 is empty"},
		{"Sum", 13, nil, "no inputs"},
		{"Constant", 13, nil, ""},
		{"SomeCustomOp", 13, nil, ""},
	}
	for _, c := range cases {
		n := &Node{Name: "n", OpType: c.op, Inputs: c.inputs}
		_, _, err := BindNode(n, c.opset)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s%v at opset %d: %v", c.op, c.inputs, c.opset, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s%v at opset %d: %v, want an error mentioning %q", c.op, c.inputs, c.opset, err, c.want)
		case err != nil:
			wantKind(t, err, errs.InvalidArtifact)
		}
	}
}
