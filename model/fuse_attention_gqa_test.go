package model

import (
	"slices"
	"testing"
)

// gqaNodes returns softmax(q·kᵀ·0.5 + m)·v with k and v repeated from
// kk and vv by Unsqueeze (axes ax), Expand (kRep, vRep) and Reshape
// (kShape, vShape), as exporters write grouped heads.
func gqaNodes(ax, kRep, vRep, kShape, vShape string) []*Node {
	return []*Node{
		nd("Unsqueeze", []string{"kk", ax}, []string{"ku"}),
		nd("Expand", []string{"ku", kRep}, []string{"ke"}),
		nd("Reshape", []string{"ke", kShape}, []string{"k"}),
		nd("Transpose", []string{"k"}, []string{"kt"}, aIs("perm", 0, 1, 3, 2)),
		nd("MatMul", []string{"q", "kt"}, []string{"s"}),
		nd("Mul", []string{"s", "c"}, []string{"sc"}),
		nd("Add", []string{"sc", "m"}, []string{"sm"}),
		nd("Softmax", []string{"sm"}, []string{"p"}, aI("axis", -1)),
		nd("Unsqueeze", []string{"vv", ax}, []string{"vu"}),
		nd("Expand", []string{"vu", vRep}, []string{"ve"}),
		nd("Reshape", []string{"ve", vShape}, []string{"v"}),
		nd("MatMul", []string{"p", "v"}, []string{"y"}),
	}
}

// TestFuseAttentionGroupedHeads checks that attention over keys and
// values repeated for grouped query heads fuses into one Attention node
// reading the unrepeated keys and values, and that repeats which do not
// pair head h with key/value head h/g stay unfused.
func TestFuseAttentionGroupedHeads(t *testing.T) {
	i64 := func(name string, v ...int64) *Tensor { return NewTensor(name, []int{len(v)}, v) }
	consts := []*Tensor{
		NewTensor("c", []int{}, []float32{0.5}),
		i64("ax2", 2), i64("axm3", -3), i64("ax1", 1),
		i64("rep2", 1, 1, 2, 1, 1), i64("rep2full", 2, 2, 2, 3, 8), i64("rep3", 1, 1, 3, 1, 1),
		i64("repT", 1, 1, 2, 6, 1),
		i64("hs", 2, 4, -1, 8), i64("hsv", 2, 4, -1, 6), i64("hs6", 2, 6, -1, 8), i64("hsv6", 2, 6, -1, 6),
		i64("hs0", 0, 4, -1, 8),
	}
	inputs := []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("kk", f32, 2, 2, 3, 8), vin("vv", f32, 2, 2, 3, 6),
		vin("m", f32, 1, 1, 5, -1)}
	unfused := []string{"Unsqueeze", "Expand", "Reshape", "Transpose", "MatMul", "Mul", "Add", "Softmax", "Unsqueeze", "Expand", "Reshape", "MatMul"}
	cases := []struct {
		name                     string
		ax, kRep, vRep, kSh, vSh string
		fused                    bool
	}{
		{name: "repeat of 2", ax: "ax2", kRep: "rep2", vRep: "rep2", kSh: "hs", vSh: "hsv", fused: true},
		{name: "negative axis, full expand shape", ax: "axm3", kRep: "rep2full", vRep: "rep2", kSh: "hs", vSh: "hsv", fused: true},
		{name: "unsqueeze on another axis", ax: "ax1", kRep: "rep2", vRep: "rep2", kSh: "hs", vSh: "hsv"},
		{name: "groups differ", ax: "ax2", kRep: "rep2", vRep: "rep3", kSh: "hs", vSh: "hsv6"},
		{name: "expand widens the keys", ax: "ax2", kRep: "repT", vRep: "rep2", kSh: "hs", vSh: "hsv"},
		{name: "reshape copies a dim", ax: "ax2", kRep: "rep2", vRep: "rep2", kSh: "hs0", vSh: "hsv"},
		{name: "reshape heads not the product", ax: "ax2", kRep: "rep3", vRep: "rep3", kSh: "hs", vSh: "hsv"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := graph(21, inputs, consts, gqaNodes(c.ax, c.kRep, c.vRep, c.kSh, c.vSh)...)
			g.Outputs = []ValueInfo{{Name: "y"}}
			if err := InferTypes(g); err != nil {
				if c.fused {
					t.Fatalf("InferTypes: %v", err)
				}
				return // a repeat that does not type is no case for the pass
			}
			want := *g.Values["y"]
			if err := FuseAttention(g); err != nil {
				t.Fatalf("FuseAttention: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !c.fused {
				if !slices.Equal(ops, unfused) {
					t.Fatalf("ops %v, want %v", ops, unfused)
				}
				return
			}
			if !slices.Equal(ops, []string{"Attention"}) {
				t.Fatalf("ops %v, want [Attention]", ops)
			}
			att := g.Nodes[0]
			if wantIns := []string{"q", "kk", "vv", "m"}; !slices.Equal(att.Inputs, wantIns) {
				t.Fatalf("Attention reads %v, want %v", att.Inputs, wantIns)
			}
			for _, v := range []string{"ku", "ke", "k", "kt", "vu", "ve", "v", "s", "p"} {
				if g.Values[v] != nil {
					t.Errorf("value %q still recorded", v)
				}
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
			if got := g.Values["y"]; !slices.Equal(got.Shape, want.Shape) {
				t.Fatalf("y is %v, want %v", got.Shape, want.Shape)
			}
		})
	}
}
