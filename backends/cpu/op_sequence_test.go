package cpu

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// seqOf returns a sequence value holding copies of ts.
func seqOf(dt payload.DType, ts ...*tensor) *tensor {
	s := &tensor{dt: dt, seq: true}
	s.setLen(len(ts))
	for i, t := range ts {
		s.items[i].copyFrom(t)
	}
	return s
}

// runSeq runs k as the executor does: shape, size the output, run.
func runSeq(k *seqKernel, out *tensor, ins ...*tensor) error {
	if err := k.shape(ins, []*tensor{out}); err != nil {
		return err
	}
	out.data = alignedBytes(out.numel() * out.dt.Size())
	return k.run(ins, []*tensor{out})
}

// f32Items returns the elements' shapes and values.
func f32Items(s *tensor) (shapes [][]int, vals [][]float32) {
	for _, it := range s.items {
		shapes = append(shapes, slices.Clone(it.shape))
		vals = append(vals, slices.Clone(it.f32()))
	}
	return shapes, vals
}

func TestSequenceKernels(t *testing.T) {
	a := mk([]int{2}, []float32{1, 2})
	b := mk([]int{1}, []float32{3})
	c := mk([]int{3}, []float32{4, 5, 6})
	x := mk([]int{3, 2}, []float32{1, 2, 3, 4, 5, 6})
	i64s := func(v int64) *tensor { return mk([]int{}, []int64{v}) }
	cases := []struct {
		name   string
		k      *seqKernel
		ins    []*tensor
		shapes [][]int
		vals   [][]float32
	}{
		{"construct", &seqKernel{op: "SequenceConstruct"}, []*tensor{a, b}, [][]int{{2}, {1}}, [][]float32{{1, 2}, {3}}},
		{"empty", &seqKernel{op: "SequenceEmpty"}, nil, nil, nil},
		{"insert at the back", &seqKernel{op: "SequenceInsert"}, []*tensor{seqOf(payload.Float32, a, b), c}, [][]int{{2}, {1}, {3}}, [][]float32{{1, 2}, {3}, {4, 5, 6}}},
		{"insert at the front", &seqKernel{op: "SequenceInsert"}, []*tensor{seqOf(payload.Float32, a, b), c, i64s(0)}, [][]int{{3}, {2}, {1}}, [][]float32{{4, 5, 6}, {1, 2}, {3}}},
		{"insert at -1", &seqKernel{op: "SequenceInsert"}, []*tensor{seqOf(payload.Float32, a, b), c, i64s(-1)}, [][]int{{2}, {3}, {1}}, [][]float32{{1, 2}, {4, 5, 6}, {3}}},
		{"erase the last", &seqKernel{op: "SequenceErase"}, []*tensor{seqOf(payload.Float32, a, b, c)}, [][]int{{2}, {1}}, [][]float32{{1, 2}, {3}}},
		{"erase the first", &seqKernel{op: "SequenceErase"}, []*tensor{seqOf(payload.Float32, a, b, c), i64s(0)}, [][]int{{1}, {3}}, [][]float32{{3}, {4, 5, 6}}},
		{"split by 2 on axis 0", &seqKernel{op: "SplitToSequence", keep: true}, []*tensor{x, i64s(2)}, [][]int{{2, 2}, {1, 2}}, [][]float32{{1, 2, 3, 4}, {5, 6}}},
		{"split [1 2] on axis 0", &seqKernel{op: "SplitToSequence", keep: true}, []*tensor{x, mk([]int{2}, []int64{1, 2})}, [][]int{{1, 2}, {2, 2}}, [][]float32{{1, 2}, {3, 4, 5, 6}}},
		{"split axis 1 without keepdims", &seqKernel{op: "SplitToSequence", axis: 1}, []*tensor{x}, [][]int{{3}, {3}}, [][]float32{{1, 3, 5}, {2, 4, 6}}},
		{"split axis -1 keeping dims", &seqKernel{op: "SplitToSequence", axis: -1, keep: true}, []*tensor{x}, [][]int{{3, 1}, {3, 1}}, [][]float32{{1, 3, 5}, {2, 4, 6}}},
		{"copy a sequence", &seqKernel{op: "copy"}, []*tensor{seqOf(payload.Float32, b)}, [][]int{{1}}, [][]float32{{3}}},
	}
	for _, tc := range cases {
		tc.k.n = node("Seq", nil)
		out := &tensor{dt: payload.Float32, seq: true}
		if err := runSeq(tc.k, out, tc.ins...); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		shapes, vals := f32Items(out)
		if len(out.items) != len(tc.shapes) || !slices.EqualFunc(shapes, tc.shapes, slices.Equal) || !slices.EqualFunc(vals, tc.vals, slices.Equal) {
			t.Errorf("%s: got shapes %v values %v, want %v %v", tc.name, shapes, vals, tc.shapes, tc.vals)
		}
	}
}

func TestSequenceToTensorKernels(t *testing.T) {
	s := seqOf(payload.Float32, mk([]int{2, 1}, []float32{1, 2}), mk([]int{2, 2}, []float32{3, 4, 5, 6}))
	same := seqOf(payload.Float32, mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float32{3, 4}))
	cases := []struct {
		name  string
		k     *seqKernel
		ins   []*tensor
		dt    payload.DType
		shape []int
		want  []float32 // or the int64 value for SequenceLength
		n     int64
	}{
		{"at 1", &seqKernel{op: "SequenceAt"}, []*tensor{s, mk([]int{}, []int64{1})}, payload.Float32, []int{2, 2}, []float32{3, 4, 5, 6}, 0},
		{"at -2", &seqKernel{op: "SequenceAt"}, []*tensor{s, mk([]int{}, []int32{-2})}, payload.Float32, []int{2, 1}, []float32{1, 2}, 0},
		{"length", &seqKernel{op: "SequenceLength"}, []*tensor{s}, payload.Int64, []int{}, nil, 2},
		{"concat on axis 1", &seqKernel{op: "ConcatFromSequence", axis: 1}, []*tensor{s}, payload.Float32, []int{2, 3}, []float32{1, 3, 4, 2, 5, 6}, 0},
		{"stack on a new axis 1", &seqKernel{op: "ConcatFromSequence", axis: 1, newAxis: true}, []*tensor{same}, payload.Float32, []int{2, 2}, []float32{1, 3, 2, 4}, 0},
		{"stack on a new last axis -1", &seqKernel{op: "ConcatFromSequence", axis: -1, newAxis: true}, []*tensor{same}, payload.Float32, []int{2, 2}, []float32{1, 3, 2, 4}, 0},
		{"stack on a new axis 0", &seqKernel{op: "ConcatFromSequence", newAxis: true}, []*tensor{same}, payload.Float32, []int{2, 2}, []float32{1, 2, 3, 4}, 0},
		{"get from an optional tensor", &seqKernel{op: "get"}, []*tensor{mk([]int{2}, []float32{7, 8})}, payload.Float32, []int{2}, []float32{7, 8}, 0},
	}
	for _, tc := range cases {
		tc.k.n = node("Seq", nil)
		out := &tensor{dt: tc.dt}
		if err := runSeq(tc.k, out, tc.ins...); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.Equal(out.shape, tc.shape) {
			t.Errorf("%s: got shape %v, want %v", tc.name, out.shape, tc.shape)
		}
		if tc.dt == payload.Int64 {
			if got := out.i64()[0]; got != tc.n {
				t.Errorf("%s: got %d, want %d", tc.name, got, tc.n)
			}
		} else if got := out.f32(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSequenceKernelErrors(t *testing.T) {
	s := seqOf(payload.Float32, mk([]int{2}, []float32{1, 2}), mk([]int{3}, []float32{3, 4, 5}))
	pos := func(v int64) *tensor { return mk([]int{}, []int64{v}) }
	cases := []struct {
		name string
		k    *seqKernel
		ins  []*tensor
	}{
		{"at out of range", &seqKernel{op: "SequenceAt"}, []*tensor{s, pos(2)}},
		{"at below range", &seqKernel{op: "SequenceAt"}, []*tensor{s, pos(-3)}},
		{"insert past the end", &seqKernel{op: "SequenceInsert"}, []*tensor{s, mk([]int{1}, []float32{0}), pos(3)}},
		{"insert of another type", &seqKernel{op: "SequenceInsert"}, []*tensor{s, mk([]int{1}, []int64{0})}},
		{"erase past the end", &seqKernel{op: "SequenceErase"}, []*tensor{s, pos(2)}},
		{"erase from empty", &seqKernel{op: "SequenceErase"}, []*tensor{seqOf(payload.Float32)}},
		{"concat of mismatched shapes", &seqKernel{op: "ConcatFromSequence", newAxis: true}, []*tensor{s}},
		{"concat of empty", &seqKernel{op: "ConcatFromSequence"}, []*tensor{seqOf(payload.Float32)}},
		{"concat bad axis", &seqKernel{op: "ConcatFromSequence", axis: 1}, []*tensor{s}},
		{"split bad axis", &seqKernel{op: "SplitToSequence", axis: 2}, []*tensor{mk([]int{2}, []float32{1, 2})}},
		{"split not summing", &seqKernel{op: "SplitToSequence"}, []*tensor{mk([]int{2}, []float32{1, 2}), mk([]int{1}, []int64{1})}},
		{"split of 0", &seqKernel{op: "SplitToSequence"}, []*tensor{mk([]int{2}, []float32{1, 2}), pos(0)}},
		{"get from none", &seqKernel{op: "get"}, []*tensor{{dt: payload.Float32, none: true}}},
	}
	for _, tc := range cases {
		tc.k.n = node("Seq", nil)
		err := runSeq(tc.k, &tensor{dt: payload.Float32, seq: true}, tc.ins...)
		if !errors.Is(err, compute.ErrShapeMismatch) {
			t.Errorf("%s: got %v, want an error wrapping ErrShapeMismatch", tc.name, err)
		}
	}
}

func TestOptionalNone(t *testing.T) {
	none := &tensor{dt: payload.Float32, none: true}
	out := &tensor{dt: payload.Float32}
	if err := runSeq(&seqKernel{n: node("Identity", nil), op: "copy"}, out, none); err != nil || !out.none {
		t.Errorf("copy of none: got none %v, error %v; want none, no error", out.none, err)
	}
	has := []*tensor{{dt: payload.Bool, data: alignedBytes(1)}}
	if err := (optionalHasKernel{}).run([]*tensor{none}, has); err != nil || has[0].bools()[0] {
		t.Errorf("has element of none: got %v, %v; want false", has[0].bools(), err)
	}
}

func TestSequenceSteadyStateAllocs(t *testing.T) {
	s := seqOf(payload.Float32, mk([]int{2}, []float32{1, 2}), mk([]int{3}, []float32{3, 4, 5}))
	x := mk([]int{3, 2}, []float32{1, 2, 3, 4, 5, 6})
	cases := []struct {
		name string
		k    *seqKernel
		ins  []*tensor
		out  *tensor
	}{
		{"insert", &seqKernel{op: "SequenceInsert"}, []*tensor{s, mk([]int{1}, []float32{0})}, &tensor{dt: payload.Float32, seq: true}},
		{"split", &seqKernel{op: "SplitToSequence", axis: 1}, []*tensor{x}, &tensor{dt: payload.Float32, seq: true}},
		{"construct", &seqKernel{op: "SequenceConstruct"}, []*tensor{x, x}, &tensor{dt: payload.Float32, seq: true}},
	}
	for _, tc := range cases {
		tc.k.n = node("Seq", nil)
		outs := []*tensor{tc.out}
		if err := runSeq(tc.k, tc.out, tc.ins...); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n := testing.AllocsPerRun(50, func() {
			_ = tc.k.shape(tc.ins, outs)
			_ = tc.k.run(tc.ins, outs)
		}); n != 0 {
			t.Errorf("%s: got %v allocations per call, want 0", tc.name, n)
		}
	}
}

// TestSequenceModel runs a graph that inserts into a sequence, and feeds
// and reads sequences and optionals through payload.Multi.
func TestSequenceModel(t *testing.T) {
	g := onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			{Name: "s", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
			onnxbuild.Input("x", payload.Float32, 2),
			{Name: "o", DType: payload.Float32, NoShape: true, Kind: "optional tensor"},
		},
		Outputs: []onnxbuild.Value{
			{Name: "s2", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
			{Name: "n", DType: payload.Int64, Shape: []int64{}},
			{Name: "cat", DType: payload.Float32, NoShape: true},
			{Name: "has", DType: payload.Bool, Shape: []int64{}},
			{Name: "o2", DType: payload.Float32, NoShape: true, Kind: "optional tensor"},
		},
		Nodes: []onnxbuild.Node{
			{Name: "ins", Op: "SequenceInsert", Inputs: []string{"s", "x"}, Outputs: []string{"s2"}},
			{Name: "len", Op: "SequenceLength", Inputs: []string{"s2"}, Outputs: []string{"n"}},
			{Name: "cat", Op: "ConcatFromSequence", Inputs: []string{"s2"}, Outputs: []string{"cat"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 0)}},
			{Name: "has", Op: "OptionalHasElement", Inputs: []string{"o"}, Outputs: []string{"has"}},
			{Name: "id", Op: "Identity", Inputs: []string{"o"}, Outputs: []string{"o2"}},
		},
	}
	mb := onnxbuild.Model{Opset: 18, Graph: g}
	m := loadMulti(t, mb)
	elem := payload.DynamicOf("", payload.Tensor[float32]{Shape: []int{1}, Data: []float32{9}})
	x := payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{2}, Data: []float32{1, 2}})
	cases := []struct {
		name string
		o    payload.Dynamic
		has  bool
	}{
		{"none", payload.Dynamic{Name: "o"}, false},
		{"an element", payload.DynamicOf("o", payload.Tensor[float32]{Shape: []int{1}, Data: []float32{5}}), true},
	}
	var out payload.Multi
	for _, c := range cases {
		feed := &payload.Multi{Tensors: []payload.Dynamic{{Name: "s", Items: []payload.Dynamic{elem}}, x, c.o}}
		if err := m.InferOne(feed, &out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := len(out.Tensors[0].Items); got != 2 {
			t.Fatalf("%s: got a sequence of %d tensors, want 2", c.name, got)
		}
		n, _ := payload.Typed[int64](out.Tensors[1])
		cat, _ := payload.Typed[float32](out.Tensors[2])
		has, _ := payload.Typed[bool](out.Tensors[3])
		if len(n.Data) != 1 || n.Data[0] != 2 || !slices.Equal(cat.Data, []float32{9, 1, 2}) || len(has.Data) != 1 || has.Data[0] != c.has {
			t.Errorf("%s: got length %v, concatenation %v, has %v; want [2], [9 1 2], [%v]", c.name, n.Data, cat.Data, has.Data, c.has)
		}
		if none := out.Tensors[4].DType == payload.Undefined; none == c.has {
			t.Errorf("%s: optional output is none: %v, want %v", c.name, none, !c.has)
		}
	}
	feed := &payload.Multi{Tensors: []payload.Dynamic{{Name: "s", Items: []payload.Dynamic{elem}}, x, cases[1].o}}
	if n := testing.AllocsPerRun(20, func() { _ = m.InferOne(feed, &out) }); n != 0 {
		t.Errorf("steady state: got %v allocations per call, want 0", n)
	}
	bad := &payload.Multi{Tensors: []payload.Dynamic{x, x, cases[1].o}}
	bad.Tensors[0].Name = "s"
	if err := m.InferOne(bad, &out); !errors.Is(err, compute.ErrTypeMismatch) {
		t.Errorf("a tensor for a sequence input: got %v, want ErrTypeMismatch", err)
	}
	art, err := artifacts.FromBytes(mb.Encode(), "m.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New[payload.Tensor[float32], payload.Multi](compute.Options{Threads: 1}).LoadModel(art); err == nil {
		t.Error("sequence inputs through payload.Tensor: got no error, want a refusal")
	}
}

// TestLoopCarriesSequence runs a Loop whose body appends x to a carried
// sequence three times.
func TestLoopCarriesSequence(t *testing.T) {
	body := onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			onnxbuild.Input("i", payload.Int64),
			onnxbuild.Input("c", payload.Bool),
			{Name: "s_in", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
		},
		Outputs: []onnxbuild.Value{
			onnxbuild.Input("c_out", payload.Bool),
			{Name: "s_out", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"},
		},
		Nodes: []onnxbuild.Node{
			{Op: "Identity", Inputs: []string{"c"}, Outputs: []string{"c_out"}},
			{Op: "SequenceInsert", Inputs: []string{"s_in", "x"}, Outputs: []string{"s_out"}},
		},
	}
	g := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("m", payload.Int64), onnxbuild.Input("x", payload.Float32, 2)},
		Outputs: []onnxbuild.Value{{Name: "n", DType: payload.Int64, Shape: []int64{}}, {Name: "cat", DType: payload.Float32, NoShape: true}},
		Nodes: []onnxbuild.Node{
			{Op: "SequenceEmpty", Outputs: []string{"s0"}},
			{Op: "Loop", Inputs: []string{"m", "", "s0"}, Outputs: []string{"s"}, Attrs: []onnxbuild.Attr{onnxbuild.AGraph("body", body)}},
			{Op: "SequenceLength", Inputs: []string{"s"}, Outputs: []string{"n"}},
			{Op: "ConcatFromSequence", Inputs: []string{"s"}, Outputs: []string{"cat"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 0)}},
		},
	}
	m := loadMulti(t, onnxbuild.Model{Opset: 18, Graph: g})
	feed := &payload.Multi{Tensors: []payload.Dynamic{
		payload.DynamicOf("m", payload.Tensor[int64]{Shape: []int{}, Data: []int64{3}}),
		payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{2}, Data: []float32{1, 2}}),
	}}
	var out payload.Multi
	if err := m.InferOne(feed, &out); err != nil {
		t.Fatal(err)
	}
	n, _ := payload.Typed[int64](out.Tensors[0])
	cat, _ := payload.Typed[float32](out.Tensors[1])
	if len(n.Data) != 1 || n.Data[0] != 3 || !slices.Equal(cat.Data, []float32{1, 2, 1, 2, 1, 2}) {
		t.Errorf("got length %v and concatenation %v, want [3] and [1 2 1 2 1 2]", n.Data, cat.Data)
	}
}
