package model

import (
	"slices"
	"testing"
)

// lnNodes is the spelled-out layer normalisation of x over axes, ending
// in y (scale and bias optional, "" to leave them out).
func lnNodes(axes []int64, scale, bias string) []*Node {
	ns := []*Node{
		nd("ReduceMean", []string{"x"}, []string{"m"}, aIs("axes", axes...)),
		nd("Sub", []string{"x", "m"}, []string{"d"}),
		nd("Pow", []string{"d", "two"}, []string{"p"}),
		nd("ReduceMean", []string{"p"}, []string{"v"}, aIs("axes", axes...)),
		nd("Add", []string{"v", "eps"}, []string{"ve"}),
		nd("Sqrt", []string{"ve"}, []string{"s"}),
		nd("Div", []string{"d", "s"}, []string{"n"}),
	}
	if scale != "" {
		ns = append(ns, nd("Mul", []string{"n", scale}, []string{"ns"}))
		if bias != "" {
			ns = append(ns, nd("Add", []string{bias, "ns"}, []string{"nb"}))
		}
	}
	ns[len(ns)-1].Outputs[0] = "y"
	return ns
}

// TestFuseNorms checks which spelled-out layer normalisations
// become one LayerNormalization node.
func TestFuseNorms(t *testing.T) {
	consts := []*Tensor{
		NewTensor("two", []int{}, []float32{2}), NewTensor("eps", []int{}, []float32{1e-5}),
		floats("g", 1, 2, 3, 4), floats("b", 4, 3, 2, 1), NewTensor("g12", []int{3, 4}, make([]float32, 12)),
	}
	x := []ValueInfo{vin("x", f32, 2, 3, 4)}
	cases := []struct {
		name     string
		opset    int64
		nodes    []*Node
		extra    []string
		wantOps  []string
		domain   string
		axis     int64
		inputs   []string
		newScale bool
	}{
		{name: "scale and bias", nodes: lnNodes([]int64{-1}, "g", "b"), wantOps: []string{"LayerNormalization"}, axis: -1, inputs: []string{"x", "g", "b"}},
		{name: "opset 9", opset: 9, nodes: lnNodes([]int64{2}, "g", "b"), wantOps: []string{"LayerNormalization"}, domain: EwDomain, axis: -1, inputs: []string{"x", "g", "b"}},
		{name: "scale only", nodes: lnNodes([]int64{-1}, "g", ""), wantOps: []string{"LayerNormalization"}, axis: -1, inputs: []string{"x", "g"}},
		{name: "two axes, no scale", nodes: lnNodes([]int64{1, 2}, "", ""), wantOps: []string{"LayerNormalization"}, axis: -2, newScale: true},
		{name: "scale of two axes", nodes: lnNodes([]int64{-2, -1}, "g12", ""), wantOps: []string{"LayerNormalization"}, axis: -2, inputs: []string{"x", "g12"}},
		{name: "not the last axis", nodes: lnNodes([]int64{1}, "", ""), wantOps: []string{"ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div"}},
		// With d an output, what follows it is still d's RMS normalisation.
		{name: "centred value is an output", nodes: lnNodes([]int64{-1}, "", ""), extra: []string{"d"},
			wantOps: []string{"ReduceMean", "Sub", "RMSNormalization"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opset := c.opset
			if opset == 0 {
				opset = 17
			}
			g := graph(opset, x, consts, c.nodes...)
			for _, e := range c.extra {
				g.Outputs = append(g.Outputs, ValueInfo{Name: e})
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			if err := FuseNorms(g); err != nil {
				t.Fatalf("FuseNorms: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !slices.Equal(ops, c.wantOps) {
				t.Fatalf("ops %v, want %v", ops, c.wantOps)
			}
			if c.axis == 0 {
				return
			}
			n := g.Nodes[0]
			if n.Domain != c.domain || n.Outputs[0] != "y" {
				t.Fatalf("node in domain %q writing %v, want %q writing y", n.Domain, n.Outputs, c.domain)
			}
			if ax, _ := n.Int("axis", 0); ax != c.axis {
				t.Errorf("axis %d, want %d", ax, c.axis)
			}
			if eps, _ := n.Float("epsilon", 0); eps != 1e-5 {
				t.Errorf("epsilon %v, want 1e-5", eps)
			}
			if c.newScale {
				s := g.Const(n.Inputs[1])
				if len(n.Inputs) != 2 || s == nil || !slices.Equal(s.Shape, []int{3, 4}) {
					t.Fatalf("inputs %v, want x and a new scale of shape [3 4]", n.Inputs)
				}
			} else if !slices.Equal(n.Inputs, c.inputs) {
				t.Errorf("inputs %v, want %v", n.Inputs, c.inputs)
			}
			if _, _, err := BindNode(n, OpsetOf(g, n.Domain)); err != nil {
				t.Fatalf("BindNode: %v", err)
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
		})
	}
}

// TestFuseRMSNorm checks the RMS normalisation pattern.
func TestFuseRMSNorm(t *testing.T) {
	consts := []*Tensor{NewTensor("two", []int{}, []float32{2}), NewTensor("eps", []int{}, []float32{1e-6}), floats("g", 1, 2, 3, 4), ints("last", -1)}
	rms := func(scale bool, opset int64) []*Node {
		mean := nd("ReduceMean", []string{"p"}, []string{"m"}, aIs("axes", -1))
		if opset >= 18 {
			mean = nd("ReduceMean", []string{"p", "last"}, []string{"m"})
		}
		ns := []*Node{
			nd("Pow", []string{"x", "two"}, []string{"p"}),
			mean,
			nd("Add", []string{"m", "eps"}, []string{"me"}),
			nd("Sqrt", []string{"me"}, []string{"s"}),
			nd("Div", []string{"x", "s"}, []string{"n"}),
		}
		if scale {
			ns = append(ns, nd("Mul", []string{"g", "n"}, []string{"ns"}))
		}
		ns[len(ns)-1].Outputs[0] = "y"
		return ns
	}
	for _, c := range []struct {
		name    string
		opset   int64
		nodes   []*Node
		extra   []string
		wantOps []string
		domain  string
	}{
		{name: "scaled", opset: 23, nodes: rms(true, 23), wantOps: []string{"RMSNormalization"}},
		{name: "opset 13, no scale", opset: 13, nodes: rms(false, 13), wantOps: []string{"RMSNormalization"}, domain: EwDomain},
		{name: "mean of squares is an output", opset: 13, nodes: rms(true, 13), extra: []string{"m"},
			wantOps: []string{"Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := graph(c.opset, []ValueInfo{vin("x", f32, 2, 3, 4)}, consts, c.nodes...)
			g.Outputs = append(g.Outputs, ValueInfo{Name: "x"})
			for _, e := range c.extra {
				g.Outputs = append(g.Outputs, ValueInfo{Name: e})
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			if err := FuseNorms(g); err != nil {
				t.Fatalf("FuseNorms: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !slices.Equal(ops, c.wantOps) {
				t.Fatalf("ops %v, want %v", ops, c.wantOps)
			}
			if len(ops) != 1 {
				return
			}
			n := g.Nodes[0]
			if n.Domain != c.domain || n.Outputs[0] != "y" || n.Inputs[0] != "x" {
				t.Fatalf("node in domain %q, %v → %v, want %q, x → y", n.Domain, n.Inputs, n.Outputs, c.domain)
			}
			if _, _, err := BindNode(n, OpsetOf(g, n.Domain)); err != nil {
				t.Fatalf("BindNode: %v", err)
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
		})
	}
}
