package model

import (
	"slices"
	"testing"
)

// TestFuseAttentionCacheConcat checks that the Concats growing a
// key/value cache fold into the fused Attention node as its past inputs
// and present outputs, and stay out when the cache is read elsewhere,
// grows along another axis, or only its keys are concatenated.
func TestFuseAttentionCacheConcat(t *testing.T) {
	i64 := func(name string, v ...int64) *Tensor { return NewTensor(name, []int{len(v)}, v) }
	consts := []*Tensor{NewTensor("c", []int{}, []float32{0.5}), i64("ax2", 2), i64("rep2", 1, 1, 2, 1, 1), i64("hs", 2, 4, -1, 8)}
	inputs := []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("pk", f32, 2, 2, 3, 8), vin("pv", f32, 2, 2, 3, 8),
		vin("nk", f32, 2, 2, 5, 8), vin("nv", f32, 2, 2, 5, 8), vin("m", f32, 1, 1, 5, 8)}
	cases := []struct {
		name   string
		kAxis  int64
		vCat   bool
		reader bool // another node reads the grown keys
		fold   bool
	}{
		{name: "keys and values on axis 2", kAxis: 2, vCat: true, fold: true},
		{name: "negative axis", kAxis: -2, vCat: true, fold: true},
		{name: "keys read elsewhere", kAxis: 2, vCat: true, reader: true},
		{name: "only keys concatenated", kAxis: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodes := []*Node{nd("Concat", []string{"pk", "nk"}, []string{"kk"}, aI("axis", c.kAxis))}
			vv := "vsrc"
			if c.vCat {
				nodes = append(nodes, nd("Concat", []string{"pv", "nv"}, []string{"vv"}, aI("axis", 2)))
				vv = "vv"
			}
			body := gqaNodes("ax2", "rep2", "rep2", "hs", "hs")
			for _, n := range body {
				for i, in := range n.Inputs {
					if in == "vv" {
						n.Inputs[i] = vv
					}
				}
			}
			nodes = append(nodes, body...)
			ins := inputs
			if !c.vCat {
				ins = append(slices.Clone(inputs), vin("vsrc", f32, 2, 2, 8, 8))
			}
			outs := []ValueInfo{{Name: "y"}, {Name: "kk"}}
			if c.vCat {
				outs = append(outs, ValueInfo{Name: "vv"})
			}
			if c.reader {
				nodes = append(nodes, nd("Relu", []string{"kk"}, []string{"kr"}))
				outs = append(outs, ValueInfo{Name: "kr"})
			}
			g := graph(21, ins, consts, nodes...)
			g.Outputs = outs
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			want := map[string][]int{}
			for _, o := range outs {
				want[o.Name] = g.Values[o.Name].Shape
			}
			if err := FuseAttention(g); err != nil {
				t.Fatalf("FuseAttention: %v", err)
			}
			var att *Node
			concats := 0
			for _, n := range g.Nodes {
				switch n.OpType {
				case "Attention":
					att = n
				case "Concat":
					concats++
				}
			}
			if att == nil {
				t.Fatal("no Attention node")
			}
			if c.fold {
				if concats != 0 {
					t.Fatalf("got %d Concats left, want 0", concats)
				}
				if wi, wo := []string{"q", "nk", "nv", "m", "pk", "pv"}, []string{"y", "kk", "vv"}; !slices.Equal(att.Inputs, wi) || !slices.Equal(att.Outputs, wo) {
					t.Fatalf("Attention %v → %v, want %v → %v", att.Inputs, att.Outputs, wi, wo)
				}
			} else if len(att.Inputs) > 4 || len(att.Outputs) != 1 {
				t.Fatalf("Attention %v → %v took in a Concat", att.Inputs, att.Outputs)
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
			for name, s := range want {
				if got := g.Values[name].Shape; !slices.Equal(got, s) {
					t.Errorf("%s is %v after fusing, want %v", name, got, s)
				}
			}
		})
	}
}
