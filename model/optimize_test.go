package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func inputsOf(g *Graph, op string) []string {
	for _, n := range g.Nodes {
		if n.OpType == op {
			return n.Inputs
		}
	}
	return nil
}

func TestEliminateIdentity(t *testing.T) {
	g := graph(17, []ValueInfo{vin("x", f32, 2)}, nil,
		nd("Identity", []string{"x"}, []string{"a"}),
		nd("Identity", []string{"a"}, []string{"b"}),
		nd("Dropout", []string{"b"}, []string{"c"}),
		nd("Dropout", []string{"c"}, []string{"d", "unusedmask"}),
		nd("Relu", []string{"d"}, []string{"e"}),
		nd("Identity", []string{"e"}, []string{"out"}),
	)
	g.Outputs = []ValueInfo{{Name: "out"}}
	if err := EliminateIdentity(g); err != nil {
		t.Fatalf("EliminateIdentity: %v", err)
	}
	if opTypes(g) != "Relu,Identity" {
		t.Fatalf("nodes: got %s, want Relu,Identity", opTypes(g))
	}
	if in := inputsOf(g, "Relu"); in[0] != "x" {
		t.Fatalf("Relu reads %v, want [x]", in)
	}
	if err := Sort(g); err != nil {
		t.Fatalf("Sort: %v", err)
	}

	// Kept: a Dropout whose mask is used, one in training mode, one whose
	// output a subgraph reads.
	body := NewGraph()
	body.Nodes = []*Node{nd("Relu", []string{"p"}, []string{"q"})}
	body.Outputs = []ValueInfo{{Name: "q"}}
	g = graph(17, []ValueInfo{vin("x", f32, 2), vin("cond", payload.Bool)}, []*Tensor{NewTensor("train", []int{}, []bool{true})},
		nd("Dropout", []string{"x"}, []string{"m", "mask"}),
		nd("Dropout", []string{"x", "", "train"}, []string{"t"}),
		nd("Identity", []string{"x"}, []string{"p"}),
		&Node{OpType: "If", Inputs: []string{"cond"}, Outputs: []string{"r"}, Attrs: []Attr{{Name: "then_branch", Type: AttrGraph, G: body}, {Name: "else_branch", Type: AttrGraph, G: body}}},
		nd("Sum", []string{"m", "mask", "t", "r"}, []string{"y"}),
	)
	if err := EliminateIdentity(g); err != nil {
		t.Fatalf("EliminateIdentity: %v", err)
	}
	if opTypes(g) != "Dropout,Dropout,Identity,If,Sum" {
		t.Fatalf("nodes: got %s, want Dropout,Dropout,Identity,If,Sum", opTypes(g))
	}
	// Graph output fed straight from a graph input: kept.
	g = graph(17, []ValueInfo{vin("x", f32, 2)}, nil, nd("Identity", []string{"x"}, []string{"y"}))
	if err := EliminateIdentity(g); err != nil || opTypes(g) != "Identity" {
		t.Fatalf("EliminateIdentity: got error %v and nodes %s, want no error and Identity", err, opTypes(g))
	}
}

func TestCloneIndependent(t *testing.T) {
	sub := NewGraph()
	sub.Nodes = []*Node{nd("Relu", []string{"p"}, []string{"q"})}
	g := graph(17, []ValueInfo{vin("x", f32, 2, 3)}, []*Tensor{floats("w", 1, 2, 3)},
		nd("Add", []string{"x", "w"}, []string{"y"}, aIs("ints", 1, 2), Attr{Name: "g", Type: AttrGraph, G: sub}),
	)
	g.Values["y"] = &ValueInfo{Name: "y", DType: f32, Shape: []int{2, 3}, RankKnown: true, DimParams: []string{"N", ""}}
	g.Opsets[""] = 17
	g.Metadata["k"] = "v"
	c := g.Clone()
	c.Nodes[0].Inputs[0] = "changed"
	c.Nodes[0].Attrs[0].Ints[0] = 9
	c.Nodes[0].Attrs[1].G.Nodes[0].OpType = "Neg"
	c.Nodes = append(c.Nodes, nd("Relu", []string{"y"}, []string{"z"}))
	c.Inputs[0].Shape[0] = 7
	c.Values["y"].Shape[0] = 7
	c.Values["y"].DimParams[0] = "M"
	c.Initializers["new"] = floats("new", 1)
	c.Opsets[""] = 9
	c.Metadata["k"] = "w"
	if g.Nodes[0].Inputs[0] != "x" || g.Nodes[0].Attrs[0].Ints[0] != 1 || sub.Nodes[0].OpType != "Relu" || len(g.Nodes) != 1 ||
		g.Inputs[0].Shape[0] != 2 || g.Values["y"].Shape[0] != 2 || g.Values["y"].DimParams[0] != "N" ||
		g.Initializers["new"] != nil || g.Opsets[""] != 17 || g.Metadata["k"] != "v" {
		t.Fatal("changing the clone changed the original")
	}
	if c.Initializers["w"] != g.Initializers["w"] {
		t.Fatal("constant tensors should be shared")
	}
}

func TestOptimize(t *testing.T) {
	g := convBN(true)
	// x -> Identity -> Conv -> BN -> Reshape(Shape-derived target) -> out
	g.Nodes[0].Inputs[0] = "xi"
	g.Initializers["zero"] = scalar("zero", int64(0))
	g.Initializers["ax"] = ints("ax", 0)
	g.Initializers["m1"] = ints("m1", -1)
	g.Nodes = append([]*Node{nd("Identity", []string{"x"}, []string{"xi"})}, g.Nodes...)
	g.Nodes = append(g.Nodes,
		nd("Shape", []string{"y"}, []string{"sh"}),
		nd("Gather", []string{"sh", "zero"}, []string{"n"}),
		nd("Unsqueeze", []string{"n", "ax"}, []string{"n1"}),
		nd("Concat", []string{"n1", "m1"}, []string{"target"}, aI("axis", 0)),
		nd("Reshape", []string{"y", "target"}, []string{"out"}),
	)
	g.Outputs = []ValueInfo{{Name: "out"}}
	// Shuffle: Optimize sorts.
	g.Nodes[0], g.Nodes[len(g.Nodes)-1] = g.Nodes[len(g.Nodes)-1], g.Nodes[0]
	orig := g.Clone()
	calls := 0
	c := g.Clone()
	if err := Optimize(c, fakeEval(&calls)); err != nil {
		t.Fatalf("Optimize: %v", err)
	}
	if opTypes(c) != "Conv,Reshape" {
		t.Fatalf("nodes: got %s, want Conv,Reshape", opTypes(c))
	}
	if in := inputsOf(c, "Conv"); in[0] != "x" {
		t.Fatalf("Conv reads %v, want x first", in)
	}
	if v := c.Values["out"]; v == nil || !sameDims(v.Shape, []int{1, 75}) {
		t.Fatalf("out: got %+v, want shape [1 75]", v)
	}
	for name := range c.Initializers {
		switch name {
		case "target", inputsOf(c, "Conv")[1], inputsOf(c, "Conv")[2]:
		default:
			t.Errorf("initializer %s left, want only target and the Conv's weights", name)
		}
	}
	if opTypes(g) != opTypes(orig) || len(g.Initializers) != len(orig.Initializers) {
		t.Fatal("Optimize on a clone changed the original")
	}
}
