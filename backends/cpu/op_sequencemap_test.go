package cpu

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// seqMapModel returns a model whose SequenceMap adds the elements of two
// sequences and a tensor, scaled by a captured value, and gives each
// sum's shape as a second sequence.
func seqMapModel() onnxbuild.Model {
	body := onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			{Name: "a", DType: payload.Float32, NoShape: true},
			{Name: "b", DType: payload.Float32, NoShape: true},
			{Name: "t", DType: payload.Float32, NoShape: true},
		},
		Outputs: []onnxbuild.Value{
			{Name: "y", DType: payload.Float32, NoShape: true},
			{Name: "shape", DType: payload.Int64, Shape: []int64{1}},
		},
		Nodes: []onnxbuild.Node{
			{Op: "Add", Inputs: []string{"a", "b"}, Outputs: []string{"ab"}},
			{Op: "Add", Inputs: []string{"ab", "t"}, Outputs: []string{"abt"}},
			{Op: "Mul", Inputs: []string{"abt", "k"}, Outputs: []string{"y"}},
			{Op: "Shape", Inputs: []string{"y"}, Outputs: []string{"shape"}},
		},
	}
	g := onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			{Name: "s", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
			{Name: "u", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
			onnxbuild.Input("t", payload.Float32, 1),
			onnxbuild.Input("k", payload.Float32, 1),
		},
		Outputs: []onnxbuild.Value{
			{Name: "ys", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
			{Name: "shapes", DType: payload.Int64, NoShape: true, Kind: "tensor sequence"},
		},
		Nodes: []onnxbuild.Node{
			{Name: "map", Op: "SequenceMap", Inputs: []string{"s", "u", "t"}, Outputs: []string{"ys", "shapes"}, Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body)}},
		},
	}
	return onnxbuild.Model{Opset: 17, Graph: g}
}

// f32Seq returns a sequence input named name of float tensors of 1-D
// elems.
func f32Seq(name string, elems ...[]float32) payload.Dynamic {
	d := payload.Dynamic{Name: name, Items: []payload.Dynamic{}}
	for _, e := range elems {
		d.Items = append(d.Items, payload.DynamicOf("", payload.Tensor[float32]{Shape: []int{len(e)}, Data: e}))
	}
	return d
}

func TestSequenceMapModel(t *testing.T) {
	m := loadMulti(t, seqMapModel())
	t1 := payload.DynamicOf("t", payload.Tensor[float32]{Shape: []int{1}, Data: []float32{10}})
	k := payload.DynamicOf("k", payload.Tensor[float32]{Shape: []int{1}, Data: []float32{2}})
	cases := []struct {
		name   string
		s, u   [][]float32
		want   [][]float32
		shapes [][]int64
	}{
		{"two elements", [][]float32{{1, 2}, {3}}, [][]float32{{4, 5}, {6}}, [][]float32{{30, 34}, {38}}, [][]int64{{2}, {1}}},
		{"three elements", [][]float32{{1}, {2}, {3, 4, 5}}, [][]float32{{0}, {0}, {1, 1, 1}}, [][]float32{{22}, {24}, {28, 30, 32}}, [][]int64{{1}, {1}, {3}}},
		{"empty", nil, nil, nil, nil},
	}
	var out payload.Multi
	for _, c := range cases {
		feed := &payload.Multi{Tensors: []payload.Dynamic{f32Seq("s", c.s...), f32Seq("u", c.u...), t1, k}}
		if err := m.InferOne(feed, &out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ys, shapes := out.Tensors[0].Items, out.Tensors[1].Items
		if len(ys) != len(c.want) || len(shapes) != len(c.want) {
			t.Fatalf("%s: got sequences of %d and %d tensors, want %d", c.name, len(ys), len(shapes), len(c.want))
		}
		for i := range ys {
			y, _ := payload.Typed[float32](ys[i])
			sh, _ := payload.Typed[int64](shapes[i])
			if !slices.Equal(y.Data, c.want[i]) || !slices.Equal(sh.Data, c.shapes[i]) {
				t.Errorf("%s: element %d: got %v with shape %v, want %v with %v", c.name, i, y.Data, sh.Data, c.want[i], c.shapes[i])
			}
		}
	}
	feed := &payload.Multi{Tensors: []payload.Dynamic{f32Seq("s", cases[0].s...), f32Seq("u", cases[0].u...), t1, k}}
	if err := m.InferOne(feed, &out); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = m.InferOne(feed, &out) }); n != 0 {
		t.Errorf("steady state: got %v allocations per call, want 0", n)
	}
	bad := &payload.Multi{Tensors: []payload.Dynamic{f32Seq("s", []float32{1}), f32Seq("u", []float32{1}, []float32{2}), t1, k}}
	if err := m.InferOne(bad, &out); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("sequences of different lengths: got %v, want ErrShapeMismatch", err)
	}
}
