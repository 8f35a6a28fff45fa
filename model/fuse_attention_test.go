package model

import (
	"math"
	"slices"
	"testing"
)

// attnSpec describes one spelled-out attention for attnNodes.
type attnSpec struct {
	perm       []int64 // the Transpose's perm: (0, 1, 3, 2) of k or (0, 2, 3, 1) of k4
	scale      string  // "mul", "mulrev", "div" or ""
	scaleValue string  // the scale's value name; "c" when empty
	mask       string  // "add", "addrev" or ""
	maskValue  string  // the mask's value name; "m" when empty
	axis       int64   // Softmax's axis; -1 when 0
	noAxis     bool    // leave Softmax's axis out
}

// attnNodes returns the nodes of softmax(scale(q·kᵀ) + mask)·v ending in
// y, as s describes.
func attnNodes(s attnSpec) []*Node {
	src := "k"
	if s.perm[1] == 2 {
		src = "k4"
	}
	ns := []*Node{nd("Transpose", []string{src}, []string{"kt"}, aIs("perm", s.perm...)),
		nd("MatMul", []string{"q", "kt"}, []string{"s"})}
	cur := "s"
	c := s.scaleValue
	if c == "" {
		c = "c"
	}
	switch s.scale {
	case "mul":
		ns = append(ns, nd("Mul", []string{cur, c}, []string{"sc"}))
	case "mulrev":
		ns = append(ns, nd("Mul", []string{c, cur}, []string{"sc"}))
	case "div":
		ns = append(ns, nd("Div", []string{cur, c}, []string{"sc"}))
	}
	if s.scale != "" {
		cur = "sc"
	}
	m := s.maskValue
	if m == "" {
		m = "m"
	}
	switch s.mask {
	case "add":
		ns = append(ns, nd("Add", []string{cur, m}, []string{"sm"}))
	case "addrev":
		ns = append(ns, nd("Add", []string{m, cur}, []string{"sm"}))
	}
	if s.mask != "" {
		cur = "sm"
	}
	axis := s.axis
	if axis == 0 {
		axis = -1
	}
	sm := nd("Softmax", []string{cur}, []string{"p"}, aI("axis", axis))
	if s.noAxis {
		sm.Attrs = nil
	}
	return append(ns, sm, nd("MatMul", []string{"p", "v"}, []string{"y"}))
}

// TestFuseAttention checks which spelled-out attentions become one
// Attention node, and what that node reads.
func TestFuseAttention(t *testing.T) {
	ninf := float32(math.Inf(-1))
	consts := []*Tensor{
		NewTensor("c", []int{}, []float32{0.5}), NewTensor("c1", []int{1, 1, 1, 1}, []float32{0.5}),
		NewTensor("c5", []int{1, 1, 1, 1, 1}, []float32{0.5}), NewTensor("zero", []int{}, []float32{0}),
		NewTensor("minf", []int{1, 1, 1, 3}, []float32{0, ninf, 0}),
		NewTensor("mallinf", []int{1, 1, 1, 3}, []float32{ninf, ninf, ninf}),
	}
	in4 := []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("k", f32, 2, 4, 3, 8), vin("k4", f32, 2, 3, 4, 8),
		vin("v", f32, 2, 4, 3, 6), vin("m", f32, 2, 1, 1, 3), vin("m1", f32, 2, 1, 1, 1),
		vin("mh", f32, 1, 4, 5, 3), vin("cin", f32), vin("kin", f32, 2, 4, 8, 3)}
	t0132, t0231 := []int64{0, 1, 3, 2}, []int64{0, 2, 3, 1}
	fused := []string{"Attention"}
	cases := []struct {
		name    string
		opset   int64
		spec    attnSpec
		nodes   []*Node // replaces attnNodes(spec) when set
		inputs  []ValueInfo
		extra   []string // more graph outputs
		wantOps []string
		domain  string
		ins     []string // the Attention node's inputs
		scale   float32
		perm    []int64 // the kept Transpose's perm
	}{
		{name: "mul and mask", spec: attnSpec{perm: t0132, scale: "mul", mask: "add"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m"}, scale: 0.5},
		{name: "operands swapped", spec: attnSpec{perm: t0132, scale: "mulrev", mask: "addrev"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m"}, scale: 0.5},
		{name: "div of rank 4", spec: attnSpec{perm: t0132, scale: "div", scaleValue: "c1", mask: "add"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m"}, scale: 2},
		{name: "heads mask", spec: attnSpec{perm: t0132, scale: "mul", mask: "add", maskValue: "mh"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "mh"}, scale: 0.5},
		{name: "no scale, no mask", spec: attnSpec{perm: t0132}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v"}, scale: 1},
		{name: "keys by token", spec: attnSpec{perm: t0231, scale: "mul", mask: "add"}, wantOps: []string{"Transpose", "Attention"}, domain: EwDomain, ins: []string{"q", "kt", "v", "m"}, scale: 0.5, perm: []int64{0, 2, 1, 3}},
		{name: "opset 23", opset: 23, spec: attnSpec{perm: t0132, scale: "mul"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v"}, scale: 0.5},
		{name: "opset 11, last axis", opset: 11, spec: attnSpec{perm: t0132, scale: "mul", axis: 3}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v"}, scale: 0.5},
		{name: "constant mask", spec: attnSpec{perm: t0132, mask: "add", maskValue: "minf"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "minf"}, scale: 1},

		{name: "keys of unknown count", inputs: []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("k", f32, 2, 4, -1, 8), vin("v", f32, 2, 4, -1, 6), vin("m", f32, -1, 1, 1, 3)},
			spec: attnSpec{perm: t0132, mask: "add"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m"}, scale: 1},
		{name: "mask of one key, keys of unknown count", inputs: []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("k", f32, 2, 4, -1, 8), vin("v", f32, 2, 4, -1, 6), vin("m", f32, 2, 1, 1, 1)},
			spec: attnSpec{perm: t0132, mask: "add"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m"}, scale: 1},
		{name: "mask of unknown length", inputs: []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("k", f32, 2, 4, -1, 8), vin("v", f32, 2, 4, -1, 6), vin("m", f32, 2, 1, 1, -1)},
			spec: attnSpec{perm: t0132, mask: "add"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m"}, scale: 1},
		{name: "opset 11, default axis", opset: 11, spec: attnSpec{perm: t0132, noAxis: true}, wantOps: []string{"Transpose", "MatMul", "Softmax", "MatMul"}},
		{name: "softmax on another axis", spec: attnSpec{perm: t0132, axis: 2}, wantOps: []string{"Transpose", "MatMul", "Softmax", "MatMul"}},
		{name: "score used twice", nodes: append(attnNodes(attnSpec{perm: t0132, scale: "mul"}), nd("Neg", []string{"s"}, []string{"ns"})), extra: []string{"ns"},
			wantOps: []string{"Transpose", "MatMul", "Mul", "Softmax", "MatMul", "Neg"}},
		{name: "probabilities an output", spec: attnSpec{perm: t0132, scale: "mul"}, extra: []string{"p"}, wantOps: []string{"Transpose", "MatMul", "Mul", "Softmax", "MatMul"}},
		{name: "scale not constant", spec: attnSpec{perm: t0132, scale: "mul", scaleValue: "cin"}, wantOps: []string{"Transpose", "MatMul", "Mul", "Softmax", "MatMul"}},
		{name: "scale widens the rank", spec: attnSpec{perm: t0132, scale: "mul", scaleValue: "c5"}, wantOps: []string{"Transpose", "MatMul", "Mul", "Softmax", "MatMul"}},
		{name: "divide by zero", spec: attnSpec{perm: t0132, scale: "div", scaleValue: "zero"}, wantOps: []string{"Transpose", "MatMul", "Div", "Softmax", "MatMul"}},
		{name: "mask of one key", spec: attnSpec{perm: t0132, mask: "add", maskValue: "m1"}, wantOps: fused, domain: EwDomain, ins: []string{"q", "k", "v", "m1"}, scale: 1},
		{name: "constant mask with a row all -inf", spec: attnSpec{perm: t0132, mask: "add", maskValue: "mallinf"}, wantOps: []string{"Transpose", "MatMul", "Add", "Softmax", "MatMul"}},
		{name: "other perm", nodes: []*Node{nd("Transpose", []string{"kin"}, []string{"kt"}, aIs("perm", 0, 1, 2, 3)), nd("MatMul", []string{"q", "kt"}, []string{"s"}),
			nd("Softmax", []string{"s"}, []string{"p"}, aI("axis", -1)), nd("MatMul", []string{"p", "v"}, []string{"y"})},
			wantOps: []string{"Transpose", "MatMul", "Softmax", "MatMul"}},
		{name: "keys not a transpose", nodes: []*Node{nd("MatMul", []string{"q", "kin"}, []string{"s"}),
			nd("Softmax", []string{"s"}, []string{"p"}, aI("axis", -1)), nd("MatMul", []string{"p", "v"}, []string{"y"})},
			wantOps: []string{"MatMul", "Softmax", "MatMul"}},
		{name: "rank 3", inputs: []ValueInfo{vin("q", f32, 4, 5, 8), vin("k", f32, 4, 3, 8), vin("v", f32, 4, 3, 6)},
			nodes: []*Node{nd("Transpose", []string{"k"}, []string{"kt"}, aIs("perm", 0, 2, 1)), nd("MatMul", []string{"q", "kt"}, []string{"s"}),
				nd("Softmax", []string{"s"}, []string{"p"}, aI("axis", -1)), nd("MatMul", []string{"p", "v"}, []string{"y"})},
			wantOps: []string{"Transpose", "MatMul", "Softmax", "MatMul"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opset := c.opset
			if opset == 0 {
				opset = 17
			}
			nodes := c.nodes
			if nodes == nil {
				nodes = attnNodes(c.spec)
			}
			inputs := c.inputs
			if inputs == nil {
				inputs = in4
			}
			g := graph(opset, inputs, consts, nodes...)
			g.Outputs = []ValueInfo{{Name: "y"}}
			for _, e := range c.extra {
				g.Outputs = append(g.Outputs, ValueInfo{Name: e})
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			want := *g.Values["y"]
			if err := FuseAttention(g); err != nil {
				t.Fatalf("FuseAttention: %v", err)
			}
			var ops []string
			var att, tr *Node
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
				switch n.OpType {
				case "Attention":
					att = n
				case "Transpose":
					tr = n
				}
			}
			if !slices.Equal(ops, c.wantOps) {
				t.Fatalf("ops %v, want %v", ops, c.wantOps)
			}
			if att == nil {
				return
			}
			if att.Domain != c.domain || !slices.Equal(att.Inputs, c.ins) || !slices.Equal(att.Outputs, []string{"y"}) {
				t.Fatalf("got %s.Attention(%v) -> %v, want %q.Attention(%v) -> [y]", att.Domain, att.Inputs, att.Outputs, c.domain, c.ins)
			}
			if s, err := att.Float("scale", 0); err != nil || s != c.scale {
				t.Fatalf("scale %v (%v), want %v", s, err, c.scale)
			}
			if c.perm != nil {
				if p, _ := tr.Ints("perm", nil); !slices.Equal(p, c.perm) {
					t.Fatalf("Transpose perm %v, want %v", p, c.perm)
				}
			}
			for _, v := range []string{"s", "sc", "sm", "p"} {
				if g.Values[v] != nil {
					t.Errorf("value %q still recorded", v)
				}
			}
			// The graph still types, to y's shape.
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
			if got := g.Values["y"]; !slices.Equal(got.Shape, want.Shape) || got.DType != want.DType {
				t.Fatalf("y is %v %v, want %v %v", got.DType, got.Shape, want.DType, want.Shape)
			}
		})
	}
}

// TestFuseAttentionNil checks the pass refuses a nil graph.
func TestFuseAttentionNil(t *testing.T) {
	if err := FuseAttention(nil); err == nil {
		t.Fatal("got nil error for a nil graph")
	}
}

// TestFusedAttentionMaskExact checks that FuseAttention's node refuses a
// mask shorter than the keys, which ONNX's Attention pads.
func TestFusedAttentionMaskExact(t *testing.T) {
	for _, c := range []struct {
		domain string
		keys   int
		ok     bool
	}{{"", 2, true}, {"", 3, true}, {EwDomain, 3, true}, {EwDomain, 2, false}} {
		in := []ValueInfo{vin("q", f32, 2, 4, 5, 8), vin("k", f32, 2, 4, 3, 8), vin("v", f32, 2, 4, 3, 6), vin("m", f32, 2, 1, 1, c.keys)}
		n := nd("Attention", []string{"q", "k", "v", "m"}, []string{"y"})
		n.Domain = c.domain
		g := graph(23, in, nil, n)
		if err := InferTypes(g); (err == nil) != c.ok {
			t.Errorf("domain %q, mask of %d keys: got error %v, want ok %v", c.domain, c.keys, err, c.ok)
		}
	}
}
