package model

import (
	"slices"
	"testing"
)

// shapeRepeatNodes returns softmax(q·kᵀ·0.5 + m)·v with k and v repeated
// from kk and vv as tracing exporters write Hugging Face's repeat_kv: the
// Expand shape (b, h, n_rep, t, d) and the Reshape dims (b, h·n_rep, t,
// d) gathered from each source's Shape, the head count multiplied by
// n_rep. dims picks the source dim for each of b, h, t, d (0, 1, 2, 3
// for the right ones) and mul is the Mul's factor.
func shapeRepeatNodes(dims [4]int64, mul string) []*Node {
	var nodes []*Node
	rep := func(src, p string) {
		nodes = append(nodes, nd("Shape", []string{src}, []string{p + "sh"}))
		names := [4]string{"b", "h", "t", "d"}
		for i, name := range names {
			nodes = append(nodes,
				nd("Gather", []string{p + "sh", []string{"i0", "i1", "i2", "i3"}[dims[i]]}, []string{p + "_" + name + "s"}),
				nd("Unsqueeze", []string{p + "_" + name + "s", "ax0"}, []string{p + "_" + name}))
		}
		nodes = append(nodes,
			nd("Concat", []string{p + "_b", p + "_h", "nrep", p + "_t", p + "_d"}, []string{p + "es"}, aI("axis", 0)),
			nd("Mul", []string{p + "_hs", mul}, []string{p + "hm"}),
			nd("Unsqueeze", []string{p + "hm", "ax0"}, []string{p + "hu"}),
			nd("Concat", []string{p + "_b", p + "hu", p + "_t", p + "_d"}, []string{p + "rd"}, aI("axis", 0)),
			nd("Unsqueeze", []string{src, "ax2"}, []string{p + "u"}),
			nd("Expand", []string{p + "u", p + "es"}, []string{p + "e"}),
			nd("Reshape", []string{p + "e", p + "rd"}, []string{p}))
	}
	rep("kk", "k")
	nodes = append(nodes,
		nd("Transpose", []string{"k"}, []string{"kt"}, aIs("perm", 0, 1, 3, 2)),
		nd("MatMul", []string{"q", "kt"}, []string{"s"}),
		nd("Mul", []string{"s", "c"}, []string{"sc"}),
		nd("Add", []string{"sc", "m"}, []string{"sm"}),
		nd("Softmax", []string{"sm"}, []string{"p"}, aI("axis", -1)))
	rep("vv", "v")
	return append(nodes, nd("MatMul", []string{"p", "v"}, []string{"y"}))
}

// TestFuseAttentionGroupedHeadsFromShapes checks that grouped heads whose
// repeat shapes are built from the caches' shapes at run time (batch and
// keys unknown) fuse into one Attention node, the shape-building nodes
// going with the repeats, and that repeats whose shapes name the wrong
// dims or factor stay.
func TestFuseAttentionGroupedHeadsFromShapes(t *testing.T) {
	i64s := func(name string, v ...int64) *Tensor { return NewTensor(name, []int{len(v)}, v) }
	sc := func(name string, v int64) *Tensor { return NewTensor(name, []int{}, []int64{v}) }
	consts := []*Tensor{
		NewTensor("c", []int{}, []float32{0.5}),
		i64s("ax0", 0), i64s("ax2", 2), i64s("nrep", 2),
		sc("i0", 0), sc("i1", 1), sc("i2", 2), sc("i3", 3), sc("two", 2), sc("three", 3),
	}
	inputs := []ValueInfo{vin("q", f32, -1, 4, 5, 8), vin("kk", f32, -1, 2, -1, 8), vin("vv", f32, -1, 2, -1, 8),
		vin("m", f32, 1, 1, 5, -1)}
	cases := []struct {
		name  string
		dims  [4]int64
		mul   string
		fused bool
	}{
		{name: "repeat_kv", dims: [4]int64{0, 1, 2, 3}, mul: "two", fused: true},
		{name: "keys and head size swapped", dims: [4]int64{0, 1, 3, 2}, mul: "two"},
		{name: "heads times another factor", dims: [4]int64{0, 1, 2, 3}, mul: "three"},
		{name: "batch from the heads", dims: [4]int64{1, 1, 2, 3}, mul: "two"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := graph(21, inputs, consts, shapeRepeatNodes(c.dims, c.mul)...)
			g.Outputs = []ValueInfo{{Name: "y"}}
			if err := InferTypes(g); err != nil {
				if c.fused {
					t.Fatalf("InferTypes: %v", err)
				}
				return // a repeat that does not type is no case for the pass
			}
			before := len(g.Nodes)
			if err := FuseAttention(g); err != nil {
				t.Fatalf("FuseAttention: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !c.fused {
				// The attention still fuses, over the repeated keys
				// and values, which stay.
				if n := g.Nodes[len(g.Nodes)-1]; n.OpType != "Attention" || n.Inputs[1] != "k" || n.Inputs[2] != "v" {
					t.Fatalf("ops %v: the repeats fused, want them kept", ops)
				}
				if got := len(g.Nodes); got != before-5 {
					t.Fatalf("%d nodes left, want %d", got, before-5)
				}
				return
			}
			if !slices.Equal(ops, []string{"Attention"}) {
				t.Fatalf("ops %v, want [Attention]", ops)
			}
			if want := []string{"q", "kk", "vv", "m"}; !slices.Equal(g.Nodes[0].Inputs, want) {
				t.Fatalf("Attention reads %v, want %v", g.Nodes[0].Inputs, want)
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
		})
	}
}
