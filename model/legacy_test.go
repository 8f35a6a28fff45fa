package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestCastTo(t *testing.T) {
	cases := []struct {
		name  string
		attr  Attr
		opset int64
		want  int64
		err   bool
	}{
		{"int", Attr{Name: "to", Type: AttrInt, I: 7}, 13, 7, false},
		{"name at opset 5", Attr{Name: "to", Type: AttrString, S: "FLOAT"}, 5, 1, false},
		{"lower-case name", Attr{Name: "to", Type: AttrString, S: "double"}, 1, 11, false},
		{"unknown name", Attr{Name: "to", Type: AttrString, S: "FLOAT8"}, 5, 0, true},
		{"name at opset 6", Attr{Name: "to", Type: AttrString, S: "FLOAT"}, 6, 0, true},
	}
	for _, c := range cases {
		got, err := CastTo(&Node{OpType: "Cast", Attrs: []Attr{c.attr}}, c.opset)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("%s: got %d, %v; want %d, error %v", c.name, got, err, c.want, c.err)
		}
	}
	if _, err := CastTo(&Node{OpType: "Cast"}, 13); err == nil {
		t.Error("no to: got no error")
	}
}

// Nodes in their pre-opset-7 forms get their element type and an unknown
// shape, for the backend to compute or refuse.
func TestInferLegacyForms(t *testing.T) {
	x := ValueInfo{Name: "x", DType: payload.Float32, Shape: []int{2, 3}, RankKnown: true}
	b := ValueInfo{Name: "b", DType: payload.Float32, Shape: []int{2}, RankKnown: true}
	cases := []struct {
		name  string
		opset int64
		n     *Node
		want  payload.DType
	}{
		{"Add broadcast axis", 6, &Node{OpType: "Add", Inputs: []string{"x", "b"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "broadcast", Type: AttrInt, I: 1}, {Name: "axis", Type: AttrInt, I: 0}}}, payload.Float32},
		{"Equal broadcast", 1, &Node{OpType: "Equal", Inputs: []string{"x", "b"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "broadcast", Type: AttrInt, I: 1}}}, payload.Bool},
		{"Reshape-1", 4, &Node{OpType: "Reshape", Inputs: []string{"x"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "shape", Type: AttrInts, Ints: []int64{3, 2}}}}, payload.Float32},
		{"Cast-1", 5, &Node{OpType: "Cast", Inputs: []string{"x"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "to", Type: AttrString, S: "INT64"}}}, payload.Int64},
		{"Concat-1", 3, &Node{OpType: "Concat", Inputs: []string{"x", "x"}, Outputs: []string{"y"}}, payload.Float32},
	}
	for _, c := range cases {
		g := NewGraph()
		g.Opset = c.opset
		g.Values["x"], g.Values["b"] = &x, &b
		outs, err := inferNode(g, c.n)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := outs[0]; got.DType != c.want || got.RankKnown {
			t.Errorf("%s: got %+v, want %s of unknown shape", c.name, got, c.want)
		}
	}
}
