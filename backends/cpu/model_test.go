package cpu_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

type f32 = payload.Tensor[float32]

func randSlice(r *rand.Rand, n int, scale float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = (r.Float32()*2 - 1) * scale
	}
	return s
}

// mlp returns a 784-512-512-10 MLP in the MatMul+Add form exporters emit,
// with a free batch dimension.
func mlp(r *rand.Rand) []byte {
	dims := []int64{784, 512, 512, 10}
	g := onnxbuild.Graph{
		Name:    "mlp",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 784)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
	}
	prev := "x"
	for l := 0; l < 3; l++ {
		w, b := "w"+string(rune('0'+l)), "b"+string(rune('0'+l))
		g.Initializers = append(g.Initializers,
			onnxbuild.TensorOf(w, []int64{dims[l], dims[l+1]}, randSlice(r, int(dims[l]*dims[l+1]), 0.05)),
			onnxbuild.TensorOf(b, []int64{dims[l+1]}, randSlice(r, int(dims[l+1]), 0.1)))
		mm, add, act := "mm"+w, "add"+w, "relu"+w
		g.Nodes = append(g.Nodes,
			onnxbuild.Node{Op: "MatMul", Inputs: []string{prev, w}, Outputs: []string{mm}},
			onnxbuild.Node{Op: "Add", Inputs: []string{mm, b}, Outputs: []string{add}})
		prev = add
		if l < 2 {
			g.Nodes = append(g.Nodes, onnxbuild.Node{Op: "Relu", Inputs: []string{add}, Outputs: []string{act}})
			prev = act
		}
	}
	g.Nodes[len(g.Nodes)-1].Outputs = []string{"y"}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

func loadMLP(t testing.TB) *cpu.Model[f32, f32] {
	t.Helper()
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(1, 2))), "mlp")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cpu.New[f32, f32](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInferOneAllocatesNothing(t *testing.T) {
	m := loadMLP(t)
	defer m.Close()
	r := rand.New(rand.NewPCG(3, 4))
	in := f32{Shape: []int{1, 784}, Data: randSlice(r, 784, 1)}
	var out f32
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(50, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Fatalf("InferOne allocates %v times per call, want 0", got)
	}
}

func TestInferBatchAllocatesNothing(t *testing.T) {
	m := loadMLP(t)
	defer m.Close()
	r := rand.New(rand.NewPCG(5, 6))
	ins := make([]f32, 16)
	for i := range ins {
		ins[i] = f32{Shape: []int{1, 784}, Data: randSlice(r, 784, 1)}
	}
	outs := make([]f32, 16)
	if err := m.InferBatch(batch.Of(ins), outs); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(20, func() {
		if err := m.InferBatch(batch.Of(ins), outs); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Fatalf("InferBatch(16) allocates %v times per call, want 0", got)
	}
}

// TestInferBatchMatchesInferOne checks that every batch item gets exactly
// what InferOne gives, and that a batched (N×784) input gives the same rows.
func TestInferBatchMatchesInferOne(t *testing.T) {
	m := loadMLP(t)
	defer m.Close()
	r := rand.New(rand.NewPCG(7, 8))
	const n = 9
	ins := make([]f32, n)
	stacked := f32{Shape: []int{n, 784}}
	for i := range ins {
		ins[i] = f32{Shape: []int{1, 784}, Data: randSlice(r, 784, 1)}
		stacked.Data = append(stacked.Data, ins[i].Data...)
	}
	outs := make([]f32, n)
	if err := m.InferBatch(batch.Of(ins), outs); err != nil {
		t.Fatal(err)
	}
	var big f32
	if err := m.InferOne(&stacked, &big); err != nil {
		t.Fatal(err)
	}
	for i := range ins {
		var one f32
		if err := m.InferOne(&ins[i], &one); err != nil {
			t.Fatal(err)
		}
		if len(outs[i].Shape) != 2 || outs[i].Shape[0] != 1 || outs[i].Shape[1] != 10 {
			t.Fatalf("item %d: shape %v", i, outs[i].Shape)
		}
		for j := range one.Data {
			if one.Data[j] != outs[i].Data[j] {
				t.Fatalf("item %d elem %d: batch %v, one %v", i, j, outs[i].Data[j], one.Data[j])
			}
			if d := math.Abs(float64(one.Data[j] - big.Data[i*10+j])); d > 1e-5 {
				t.Fatalf("item %d elem %d: stacked %v, one %v", i, j, big.Data[i*10+j], one.Data[j])
			}
		}
	}
}

func TestLifecycleErrors(t *testing.T) {
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(1, 2))), "mlp")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cpu.New[f32, f32](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	in := f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
	var out f32
	if err := m.InferOne(&in, &out); !errors.Is(err, compute.ErrNotInitialized) {
		t.Fatalf("before Init: %v", err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   f32
	}{
		{"rank", f32{Shape: []int{784}, Data: make([]float32, 784)}},
		{"dim", f32{Shape: []int{1, 783}, Data: make([]float32, 783)}},
		{"length", f32{Shape: []int{1, 784}, Data: make([]float32, 700)}},
		{"negative", f32{Shape: []int{-1, 784}, Data: make([]float32, 784)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := m.InferOne(&c.in, &out); !errors.Is(err, compute.ErrShapeMismatch) {
				t.Fatalf("got %v, want ErrShapeMismatch", err)
			}
		})
	}
	if err := m.InferBatch(batch.Of([]f32{in}), nil); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("short outs: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.InferOne(&in, &out); !errors.Is(err, compute.ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	var nilModel *cpu.Model[f32, f32]
	if err := nilModel.InferOne(&in, &out); err == nil {
		t.Fatal("nil model: no error")
	}
}

func TestPayloadTypeChecked(t *testing.T) {
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(1, 2))), "mlp")
	if err != nil {
		t.Fatal(err)
	}
	_, err = cpu.New[payload.Tensor[int64], f32](compute.Options{}).LoadModel(art)
	if !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("int64 payload for a float32 input: %v", err)
	}
}

// TestMultiTensorPayload runs a model with a float32 and an int64 input and
// two outputs of different types through payload.Multi.
func TestMultiTensorPayload(t *testing.T) {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			onnxbuild.Input("feats", payload.Float32, -1, 4),
			onnxbuild.Input("ids", payload.Int64, -1),
		},
		Outputs: []onnxbuild.Value{
			onnxbuild.Input("scaled", payload.Float32, -1, 4),
			onnxbuild.Input("next", payload.Int64, -1),
		},
		Initializers: []onnxbuild.Tensor{
			onnxbuild.Scalar("two", float32(2)),
			onnxbuild.Scalar("one", int64(1)),
		},
		Nodes: []onnxbuild.Node{
			{Op: "Mul", Inputs: []string{"feats", "two"}, Outputs: []string{"scaled"}},
			{Op: "Add", Inputs: []string{"ids", "one"}, Outputs: []string{"next"}},
		},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "multi")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := cpu.New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.Init(); err != nil {
		t.Fatal(err)
	}
	md := mod.Metadata()
	if len(md.Inputs) != 2 || md.Inputs[1].DType != payload.Int64 || md.Inputs[0].Shape[0] != -1 {
		t.Fatalf("metadata inputs %+v", md.Inputs)
	}
	feats := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	ids := []int64{10, 20}
	// Named entries in any order.
	in := payload.Multi{Tensors: []payload.Dynamic{
		payload.DynamicOf("ids", payload.Tensor[int64]{Shape: []int{2}, Data: ids}),
		payload.DynamicOf("feats", payload.Tensor[float32]{Shape: []int{2, 4}, Data: feats}),
	}}
	var out payload.Multi
	if err := mod.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Tensors) != 2 || out.Tensors[0].Name != "scaled" || out.Tensors[1].Name != "next" {
		t.Fatalf("outputs %+v", out.Tensors)
	}
	s, err := payload.Typed[float32](out.Tensors[0])
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range s.Data {
		if v != 2*feats[i] {
			t.Fatalf("scaled[%d] = %v", i, v)
		}
	}
	nx, err := payload.Typed[int64](out.Tensors[1])
	if err != nil {
		t.Fatal(err)
	}
	if nx.Data[0] != 11 || nx.Data[1] != 21 {
		t.Fatalf("next = %v", nx.Data)
	}
	if got := testing.AllocsPerRun(20, func() {
		if err := mod.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Fatalf("multi InferOne allocates %v", got)
	}
	// Wrong dtype for a named input.
	bad := payload.Multi{Tensors: []payload.Dynamic{
		payload.DynamicOf("ids", payload.Tensor[int32]{Shape: []int{2}, Data: []int32{1, 2}}),
		payload.DynamicOf("feats", payload.Tensor[float32]{Shape: []int{2, 4}, Data: feats}),
	}}
	if err := mod.InferOne(&bad, &out); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("int32 ids: %v", err)
	}
}

func TestLoadNilArtifact(t *testing.T) {
	if _, err := cpu.New[f32, f32](compute.Options{}).LoadModel(nil); !errors.Is(err, compute.ErrInvalidArtifact) {
		t.Fatalf("nil artifact: %v", err)
	}
}
