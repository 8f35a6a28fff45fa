package model

import (
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func labels(g *Graph) string {
	var s []string
	for _, n := range g.Nodes {
		s = append(s, n.Name)
	}
	return strings.Join(s, ",")
}

func TestSortOrders(t *testing.T) {
	// d depends on b and c; b and c on a; e is independent.
	mk := func(name, op string, ins ...string) *Node {
		return &Node{Name: name, OpType: op, Inputs: ins, Outputs: []string{name}}
	}
	g := NewGraph()
	g.Inputs = []ValueInfo{vin("x", f32, 2)}
	g.Initializers["w"] = floats("w", 1, 2)
	g.Nodes = []*Node{
		mk("d", "Add", "b", "c"),
		mk("e", "Relu", "x"),
		mk("c", "Add", "a", "w"),
		mk("b", "Relu", "a"),
		mk("a", "Relu", "x"),
	}
	g.Outputs = []ValueInfo{{Name: "d"}, {Name: "e"}}
	if err := Sort(g); err != nil {
		t.Fatalf("Sort: %v", err)
	}
	// Stable: among ready nodes, file order: e (index 1) before a (4); then
	// c (2) before b (3).
	if got, want := labels(g), "e,a,c,b,d"; got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
	// Sorting a sorted graph changes nothing.
	if err := Sort(g); err != nil || labels(g) != "e,a,c,b,d" {
		t.Fatalf("resort: %v %s", err, labels(g))
	}
}

func TestSortOptionalOutputsAndInputs(t *testing.T) {
	g := graph(17, []ValueInfo{vin("x", f32, 2)}, nil,
		&Node{OpType: "Dropout", Inputs: []string{"x"}, Outputs: []string{"y", ""}},
		&Node{OpType: "Clip", Inputs: []string{"y", "", ""}, Outputs: []string{"z", ""}},
	)
	if err := Sort(g); err != nil {
		t.Fatalf("Sort: %v", err)
	}
}

func TestSortErrors(t *testing.T) {
	x := []ValueInfo{vin("x", f32, 2)}
	cases := []struct {
		name string
		g    *Graph
		want string
	}{
		{"dangling", graph(17, x, nil, &Node{Name: "n1", OpType: "Add", Inputs: []string{"x", "nope"}, Outputs: []string{"y"}}), `"nope"`},
		{"produced twice", graph(17, x, nil,
			&Node{Name: "n1", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}},
			&Node{Name: "n2", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}), `"y"`},
		{"output is an input", graph(17, x, nil, &Node{Name: "n1", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"x"}}), `"x"`},
		{"output is an initializer", graph(17, x, []*Tensor{floats("w", 1)}, &Node{Name: "n1", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"w"}}), `"w"`},
		{"self loop", graph(17, x, nil, &Node{Name: "n1", OpType: "Add", Inputs: []string{"x", "y"}, Outputs: []string{"y"}}), `"y"`},
		{"cycle", graph(17, x, nil,
			&Node{Name: "n1", OpType: "Add", Inputs: []string{"x", "b"}, Outputs: []string{"a"}},
			&Node{Name: "n2", OpType: "Relu", Inputs: []string{"a"}, Outputs: []string{"b"}},
			&Node{Name: "n3", OpType: "Relu", Inputs: []string{"b"}, Outputs: []string{"c"}}), "cycle"},
		{"nil node", graph(17, x, nil), "nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "nil node" {
				c.g.Nodes = []*Node{nil}
			}
			err := Sort(c.g)
			wantKind(t, err, errs.InvalidArtifact)
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not mention %s", err, c.want)
			}
		})
	}
	// A graph output that nothing produces.
	g := graph(17, x, nil, &Node{OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}})
	g.Outputs = append(g.Outputs, ValueInfo{Name: "ghost"})
	err := Sort(g)
	wantKind(t, err, errs.InvalidArtifact)
	if !strings.Contains(err.Error(), "ghost") {
		t.Fatalf("Sort: error %q, want it to name the missing value \"ghost\"", err)
	}
	// An input that is also an initializer.
	g = graph(17, x, []*Tensor{floats("x", 1)}, &Node{OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}})
	wantKind(t, Sort(g), errs.InvalidArtifact)
	// Duplicate graph inputs.
	g = graph(17, []ValueInfo{vin("x", f32), vin("x", f32)}, nil, &Node{OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}})
	wantKind(t, Sort(g), errs.InvalidArtifact)
}

func TestSortSubgraphDependency(t *testing.T) {
	// The If node's branch uses "a" from the outer graph: it must come
	// after a's producer though "a" is not among its inputs.
	body := NewGraph()
	body.Nodes = []*Node{{OpType: "Identity", Inputs: []string{"a"}, Outputs: []string{"r"}}}
	body.Outputs = []ValueInfo{{Name: "r"}}
	g := NewGraph()
	g.Inputs = []ValueInfo{vin("x", f32, 1), vin("cond", 9)}
	g.Nodes = []*Node{
		{Name: "if", OpType: "If", Inputs: []string{"cond"}, Outputs: []string{"y"}, Attrs: []Attr{{Name: "then_branch", Type: AttrGraph, G: body}, {Name: "else_branch", Type: AttrGraph, G: body}}},
		{Name: "a", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"a"}},
	}
	g.Outputs = []ValueInfo{{Name: "y"}}
	if err := Sort(g); err != nil {
		t.Fatalf("Sort: %v", err)
	}
	if labels(g) != "a,if" {
		t.Fatalf("order: got %s, want a,if", labels(g))
	}
}
