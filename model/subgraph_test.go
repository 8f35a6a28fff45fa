package model

import (
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// sub builds a subgraph: formal inputs, nodes, and outputs named outs
// (untyped, as files may leave them).
func sub(inputs []ValueInfo, outs []string, nodes ...*Node) *Graph {
	g := NewGraph()
	g.Opset = 17
	g.Inputs = inputs
	g.Nodes = nodes
	for _, o := range outs {
		g.Outputs = append(g.Outputs, ValueInfo{Name: o})
	}
	return g
}

func aG(name string, g *Graph) Attr { return Attr{Name: name, Type: AttrGraph, G: g} }

// ifNode is an If on c whose branches are then and els.
func ifNode(c string, outs []string, then, els *Graph) *Node {
	return nd("If", []string{c}, outs, aG("then_branch", then), aG("else_branch", els))
}

func TestSortSubgraphs(t *testing.T) {
	cases := []struct {
		name string
		// body is the then_branch; the else_branch outputs x.
		body    *Graph
		wantErr string
	}{
		{"outer value", sub(nil, []string{"t"}, nd("Relu", []string{"x"}, []string{"t"})), ""},
		{"outer value as output", sub(nil, []string{"x"}), ""},
		{"undefined", sub(nil, []string{"t"}, nd("Relu", []string{"nowhere"}, []string{"t"})), `node "If->y" (If), then_branch: node "Relu->t" (Relu): input "nowhere"`},
		{"undefined output", sub(nil, []string{"nowhere"}), `graph output "nowhere"`},
		{"cycle", sub(nil, []string{"t"}, nd("Relu", []string{"u"}, []string{"t"}), nd("Relu", []string{"t"}, []string{"u"})), "cycle"},
		{"out of order", sub(nil, []string{"u"}, nd("Relu", []string{"t"}, []string{"u"}), nd("Relu", []string{"x"}, []string{"t"})), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := graph(17, []ValueInfo{vin("x", f32, 2), vin("c", payload.Bool)}, nil,
				ifNode("c", []string{"y"}, c.body, sub(nil, []string{"x"})))
			err := Sort(g)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("Sort: %v", err)
				}
				if c.name == "out of order" && c.body.Nodes[0].Outputs[0] != "t" {
					t.Errorf("subgraph nodes not sorted: first produces %q, want t", c.body.Nodes[0].Outputs[0])
				}
				return
			}
			wantKind(t, err, errs.InvalidArtifact)
			if !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %v, want it to contain %q", err, c.wantErr)
			}
		})
	}
}

// An If's untyped branch outputs take their inferred types; the node's
// outputs merge the branches'.
func TestInferIfBranches(t *testing.T) {
	cases := []struct {
		name      string
		then, els *Graph
		want      ValueInfo
	}{
		{"same shapes", sub(nil, []string{"a"}, nd("Relu", []string{"x"}, []string{"a"})),
			sub(nil, []string{"b"}, nd("Neg", []string{"x"}, []string{"b"})), vin("y", f32, 2, 3)},
		{"dims differ", sub(nil, []string{"a"}, nd("Relu", []string{"x"}, []string{"a"})),
			sub(nil, []string{"b"}, nd("Concat", []string{"x", "x"}, []string{"b"}, aI("axis", 1))), vin("y", f32, 2, -1)},
		{"ranks differ", sub(nil, []string{"a"}, nd("Relu", []string{"x"}, []string{"a"})),
			sub(nil, []string{"b"}, nd("ReduceSum", []string{"x"}, []string{"b"}, aI("keepdims", 0))), ValueInfo{Name: "y", DType: f32}},
		{"outer value", sub(nil, []string{"x"}), sub(nil, []string{"x"}), vin("y", f32, 2, 3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := graph(17, []ValueInfo{vin("x", f32, 2, 3), vin("c", payload.Bool)}, nil, ifNode("c", []string{"y"}, c.then, c.els))
			if err := Sort(g); err != nil {
				t.Fatal(err)
			}
			if err := InferTypes(g); err != nil {
				t.Fatal(err)
			}
			got := g.Values["y"]
			if got.DType != c.want.DType || got.RankKnown != c.want.RankKnown || !sameDims(got.Shape, c.want.Shape) {
				t.Errorf("y: got %s %v (ranked %v), want %s %v (ranked %v)", got.DType, got.Shape, got.RankKnown, c.want.DType, c.want.Shape, c.want.RankKnown)
			}
			if o := c.then.Outputs[0]; o.DType != f32 || !o.RankKnown {
				t.Errorf("then_branch output: got %s ranked %v, want float32 with a shape", o.DType, o.RankKnown)
			}
		})
	}
}

// A branch with an element type conflict is an error; a branch that
// cannot run is left partly typed when the other can.
func TestInferIfBadBranch(t *testing.T) {
	bad := func() *Graph {
		return sub(nil, []string{"b"}, nd("Split", []string{"x"}, []string{"b0", "b"}, aI("axis", 0), aI("num_outputs", 2)), nd("Relu", []string{"b0"}, []string{"unused"}))
	}
	// Split of a dim of 1 into 3 parts fails.
	worse := sub(nil, []string{"b"}, nd("Split", []string{"x"}, []string{"p", "q", "b"}, aI("axis", 1), aI("num_outputs", 4)))
	good := sub(nil, []string{"a"}, nd("Relu", []string{"x"}, []string{"a"}))
	cast := sub(nil, []string{"a"}, nd("Cast", []string{"x"}, []string{"a"}, aI("to", int64(payload.Int64))))
	cases := []struct {
		name      string
		then, els *Graph
		wantErr   error
	}{
		{"one branch fails", good, worse, nil},
		{"both fail", sub(nil, []string{"b"}, nd("Split", []string{"x"}, []string{"p", "q", "b"}, aI("axis", 1), aI("num_outputs", 4))), worse, errs.InvalidArtifact},
		{"types differ", good, cast, errs.InvalidArtifact},
		{"fine", good, bad(), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := graph(18, []ValueInfo{vin("x", f32, 2, 1), vin("c", payload.Bool)}, nil, ifNode("c", []string{"y"}, c.then, c.els))
			g.Opset = 18
			if err := Sort(g); err != nil {
				t.Fatal(err)
			}
			err := InferTypes(g)
			if c.wantErr == nil {
				if err != nil {
					t.Fatalf("InferTypes: %v", err)
				}
				if v := g.Values["y"]; v.DType != f32 {
					t.Errorf("y is %s, want float32", v.DType)
				}
				return
			}
			wantKind(t, err, c.wantErr)
		})
	}
}

// Loop bodies see outer values and give their untyped inputs the node's
// types; an If nested in a Loop sees the Loop body's values and the
// model's.
func TestInferNestedIfInLoop(t *testing.T) {
	inner := ifNode("cond_in", []string{"r"},
		sub(nil, []string{"ta"}, nd("Add", []string{"v_in", "w"}, []string{"ta"})),
		sub(nil, []string{"v_in"}))
	body := sub([]ValueInfo{{Name: "i"}, {Name: "cond_in"}, {Name: "v_in"}}, []string{"cond_in", "r", "r2"},
		inner, nd("Mul", []string{"r", "r"}, []string{"r2"}))
	g := graph(17, []ValueInfo{vin("v", f32, 3), vin("w", f32, 3), vin("m", i64), vin("c", payload.Bool)}, nil,
		nd("Loop", []string{"m", "c", "v"}, []string{"vf", "scan"}, aG("body", body)))
	if err := Sort(g); err != nil {
		t.Fatal(err)
	}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	if in := body.Inputs[0]; in.DType != i64 || !in.RankKnown || len(in.Shape) != 0 {
		t.Errorf("iteration input: got %s %v, want an int64 scalar", in.DType, in.Shape)
	}
	if in := body.Inputs[2]; in.DType != f32 || in.RankKnown {
		t.Errorf("loop-carried input: got %s ranked %v, want float32 of unknown shape", in.DType, in.RankKnown)
	}
	if v := body.Values["r"]; v == nil || v.DType != f32 {
		t.Errorf("nested If output r: got %+v, want float32", v)
	}
	if v := g.Values["scan"]; v.DType != f32 {
		t.Errorf("scan output: got %s, want float32", v.DType)
	}
	if v := g.Values["vf"]; v.DType != f32 {
		t.Errorf("final value: got %s, want float32", v.DType)
	}
}

// A value only a subgraph uses survives identity removal, folding and
// dead-node removal; an If on a constant is replaced by its branch.
func TestOptimizeKeepsSubgraphUses(t *testing.T) {
	body := sub(nil, []string{"t"}, nd("Relu", []string{"mid"}, []string{"t"}))
	g := graph(17, []ValueInfo{vin("x", f32, 2), vin("c", payload.Bool)}, nil,
		nd("Identity", []string{"x"}, []string{"mid"}),
		ifNode("c", []string{"y"}, body, sub(nil, []string{"x"})))
	if err := Optimize(g, nil); err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 2 || g.Nodes[0].OpType != "Identity" {
		t.Fatalf("nodes %v, want the Identity kept for the branch's use", opTypes(g))
	}

	k := graph(17, []ValueInfo{vin("x", f32, 2)}, []*Tensor{NewTensor("c", []int{}, []bool{true})},
		ifNode("c", []string{"y"}, sub(nil, []string{"t"}, nd("Relu", []string{"x"}, []string{"t"})), sub(nil, []string{"x"})))
	if err := Optimize(k, nil); err != nil {
		t.Fatal(err)
	}
	if got := opTypes(k); got != "Relu,Identity" {
		t.Errorf("nodes %s, want Relu,Identity: the taken branch inlined", got)
	}
}

func TestCaptures(t *testing.T) {
	inner := sub(nil, []string{"q"}, nd("Add", []string{"p", "deep"}, []string{"q"}))
	g := sub([]ValueInfo{{Name: "a"}}, []string{"r", "outer_out"},
		nd("Add", []string{"a", "o1"}, []string{"p"}),
		ifNode("o2", []string{"r"}, inner, sub(nil, []string{"p"})))
	got := strings.Join(Captures(g), ",")
	if want := "o1,o2,deep,outer_out"; got != want {
		t.Errorf("Captures: got %s, want %s", got, want)
	}
}

// Scan's outputs: final states as the initial ones, scan outputs with the
// step count at their axis (opset 9) or after the batch dim (opset 8);
// the body's inputs get the slices' types.
func TestInferScan(t *testing.T) {
	body := func() *Graph {
		return sub([]ValueInfo{{Name: "s_in"}, {Name: "x_t"}}, []string{"s_out", "y_t"},
			nd("Add", []string{"s_in", "x_t"}, []string{"s_out"}),
			nd("Unsqueeze", []string{"s_out", "ax"}, []string{"y_t"}))
	}
	cases := []struct {
		name    string
		opset   int64
		inputs  []ValueInfo
		ins     []string
		attrs   []Attr
		slice   []int // the body's x_t
		sf, y   []int
		wantErr error
	}{
		{"opset 9, axis 1", 11, []ValueInfo{vin("s", f32, 4), vin("x", f32, 4, 7)}, []string{"s", "x"},
			[]Attr{aI("num_scan_inputs", 1), aIs("scan_input_axes", 1)}, []int{4}, []int{4}, []int{7, 1, 4}, nil},
		{"opset 9, output axis -1", 11, []ValueInfo{vin("s", f32, 4), vin("x", f32, 7, 4)}, []string{"s", "x"},
			[]Attr{aI("num_scan_inputs", 1), aIs("scan_output_axes", -1)}, []int{4}, []int{4}, []int{1, 4, 7}, nil},
		{"opset 9, unknown steps", 11, []ValueInfo{vin("s", f32, 4), vin("x", f32, -1, 4)}, []string{"s", "x"},
			[]Attr{aI("num_scan_inputs", 1), aIs("scan_output_axes", 2)}, []int{4}, []int{4}, []int{1, 4, -1}, nil},
		{"opset 8", 8, []ValueInfo{vin("s", f32, 2, 4), vin("x", f32, 2, 7, 4)}, []string{"", "s", "x"},
			[]Attr{aI("num_scan_inputs", 1)}, []int{4}, []int{2, 4}, []int{2, 7, 1, 4}, nil},
		{"bad axis", 11, []ValueInfo{vin("s", f32, 4), vin("x", f32, 4, 7)}, []string{"s", "x"},
			[]Attr{aI("num_scan_inputs", 1), aIs("scan_input_axes", 2)}, nil, nil, nil, errs.InvalidArtifact},
		{"too many scan inputs", 11, []ValueInfo{vin("s", f32, 4), vin("x", f32, 4, 7)}, []string{"s", "x"},
			[]Attr{aI("num_scan_inputs", 3)}, nil, nil, nil, errs.InvalidArtifact},
		{"bad directions", 11, []ValueInfo{vin("s", f32, 4), vin("x", f32, 4, 7)}, []string{"s", "x"},
			[]Attr{aI("num_scan_inputs", 1), aIs("scan_input_directions", 2)}, nil, nil, nil, errs.InvalidArtifact},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := body()
			g := graph(c.opset, c.inputs, []*Tensor{ints("ax", 0)},
				nd("Scan", c.ins, []string{"sf", "y"}, append([]Attr{aG("body", b)}, c.attrs...)...))
			if err := Sort(g); err != nil {
				t.Fatal(err)
			}
			err := InferTypes(g)
			if c.wantErr != nil {
				wantKind(t, err, c.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if in := b.Inputs[1]; !sameDims(in.Shape, c.slice) || in.DType != f32 {
				t.Errorf("body slice input: got %s %v, want float32 %v", in.DType, in.Shape, c.slice)
			}
			if v := g.Values["sf"]; !sameDims(v.Shape, c.sf) {
				t.Errorf("final state: got %v, want %v", v.Shape, c.sf)
			}
			if v := g.Values["y"]; !sameDims(v.Shape, c.y) || v.DType != f32 {
				t.Errorf("scan output: got %s %v, want float32 %v", v.DType, v.Shape, c.y)
			}
		})
	}
}

// Loop's scan outputs get a leading unknown dim; a body with the wrong
// number of inputs or outputs is malformed.
func TestInferLoop(t *testing.T) {
	body := func(extra bool) *Graph {
		b := sub([]ValueInfo{{Name: "i"}, {Name: "c_in"}, {Name: "v_in"}}, []string{"c_in", "v_in", "e"},
			nd("Unsqueeze", []string{"i", "ax"}, []string{"e"}))
		if extra {
			b.Outputs = append(b.Outputs, ValueInfo{Name: "e"})
		}
		return b
	}
	g := graph(17, []ValueInfo{vin("m", i64), vin("v", f32, 3)}, []*Tensor{ints("ax", 0)},
		nd("Loop", []string{"m", "", "v"}, []string{"vf", "es"}, aG("body", body(false))))
	if err := Sort(g); err != nil {
		t.Fatal(err)
	}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	// The body may change a loop-carried value's shape, and this one
	// leaves its input's unknown.
	if v := g.Values["vf"]; v.DType != f32 || v.RankKnown {
		t.Errorf("final value: got %s %v (ranked %v), want float32 of unknown shape", v.DType, v.Shape, v.RankKnown)
	}
	if v := g.Values["es"]; v.DType != i64 || !sameDims(v.Shape, []int{-1, 1}) {
		t.Errorf("scan output: got %s %v, want int64 [-1 1]", v.DType, v.Shape)
	}
	bad := graph(17, []ValueInfo{vin("m", i64), vin("v", f32, 3)}, []*Tensor{ints("ax", 0)},
		nd("Loop", []string{"m", "", "v"}, []string{"vf", "es"}, aG("body", body(true))))
	if err := Sort(bad); err != nil {
		t.Fatal(err)
	}
	wantKind(t, InferTypes(bad), errs.InvalidArtifact)
}
