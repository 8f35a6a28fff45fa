package cpu

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// loadMulti loads m for payload.Multi on one thread.
func loadMulti(tb testing.TB, m onnxbuild.Model) *Model[payload.Multi, payload.Multi] {
	tb.Helper()
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		tb.Fatal(err)
	}
	mod, err := New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		tb.Fatal(err)
	}
	if err := mod.Init(); err != nil {
		tb.Fatal(err)
	}
	return mod
}

// outString describes output i of out as "shape values".
func outString(tb testing.TB, out *payload.Multi, i int) string {
	tb.Helper()
	d := out.Tensors[i]
	switch d.DType {
	case payload.Float32:
		t, err := payload.Typed[float32](d)
		if err != nil {
			tb.Fatal(err)
		}
		return fmt.Sprint(t.Shape, t.Data)
	case payload.Int64:
		t, err := payload.Typed[int64](d)
		if err != nil {
			tb.Fatal(err)
		}
		return fmt.Sprint(t.Shape, t.Data)
	}
	tb.Fatalf("output %d: element type %s", i, d.DType)
	return ""
}

func f32In(name string, shape []int, v ...float32) payload.Dynamic {
	return payload.DynamicOf(name, payload.Tensor[float32]{Shape: shape, Data: v})
}

func boolIn(name string, v bool) payload.Dynamic {
	return payload.DynamicOf(name, payload.Tensor[bool]{Shape: []int{}, Data: []bool{v}})
}

func i64In(name string, shape []int, v ...int64) payload.Dynamic {
	return payload.DynamicOf(name, payload.Tensor[int64]{Shape: shape, Data: v})
}

// ob is shorthand for onnxbuild's node.
func ob(op string, ins, outs []string, attrs ...onnxbuild.Attr) onnxbuild.Node {
	return onnxbuild.Node{Op: op, Inputs: ins, Outputs: outs, Attrs: attrs}
}

// untyped declares a subgraph output or input without a type.
func untyped(name string) onnxbuild.Value { return onnxbuild.Value{Name: name, Kind: "untyped"} }

// ifModel is y = If(c, then: x + x, else: x * w), with w a constant and
// the branches' outputs untyped. A second output, z, is x itself in one
// branch (an outer value) and -x in the other.
func ifModel() onnxbuild.Model {
	then := onnxbuild.Graph{
		Outputs: []onnxbuild.Value{untyped("a"), untyped("x")},
		Nodes:   []onnxbuild.Node{ob("Add", []string{"x", "x"}, []string{"a"})},
	}
	els := onnxbuild.Graph{
		Outputs: []onnxbuild.Value{untyped("b"), untyped("nx")},
		Nodes:   []onnxbuild.Node{ob("Mul", []string{"x", "w"}, []string{"b"}), ob("Neg", []string{"x"}, []string{"nx"})},
	}
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:       []onnxbuild.Value{onnxbuild.Input("c", payload.Bool), onnxbuild.Input("x", payload.Float32, -1)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1), onnxbuild.Input("z", payload.Float32, -1)},
		Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{1}, []float32{10})},
		Nodes: []onnxbuild.Node{{Name: "choose", Op: "If", Inputs: []string{"c"}, Outputs: []string{"y", "z"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("then_branch", then), onnxbuild.AGraph("else_branch", els)}}},
	}}
}

func TestIf(t *testing.T) {
	mod := loadMulti(t, ifModel())
	cases := []struct {
		cond bool
		x    []float32
		y, z string
	}{
		{true, []float32{1, 2, 3}, "[3] [2 4 6]", "[3] [1 2 3]"},
		{false, []float32{1, 2, 3}, "[3] [10 20 30]", "[3] [-1 -2 -3]"},
		{true, []float32{5}, "[1] [10]", "[1] [5]"},
		{false, []float32{}, "[0] []", "[0] []"},
	}
	var out payload.Multi
	for _, c := range cases {
		in := payload.Multi{Tensors: []payload.Dynamic{boolIn("c", c.cond), f32In("x", []int{len(c.x)}, c.x...)}}
		if err := mod.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
		if got := outString(t, &out, 0); got != c.y {
			t.Errorf("cond %v, x %v: y = %s, want %s", c.cond, c.x, got, c.y)
		}
		if got := outString(t, &out, 1); got != c.z {
			t.Errorf("cond %v, x %v: z = %s, want %s", c.cond, c.x, got, c.z)
		}
	}
	bad := payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf("c", payload.Tensor[bool]{Shape: []int{2}, Data: []bool{true, false}}), f32In("x", []int{1}, 1)}}
	if err := mod.InferOne(&bad, &out); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("two-element condition: %v, want ErrShapeMismatch", err)
	}
}

// steadyAllocsOf returns the allocations of a call of mod on in after
// a first call at the same shapes.
func steadyAllocsOf(tb testing.TB, mod *Model[payload.Multi, payload.Multi], in payload.Multi) float64 {
	tb.Helper()
	var out payload.Multi
	if err := mod.InferOne(&in, &out); err != nil {
		tb.Fatal(err)
	}
	return testing.AllocsPerRun(20, func() {
		if err := mod.InferOne(&in, &out); err != nil {
			tb.Fatal(err)
		}
	})
}

func TestIfSteadyAllocs(t *testing.T) {
	mod := loadMulti(t, ifModel())
	for _, cond := range []bool{true, false} {
		in := payload.Multi{Tensors: []payload.Dynamic{boolIn("c", cond), f32In("x", []int{3}, 1, 2, 3)}}
		if a := steadyAllocsOf(t, mod, in); a != 0 {
			t.Errorf("cond %v: %v allocations per call, want 0", cond, a)
		}
	}
}

// Unsupported ops inside subgraphs are reported by Check and LoadModel,
// naming the node that holds them.
func TestCheckSubgraphs(t *testing.T) {
	m := ifModel()
	then := m.Graph.Nodes[0].Attrs[0].G
	then.Nodes = append(then.Nodes, onnxbuild.Node{Name: "deep", Op: "NoSuchOp", Inputs: []string{"a"}, Outputs: []string{"unused"}})
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		t.Fatal(err)
	}
	issues := Check(art, compute.Options{})
	if len(issues) != 1 || issues[0].Node != "deep" || issues[0].Op != "NoSuchOp" {
		t.Fatalf("issues %+v, want one about deep", issues)
	}
	want := `node "choose" (If), then_branch: node "deep" (NoSuchOp)`
	if msg := issues[0].Err.Error(); !strings.Contains(msg, want) || !errors.Is(issues[0].Err, errs.Unsupported) {
		t.Errorf("issue %v, want ErrUnsupported with %q", issues[0].Err, want)
	}
	_, err = New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
	if !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), want) {
		t.Errorf("LoadModel: %v, want ErrUnsupported with %q", err, want)
	}
}
