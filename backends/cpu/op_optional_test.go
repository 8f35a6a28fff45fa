package cpu

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestOptionalHasElement(t *testing.T) {
	x := mk([]int{2}, []float32{1, 2})
	cases := []struct {
		name  string
		in    []string
		ins   []*tensor
		opset int64
		want  bool
	}{
		{"tensor", []string{"x"}, []*tensor{x}, 18, true},
		{"no input", nil, nil, 18, false},
		{"empty input name", []string{""}, []*tensor{nil}, 18, false},
		{"tensor at 15", []string{"x"}, []*tensor{x}, 15, true},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("OptionalHasElement", c.in), opset: c.opset, outTypes: []payload.DType{payload.Bool}}, c.ins...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := outs[0].bools(); len(outs[0].shape) != 0 || len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: got %v of shape %v, want [%v] of shape []", c.name, got, outs[0].shape, c.want)
		}
	}
}

func TestOptionalGetElement(t *testing.T) {
	x := mk([]int{2, 2}, []int32{1, 2, 3, 4})
	for _, op := range []string{"OptionalGetElement", "Optional"} {
		outs, err := runNode(t, nodeCase{node: node(op, []string{"x"}), opset: 18, outTypes: []payload.DType{payload.Int32}}, x)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if got := outs[0].i32(); !sameShape(outs[0].shape, []int{2, 2}) || len(got) != 4 || got[3] != 4 {
			t.Errorf("%s: got %v of shape %v, want [1 2 3 4] of shape [2 2]", op, got, outs[0].shape)
		}
	}
	if _, err := runNode(t, nodeCase{node: node("Optional", nil, model.Attr{Name: "type", Type: model.AttrInt}), opset: 18}); !errors.Is(err, compute.ErrInvalidArtifact) {
		t.Errorf("Optional with an int type attribute: got %v, want ErrInvalidArtifact", err)
	}
	if _, err := runNode(t, nodeCase{node: node("Optional", nil), opset: 18}); !errors.Is(err, compute.ErrInvalidArtifact) {
		t.Errorf("Optional with no input and no type: got %v, want ErrInvalidArtifact", err)
	}
}

// TestOptionalEmpty runs Optional with no input, typed by its type
// attribute, for an optional tensor and an optional sequence, and
// Optional with an input whose type attribute agrees.
func TestOptionalEmpty(t *testing.T) {
	f32 := onnxbuild.Value{DType: payload.Float32, Shape: []int64{5}}
	seq := onnxbuild.Value{DType: payload.Float32, Shape: []int64{5}, Kind: "tensor sequence"}
	g := onnxbuild.Graph{
		Inputs: []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 2)},
		Outputs: []onnxbuild.Value{
			{Name: "ot", DType: payload.Float32, NoShape: true, Kind: "optional tensor"},
			{Name: "os", DType: payload.Float32, NoShape: true, Kind: "optional tensor sequence"},
			{Name: "ht", DType: payload.Bool, Shape: []int64{}},
			{Name: "hs", DType: payload.Bool, Shape: []int64{}},
			{Name: "ox", DType: payload.Float32, NoShape: true, Kind: "optional tensor"},
		},
		Nodes: []onnxbuild.Node{
			{Op: "Optional", Outputs: []string{"ot"}, Attrs: []onnxbuild.Attr{onnxbuild.AType("type", f32)}},
			{Op: "Optional", Outputs: []string{"os"}, Attrs: []onnxbuild.Attr{onnxbuild.AType("type", seq)}},
			{Op: "OptionalHasElement", Inputs: []string{"ot"}, Outputs: []string{"ht"}},
			{Op: "OptionalHasElement", Inputs: []string{"os"}, Outputs: []string{"hs"}},
			{Op: "Optional", Inputs: []string{"x"}, Outputs: []string{"ox"}, Attrs: []onnxbuild.Attr{onnxbuild.AType("type", f32)}},
		},
	}
	m := loadMulti(t, onnxbuild.Model{Opset: 18, Graph: g})
	feed := &payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{2}, Data: []float32{1, 2}})}}
	var out payload.Multi
	if err := m.InferOne(feed, &out); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"ot", "os"} {
		if d := out.Tensors[i]; d.DType != payload.Undefined || d.Items != nil {
			t.Errorf("%s: got %+v, want an empty optional", name, d)
		}
	}
	for i, name := range []string{"ht", "hs"} {
		if h, _ := payload.Typed[bool](out.Tensors[2+i]); len(h.Data) != 1 || h.Data[0] {
			t.Errorf("%s: got %v, want [false]", name, h.Data)
		}
	}
	if x, _ := payload.Typed[float32](out.Tensors[4]); !slices.Equal(x.Data, []float32{1, 2}) {
		t.Errorf("ox: got %v, want [1 2]", x.Data)
	}
	if n := testing.AllocsPerRun(20, func() { _ = m.InferOne(feed, &out) }); n != 0 {
		t.Errorf("steady state: got %v allocations per call, want 0", n)
	}
}

// TestOptionalTypeErrors checks that a type attribute that disagrees
// with the input, or is no element type of an optional, fails the load.
func TestOptionalTypeErrors(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		tp   onnxbuild.Value
	}{
		{"element type", []string{"x"}, onnxbuild.Value{DType: payload.Int64, Shape: []int64{2}}},
		{"kind", []string{"x"}, onnxbuild.Value{DType: payload.Float32, Kind: "tensor sequence"}},
		{"optional element", nil, onnxbuild.Value{DType: payload.Float32, Kind: "optional tensor"}},
		{"no element type", nil, onnxbuild.Value{}},
	}
	for _, c := range cases {
		g := onnxbuild.Graph{
			Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 2)},
			Outputs: []onnxbuild.Value{{Name: "o", DType: payload.Float32, NoShape: true, Kind: "optional tensor"}},
			Nodes:   []onnxbuild.Node{{Op: "Optional", Inputs: c.in, Outputs: []string{"o"}, Attrs: []onnxbuild.Attr{onnxbuild.AType("type", c.tp)}}},
		}
		mb := onnxbuild.Model{Opset: 18, Graph: g}
		art, err := artifacts.FromBytes(mb.Encode(), "m.onnx")
		if err == nil {
			_, err = New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
		}
		if !errors.Is(err, compute.ErrInvalidArtifact) {
			t.Errorf("%s: got %v, want ErrInvalidArtifact", c.name, err)
		}
	}
}

func TestOptionalHasElementAllocs(t *testing.T) {
	out := []*tensor{{dt: payload.Bool, data: alignedBytes(1)}}
	in := []*tensor{mk([]int{1}, []float32{1})}
	k := optionalHasKernel{}
	if n := testing.AllocsPerRun(100, func() { _ = k.run(in, out) }); n != 0 {
		t.Errorf("got %v allocations per run, want 0", n)
	}
}
