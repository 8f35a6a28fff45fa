package cpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
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
	// deep feeds the branch's first output: a node no output depends on
	// would be removed at load, as in the main graph.
	then.Nodes = append(then.Nodes, onnxbuild.Node{Name: "deep", Op: "NoSuchOp", Inputs: []string{"a"}, Outputs: []string{"a2"}})
	then.Outputs[0] = untyped("a2")
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

// loopModel runs, while the iteration i is below M and c holds:
// (a, b) = (b, a + k), with k a value of the model, and stacks a + k and
// i; the body's condition is i < 2.
func loopModel() onnxbuild.Model {
	body := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("i", payload.Int64), onnxbuild.Input("cond_in", payload.Bool), untyped("a_in"), untyped("b_in")},
		Outputs: []onnxbuild.Value{untyped("cond_out"), untyped("b_in"), untyped("s"), untyped("s_scan"), untyped("i")},
		Nodes: []onnxbuild.Node{
			ob("Add", []string{"a_in", "k"}, []string{"s"}),
			ob("Less", []string{"i", "stop"}, []string{"cond_out"}),
			ob("Identity", []string{"s"}, []string{"s_scan"}),
		},
	}
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs: []onnxbuild.Value{onnxbuild.Input("m", payload.Int64), onnxbuild.Input("c", payload.Bool),
			onnxbuild.Input("a", payload.Float32, 2), onnxbuild.Input("b", payload.Float32, 2), onnxbuild.Input("k", payload.Float32, 2)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("af", payload.Float32, 2), onnxbuild.Input("bf", payload.Float32, 2),
			onnxbuild.Input("ss", payload.Float32, -1, 2), onnxbuild.Input("is", payload.Int64, -1)},
		Initializers: []onnxbuild.Tensor{onnxbuild.Scalar("stop", int64(2))},
		Nodes: []onnxbuild.Node{{Name: "loop", Op: "Loop", Inputs: []string{"m", "c", "a", "b"}, Outputs: []string{"af", "bf", "ss", "is"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body)}}},
	}}
}

func TestLoop(t *testing.T) {
	mod := loadMulti(t, loopModel())
	cases := []struct {
		m    int64
		c    bool
		want []string
	}{
		{10, true, []string{"[2] [110 120]", "[2] [201 202]", "[3 2] [101 102 110 120 201 202]", "[3] [0 1 2]"}},
		{2, true, []string{"[2] [101 102]", "[2] [110 120]", "[2 2] [101 102 110 120]", "[2] [0 1]"}},
		{0, true, []string{"[2] [1 2]", "[2] [10 20]", "[0 2] []", "[0] []"}},
		{-3, true, []string{"[2] [1 2]", "[2] [10 20]", "[0 2] []", "[0] []"}},
		{5, false, []string{"[2] [1 2]", "[2] [10 20]", "[0 2] []", "[0] []"}},
		{1, true, []string{"[2] [10 20]", "[2] [101 102]", "[1 2] [101 102]", "[1] [0]"}},
	}
	var out payload.Multi
	for _, c := range cases {
		in := payload.Multi{Tensors: []payload.Dynamic{i64In("m", []int{}, c.m), boolIn("c", c.c),
			f32In("a", []int{2}, 1, 2), f32In("b", []int{2}, 10, 20), f32In("k", []int{2}, 100, 100)}}
		for range 2 {
			if err := mod.InferOne(&in, &out); err != nil {
				t.Fatal(err)
			}
			for i, w := range c.want {
				if got := outString(t, &out, i); got != w {
					t.Errorf("M %d, cond %v: output %d = %s, want %s", c.m, c.c, i, got, w)
				}
			}
		}
	}
}

// A loop whose body gives its scan output a different shape in each
// iteration fails the call; one with neither M nor cond is refused.
func TestLoopBad(t *testing.T) {
	body := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("i", payload.Int64), onnxbuild.Input("cond_in", payload.Bool)},
		Outputs: []onnxbuild.Value{untyped("cond_in"), untyped("r")},
		Nodes:   []onnxbuild.Node{ob("Range", []string{"zero", "i", "one"}, []string{"r"})},
	}
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:       []onnxbuild.Value{onnxbuild.Input("m", payload.Int64)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("rs", payload.Int64, -1, -1)},
		Initializers: []onnxbuild.Tensor{onnxbuild.Scalar("zero", int64(0)), onnxbuild.Scalar("one", int64(1))},
		Nodes: []onnxbuild.Node{{Name: "loop", Op: "Loop", Inputs: []string{"m", ""}, Outputs: []string{"rs"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body)}}},
	}}
	mod := loadMulti(t, m)
	var out payload.Multi
	in := payload.Multi{Tensors: []payload.Dynamic{i64In("m", []int{}, 1)}}
	if err := mod.InferOne(&in, &out); err != nil {
		t.Fatalf("one iteration: %v", err)
	}
	in = payload.Multi{Tensors: []payload.Dynamic{i64In("m", []int{}, 3)}}
	if err := mod.InferOne(&in, &out); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("scan output growing: %v, want ErrShapeMismatch", err)
	}

	m.Graph.Nodes[0].Inputs[0] = ""
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art); !errors.Is(err, errs.Unsupported) {
		t.Errorf("endless loop: %v, want ErrUnsupported", err)
	}
}

func TestLoopSteadyAllocs(t *testing.T) {
	mod := loadMulti(t, loopModel())
	in := payload.Multi{Tensors: []payload.Dynamic{i64In("m", []int{}, 10), boolIn("c", true),
		f32In("a", []int{2}, 1, 2), f32In("b", []int{2}, 10, 20), f32In("k", []int{2}, 100, 100)}}
	if a := steadyAllocsOf(t, mod, in); a != 0 {
		t.Errorf("%v allocations per call, want 0", a)
	}
}

// scanModel9 sums the columns of x [2, 3] (scan axis 1) into s, giving
// each running sum times w (a model input) as a column of y (scan axis
// 1). dirs are scan_input_directions and scan_output_directions.
func scanModel9(inDir, outDir int64) onnxbuild.Model {
	body := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{untyped("s_in"), untyped("x_t")},
		Outputs: []onnxbuild.Value{untyped("s_out"), untyped("y_t")},
		Nodes: []onnxbuild.Node{
			ob("Add", []string{"s_in", "x_t"}, []string{"s_out"}),
			ob("Mul", []string{"s_out", "w"}, []string{"y_t"}),
		},
	}
	return onnxbuild.Model{Opset: 11, Graph: onnxbuild.Graph{
		Inputs: []onnxbuild.Value{onnxbuild.Input("s", payload.Float32, 2), onnxbuild.Input("x", payload.Float32, 2, -1),
			onnxbuild.Input("w", payload.Float32, 1)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("sf", payload.Float32, 2), onnxbuild.Input("y", payload.Float32, 2, -1)},
		Nodes: []onnxbuild.Node{{Name: "scan", Op: "Scan", Inputs: []string{"s", "x"}, Outputs: []string{"sf", "y"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body), onnxbuild.AInt("num_scan_inputs", 1),
				onnxbuild.AInts("scan_input_axes", 1), onnxbuild.AInts("scan_output_axes", -1),
				onnxbuild.AInts("scan_input_directions", inDir), onnxbuild.AInts("scan_output_directions", outDir)}}},
	}}
}

func TestScan9(t *testing.T) {
	cases := []struct {
		inDir, outDir int64
		x             []float32
		sf, y         string
	}{
		{0, 0, []float32{1, 2, 3, 10, 20, 30}, "[2] [6 60]", "[2 3] [2 6 12 20 60 120]"},
		{1, 0, []float32{1, 2, 3, 10, 20, 30}, "[2] [6 60]", "[2 3] [6 10 12 60 100 120]"},
		{0, 1, []float32{1, 2, 3, 10, 20, 30}, "[2] [6 60]", "[2 3] [12 6 2 120 60 20]"},
		{0, 0, []float32{}, "[2] [0 0]", "[2 0] []"},
	}
	var out payload.Multi
	for _, c := range cases {
		mod := loadMulti(t, scanModel9(c.inDir, c.outDir))
		in := payload.Multi{Tensors: []payload.Dynamic{f32In("s", []int{2}, 0, 0), f32In("x", []int{2, len(c.x) / 2}, c.x...), f32In("w", []int{1}, 2)}}
		if err := mod.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
		if got := outString(t, &out, 0); got != c.sf {
			t.Errorf("directions %d %d, x %v: final state %s, want %s", c.inDir, c.outDir, c.x, got, c.sf)
		}
		if got := outString(t, &out, 1); got != c.y {
			t.Errorf("directions %d %d, x %v: y %s, want %s", c.inDir, c.outDir, c.x, got, c.y)
		}
	}
}

// scanModel8 is opset 8's Scan over a batch of 2 sequences x [2, 3, 1]
// of lengths lens, summing each into its state [1].
func scanModel8(dir int64) onnxbuild.Model {
	body := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("s_in", payload.Float32, 1), onnxbuild.Input("x_t", payload.Float32, 1)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("s_out", payload.Float32, 1), onnxbuild.Input("y_t", payload.Float32, 1)},
		Nodes: []onnxbuild.Node{
			ob("Add", []string{"s_in", "x_t"}, []string{"s_out"}),
			ob("Identity", []string{"s_out"}, []string{"y_t"}),
		},
	}
	return onnxbuild.Model{Opset: 8, Graph: onnxbuild.Graph{
		Inputs: []onnxbuild.Value{onnxbuild.Input("lens", payload.Int64, 2), onnxbuild.Input("s", payload.Float32, 2, 1),
			onnxbuild.Input("x", payload.Float32, 2, 3, 1)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("sf", payload.Float32, 2, 1), onnxbuild.Input("y", payload.Float32, 2, 3, 1)},
		Nodes: []onnxbuild.Node{{Name: "scan", Op: "Scan", Inputs: []string{"lens", "s", "x"}, Outputs: []string{"sf", "y"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body), onnxbuild.AInt("num_scan_inputs", 1), onnxbuild.AInts("directions", dir)}}},
	}}
}

func TestScan8(t *testing.T) {
	cases := []struct {
		dir   int64
		lens  []int64
		sf, y string
	}{
		{0, []int64{3, 3}, "[2 1] [6 60]", "[2 3 1] [1 3 6 10 30 60]"},
		{0, []int64{3, 2}, "[2 1] [6 30]", "[2 3 1] [1 3 6 10 30 0]"},
		{1, []int64{3, 2}, "[2 1] [6 30]", "[2 3 1] [3 5 6 20 30 0]"},
		{0, []int64{0, 1}, "[2 1] [0 10]", "[2 3 1] [0 0 0 10 0 0]"},
	}
	var out payload.Multi
	for _, c := range cases {
		mod := loadMulti(t, scanModel8(c.dir))
		in := payload.Multi{Tensors: []payload.Dynamic{i64In("lens", []int{2}, c.lens...), f32In("s", []int{2, 1}, 0, 0),
			f32In("x", []int{2, 3, 1}, 1, 2, 3, 10, 20, 30)}}
		for range 2 {
			if err := mod.InferOne(&in, &out); err != nil {
				t.Fatal(err)
			}
			if got := outString(t, &out, 0); got != c.sf {
				t.Errorf("direction %d, lens %v: final state %s, want %s", c.dir, c.lens, got, c.sf)
			}
			if got := outString(t, &out, 1); got != c.y {
				t.Errorf("direction %d, lens %v: y %s, want %s", c.dir, c.lens, got, c.y)
			}
		}
	}
	mod := loadMulti(t, scanModel8(0))
	in := payload.Multi{Tensors: []payload.Dynamic{i64In("lens", []int{2}, 4, 1), f32In("s", []int{2, 1}, 0, 0),
		f32In("x", []int{2, 3, 1}, 1, 2, 3, 10, 20, 30)}}
	if err := mod.InferOne(&in, &out); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("a length past the sequence: %v, want ErrShapeMismatch", err)
	}
}

func TestScanSteadyAllocs(t *testing.T) {
	mod := loadMulti(t, scanModel9(1, 1))
	in := payload.Multi{Tensors: []payload.Dynamic{f32In("s", []int{2}, 0, 0), f32In("x", []int{2, 3}, 1, 2, 3, 4, 5, 6), f32In("w", []int{1}, 2)}}
	if a := steadyAllocsOf(t, mod, in); a != 0 {
		t.Errorf("opset 9: %v allocations per call, want 0", a)
	}
	mod8 := loadMulti(t, scanModel8(1))
	in = payload.Multi{Tensors: []payload.Dynamic{i64In("lens", []int{2}, 3, 2), f32In("s", []int{2, 1}, 0, 0),
		f32In("x", []int{2, 3, 1}, 1, 2, 3, 10, 20, 30)}}
	if a := steadyAllocsOf(t, mod8, in); a != 0 {
		t.Errorf("opset 8: %v allocations per call, want 0", a)
	}
}

// InferBatch never stacks the items of a model with an If: each item
// takes its own branch.
func TestIfBatchNotStacked(t *testing.T) {
	m := ifModel()
	m.Graph.Inputs = []onnxbuild.Value{onnxbuild.Input("c", payload.Bool, -1), onnxbuild.Input("x", payload.Float32, -1)}
	mod := loadMulti(t, m)
	if mod.prog.stackable {
		t.Fatal("a model with an If is stackable")
	}
	cond := func(v bool) payload.Dynamic {
		return payload.DynamicOf("c", payload.Tensor[bool]{Shape: []int{1}, Data: []bool{v}})
	}
	items := []payload.Multi{
		{Tensors: []payload.Dynamic{cond(true), f32In("x", []int{2}, 1, 2)}},
		{Tensors: []payload.Dynamic{cond(false), f32In("x", []int{2}, 1, 2)}},
	}
	outs := make([]payload.Multi, 2)
	if err := mod.InferBatch(batch.Of(items), outs); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"[2] [2 4]", "[2] [10 20]"} {
		if got := outString(t, &outs[i], 0); got != want {
			t.Errorf("item %d: y = %s, want %s", i, got, want)
		}
	}
}

// A Loop's stacked scan outputs are held to compute.Options.MaxTensorBytes.
func TestLoopScanLimit(t *testing.T) {
	m := loopModel()
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := New[payload.Multi, payload.Multi](compute.Options{Threads: 1, MaxTensorBytes: 20}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.Init(); err != nil {
		t.Fatal(err)
	}
	in := payload.Multi{Tensors: []payload.Dynamic{i64In("m", []int{}, 10), boolIn("c", true),
		f32In("a", []int{2}, 1, 2), f32In("b", []int{2}, 10, 20), f32In("k", []int{2}, 100, 100)}}
	var out payload.Multi
	if err := mod.InferOne(&in, &out); !errors.Is(err, errs.ResourceUnavailable) {
		t.Errorf("3 steps of 8 bytes under a 20-byte limit: %v, want ErrResourceUnavailable", err)
	}
}

// A loop that never ends stops with its call's context.
func TestLoopStopsWithContext(t *testing.T) {
	body := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("i", payload.Int64), onnxbuild.Input("cond_in", payload.Bool), untyped("v_in")},
		Outputs: []onnxbuild.Value{untyped("cond_in"), untyped("v_out")},
		Nodes:   []onnxbuild.Node{ob("Neg", []string{"v_in"}, []string{"v_out"})},
	}
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("c", payload.Bool), onnxbuild.Input("v", payload.Float32, 1)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("vf", payload.Float32, 1)},
		Nodes: []onnxbuild.Node{{Name: "forever", Op: "Loop", Inputs: []string{"", "c", "v"}, Outputs: []string{"vf"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body)}}},
	}}
	mod := loadMulti(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	in := payload.Multi{Tensors: []payload.Dynamic{boolIn("c", true), f32In("v", []int{1}, 1)}}
	var out payload.Multi
	err := mod.InferOneContext(ctx, &in, &out)
	if !errors.Is(err, errs.ExecutionFailed) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want ErrExecutionFailed and DeadlineExceeded", err)
	}
	// The model still runs afterwards.
	in = payload.Multi{Tensors: []payload.Dynamic{boolIn("c", false), f32In("v", []int{1}, 1)}}
	if err := mod.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	if got := outString(t, &out, 0); got != "[1] [1]" {
		t.Errorf("no iteration: %s, want [1] [1]", got)
	}
}
