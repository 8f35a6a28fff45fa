package model

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// halfGraph returns x (dt, 2×3) · w (dt) → Relu → y (a dt output), and
// y cast to float32 → y32 (a float32 output), with types inferred; op
// replaces Relu.
func halfGraph(t *testing.T, dt payload.DType, op string) *Graph {
	t.Helper()
	w := &Tensor{Name: "w", DType: dt, Shape: []int{3}, Raw: []byte{0x00, 0x3c, 0x00, 0x40, 0x00, 0xc2}}
	if dt == payload.BF16 {
		w.Raw = []byte{0x80, 0x3f, 0x00, 0x40, 0x40, 0xc0}
	}
	g := graph(17, []ValueInfo{vin("x", dt, 2, 3)}, []*Tensor{w},
		nd("Mul", []string{"x", "w"}, []string{"m"}),
		nd(op, []string{"m"}, []string{"y"}),
		nd("Cast", []string{"y"}, []string{"y32"}, aI("to", int64(payload.Float32))))
	g.Outputs = []ValueInfo{{Name: "y", DType: dt}, {Name: "y32", DType: payload.Float32}}
	if err := Sort(g); err != nil {
		t.Fatal(err)
	}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestWidenHalf(t *testing.T) {
	for _, dt := range []payload.DType{payload.Float16, payload.BF16} {
		g := halfGraph(t, dt, "Relu")
		ok, err := WidenHalf(g)
		if err != nil || !ok {
			t.Fatalf("%s: WidenHalf = %v, %v; want true, nil", dt, ok, err)
		}
		var ops []string
		for _, n := range g.Nodes {
			ops = append(ops, n.OpType+"("+n.Inputs[0]+")->"+n.Outputs[0])
		}
		want := []string{"Cast(x)->x__f32", "Mul(x__f32)->m", "Relu(m)->y32", "Cast(y32)->y"}
		if len(ops) != len(want) {
			t.Fatalf("%s: nodes %v, want %v", dt, ops, want)
		}
		for i := range want {
			if ops[i] != want[i] {
				t.Fatalf("%s: nodes %v, want %v", dt, ops, want)
			}
		}
		if to, _ := g.Nodes[3].Int("to", 0); to != int64(dt) {
			t.Errorf("%s: output Cast to %d, want %d", dt, to, dt)
		}
		for name, want := range map[string]payload.DType{"x": dt, "x__f32": payload.Float32, "m": payload.Float32, "y": dt, "y32": payload.Float32} {
			if v := g.Values[name]; v == nil || v.DType != want {
				t.Errorf("%s: value %q is %v, want %s", dt, name, v, want)
			}
		}
		w, err := View[float32](g.Initializers["w"])
		if err != nil {
			t.Fatalf("%s: w: %v", dt, err)
		}
		if w[0] != 1 || w[1] != 2 || w[2] != -3 {
			t.Errorf("%s: w widened to %v, want [1 2 -3]", dt, w)
		}
	}
}

func TestWidenHalfLeaves(t *testing.T) {
	mixed := halfGraph(t, payload.Float16, "Relu")
	mixed.Initializers["b"] = NewTensor("b", []int{1}, []payload.BFloat16{payload.BFloat16From(1)})
	f32Graph := graph(17, []ValueInfo{vin("x", f32, 2)}, nil, nd("Relu", []string{"x"}, []string{"y"}))
	if err := InferTypes(f32Graph); err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*Graph{
		"Hardmax":          halfGraph(t, payload.Float16, "Hardmax"),
		"float16 and bf16": mixed,
		"no half value":    f32Graph,
	} {
		before := len(g.Nodes)
		ok, err := WidenHalf(g)
		if err != nil || ok {
			t.Errorf("%s: WidenHalf = %v, %v; want false, nil", name, ok, err)
		}
		if len(g.Nodes) != before {
			t.Errorf("%s: %d nodes, want %d", name, len(g.Nodes), before)
		}
	}
	if _, err := WidenHalf(nil); err == nil {
		t.Error("nil graph: no error")
	}
}

// TestWidenHalfKeepsOtherCasts checks that only the Casts between the
// half type and float32 go: a Cast from float32 to int64 elsewhere stays,
// and an output listed twice gets one Cast.
func TestWidenHalfKeepsOtherCasts(t *testing.T) {
	g := graph(17, []ValueInfo{vin("x", payload.Float16, 4), vin("s", f32, 4)}, nil,
		nd("Relu", []string{"x"}, []string{"y"}),
		nd("Cast", []string{"s"}, []string{"z"}, aI("to", int64(i64))))
	g.Outputs = []ValueInfo{{Name: "y", DType: payload.Float16}, {Name: "z", DType: i64}, {Name: "y", DType: payload.Float16}}
	if err := Sort(g); err != nil {
		t.Fatal(err)
	}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	if ok, err := WidenHalf(g); err != nil || !ok {
		t.Fatalf("WidenHalf = %v, %v; want true, nil", ok, err)
	}
	var ops []string
	for _, n := range g.Nodes {
		ops = append(ops, n.OpType+"("+n.Inputs[0]+")->"+n.Outputs[0])
	}
	want := "[Cast(x)->x__f32 Relu(x__f32)->y__f32 Cast(s)->z Cast(y__f32)->y]"
	if got := fmt.Sprint(ops); got != want {
		t.Fatalf("nodes %s, want %s", got, want)
	}
	if to, _ := g.Nodes[2].Int("to", 0); to != int64(i64) {
		t.Errorf("Cast to int64 now casts to %d", to)
	}
}
