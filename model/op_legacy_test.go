package model

import (
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// Nodes in the forms their ops had before opset 7 get their exact types
// and shapes from their descriptors.
func TestInferLegacyForms(t *testing.T) {
	x := ValueInfo{Name: "x", DType: payload.Float32, Shape: []int{2, 3}, RankKnown: true}
	b := ValueInfo{Name: "b", DType: payload.Float32, Shape: []int{2}, RankKnown: true}
	c3 := ValueInfo{Name: "c", DType: payload.Float32, Shape: []int{3}, RankKnown: true}
	cases := []struct {
		name  string
		opset int64
		n     *Node
		want  payload.DType
		shape []int
	}{
		{"Add broadcast axis", 6, &Node{OpType: "Add", Inputs: []string{"x", "b"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "broadcast", Type: AttrInt, I: 1}, {Name: "axis", Type: AttrInt, I: 0}}}, payload.Float32, []int{2, 3}},
		{"Equal broadcast", 1, &Node{OpType: "Equal", Inputs: []string{"x", "c"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "broadcast", Type: AttrInt, I: 1}}}, payload.Bool, []int{2, 3}},
		{"Reshape-1", 4, &Node{OpType: "Reshape", Inputs: []string{"x"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "shape", Type: AttrInts, Ints: []int64{3, 2}}}}, payload.Float32, []int{3, 2}},
		{"Cast-1", 5, &Node{OpType: "Cast", Inputs: []string{"x"}, Outputs: []string{"y"},
			Attrs: []Attr{{Name: "to", Type: AttrString, S: "INT64"}}}, payload.Int64, []int{2, 3}},
		{"Concat-1", 3, &Node{OpType: "Concat", Inputs: []string{"x", "x"}, Outputs: []string{"y"}}, payload.Float32, []int{2, 6}},
	}
	for _, c := range cases {
		g := NewGraph()
		g.Opset = c.opset
		g.Values["x"], g.Values["b"], g.Values["c"] = &x, &b, &c3
		outs, err := inferNode(&scope{g: g}, c.n, 0)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := outs[0]; got.DType != c.want || !got.RankKnown || !slices.Equal(got.Shape, c.shape) {
			t.Errorf("%s: got %s %v, want %s %v", c.name, got.DType, got.Shape, c.want, c.shape)
		}
	}
}
