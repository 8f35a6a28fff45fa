package metal

import (
	"errors"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// mlp returns x[N,16] -> MatMul -> Add -> Relu -> MatMul -> Add ->
// Softmax, with a Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain
// on the free batch dim that folds once the input shape is known.
func mlp(r *rand.Rand) []byte {
	m := ob.Model{Opset: 17, Graph: ob.Graph{
		Inputs:  []ob.Value{in("x", f32, -1, 16)},
		Outputs: []ob.Value{in("y", f32, -1, 4)},
		Initializers: []ob.Tensor{w32("w1", r, 16, 32), w32("b1", r, 32), w32("w2", r, 32, 4), w32("b2", r, 4),
			ints("zero", 0), ints("four", 4)},
		Nodes: []ob.Node{
			{Op: "MatMul", Inputs: []string{"x", "w1"}, Outputs: []string{"h1"}},
			{Op: "Add", Inputs: []string{"h1", "b1"}, Outputs: []string{"h2"}},
			{Op: "Relu", Inputs: []string{"h2"}, Outputs: []string{"h3"}},
			{Op: "MatMul", Inputs: []string{"h3", "w2"}, Outputs: []string{"h4"}},
			{Op: "Add", Inputs: []string{"h4", "b2"}, Outputs: []string{"h5"}},
			{Op: "Shape", Inputs: []string{"x"}, Outputs: []string{"s"}},
			{Op: "Gather", Inputs: []string{"s", "zero"}, Outputs: []string{"n"}},
			{Op: "Concat", Inputs: []string{"n", "four"}, Outputs: []string{"shape"}, Attrs: []ob.Attr{ob.AInt("axis", 0)}},
			{Op: "Reshape", Inputs: []string{"h5", "shape"}, Outputs: []string{"h6"}},
			{Op: "Softmax", Inputs: []string{"h6"}, Outputs: []string{"y"}},
		},
	}}
	return m.Encode()
}

type f32t = payload.Tensor[float32]

func loadTensorFake(t testing.TB, b []byte) (*Model[f32t, f32t], *fakeDevice) {
	t.Helper()
	art, err := artifacts.FromBytes(b, "mlp.onnx")
	if err != nil {
		t.Fatal(err)
	}
	dev := newFake()
	m, err := newWith[f32t, f32t](compute.Options{}, func() (device, error) { return dev, nil }).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, dev
}

func randT(r *rand.Rand, shape ...int) f32t {
	t := payload.NewTensor[float32](shape...)
	for i := range t.Data {
		t.Data[i] = r.Float32()*2 - 1
	}
	return t
}

// A free batch dim is planned per input shape; a batch of items of
// different shapes is one submission and matches the CPU backend item by
// item.
func TestPlanPerShapeAndBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	b := mlp(r)
	gm, dev := loadTensorFake(t, b)
	art, _ := artifacts.FromBytes(b, "mlp.onnx")
	cm, err := cpuModel(art)
	if err != nil {
		t.Fatal(err)
	}
	ins := []f32t{randT(r, 3, 16), randT(r, 1, 16), randT(r, 3, 16), randT(r, 5, 16)}
	outs := make([]f32t, len(ins))
	before := dev.submits
	if err := gm.InferBatch(batch.Of(ins), outs); err != nil {
		t.Fatal(err)
	}
	if got := dev.submits - before; got != 1 {
		t.Fatalf("InferBatch made %d submissions, want 1", got)
	}
	if len(gm.plans) != 3 {
		t.Fatalf("%d plans for 3 shapes", len(gm.plans))
	}
	for i := range ins {
		var want f32t
		if err := cm.InferOne(&ins[i], &want); err != nil {
			t.Fatal(err)
		}
		compareOutputs(t, multi{Tensors: []payload.Dynamic{payload.DynamicOf("y", outs[i])}}, multi{Tensors: []payload.Dynamic{payload.DynamicOf("y", want)}}, 1e-5)
	}
	before = dev.submits
	var one f32t
	if err := gm.InferOne(&ins[3], &one); err != nil {
		t.Fatal(err)
	}
	if got := dev.submits - before; got != 1 {
		t.Fatalf("InferOne made %d submissions, want 1", got)
	}
	for i := range one.Data {
		if one.Data[i] != outs[3].Data[i] {
			t.Fatalf("InferOne and InferBatch differ at %d", i)
		}
	}
}

// After the first call at a shape, InferOne and InferBatch allocate
// nothing on the Go heap.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	gm, _ := loadTensorFake(t, mlp(r))
	x := randT(r, 4, 16)
	var y f32t
	if err := gm.InferOne(&x, &y); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() {
		if err := gm.InferOne(&x, &y); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("InferOne: %v allocations per call", n)
	}
	ins := []f32t{x, randT(r, 4, 16)}
	outs := make([]f32t, 2)
	bt := batch.Of(ins)
	if err := gm.InferBatch(bt, outs); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() {
		if err := gm.InferBatch(bt, outs); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("InferBatch: %v allocations per call", n)
	}
}

// The arena layout never lets two values that are live at the same step
// overlap, reuses space, and views share their input's bytes.
func TestArenaLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	art, err := artifacts.FromBytes(mlp(r), "mlp.onnx")
	if err != nil {
		t.Fatal(err)
	}
	p, err := buildPlanFor(t, art, [][]int{{8, 16}})
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ off, end, from, to int }
	var spans []span
	sum := 0
	for _, v := range p.vals {
		if v.root != v || v.loc.kind != locArena {
			continue
		}
		s := span{v.loc.off, v.loc.off + alignUp(max(v.size, 1), arenaAlign), v.def, max(v.last, v.def)}
		sum += s.end - s.off
		for _, q := range spans {
			if q.to >= s.from && q.from <= s.to && q.off < s.end && s.off < q.end {
				t.Fatalf("values overlap: %+v and %+v", q, s)
			}
		}
		spans = append(spans, s)
	}
	if p.p.arenaSize >= sum+len(p.p.inOff)*arenaAlign*2 {
		t.Errorf("arena of %d bytes reuses nothing (sum of values %d)", p.p.arenaSize, sum)
	}
	h5, h6 := p.vals["h5"], p.vals["h6"]
	if h6.root != h5.root {
		t.Errorf("Reshape output is not a view of its input")
	}
	for _, st := range p.p.steps {
		for _, l := range st.bufs {
			if l.kind == locArena && (l.off%arenaAlign != 0 || l.off >= p.p.arenaSize) {
				t.Errorf("step %s binds offset %d (arena %d)", st.node, l.off, p.p.arenaSize)
			}
		}
	}
}

// buildPlanFor plans art's graph at shapes and returns the planner, to
// look at its values.
func buildPlanFor(t *testing.T, art *artifacts.Artifact, shapes [][]int) (*planner, error) {
	t.Helper()
	g := art.Graph().Clone()
	s, err := specialise(g, shapes)
	if err != nil {
		return nil, err
	}
	pl := &planner{label: "t", g: s, vals: map[string]*val{}, constIdx: map[*modelTensor]int{}, maxBytes: 1 << 30, p: &plan{inShapes: shapes}}
	return pl, pl.run()
}

// A page-aligned payload is bound in place, not copied.
func TestAlignedInputIsWrapped(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	gm, dev := loadTensorFake(t, mlp(r))
	buf := make([]float32, 3*fakePage/4)
	p := uintptr(unsafe.Pointer(&buf[0]))
	skip := int((fakePage - p%fakePage) % fakePage / 4)
	x := f32t{Shape: []int{fakePage / 64, 16}, Data: buf[skip : skip+fakePage/4]}
	for i := range x.Data {
		x.Data[i] = r.Float32()
	}
	var y, y2 f32t
	if err := gm.InferOne(&x, &y); err != nil {
		t.Fatal(err)
	}
	if dev.wraps == 0 {
		t.Fatal("aligned input was copied")
	}
	x2 := f32t{Shape: x.Shape, Data: append([]float32{}, x.Data...)}
	if err := gm.InferOne(&x2, &y2); err != nil {
		t.Fatal(err)
	}
	for i := range y.Data {
		if y.Data[i] != y2.Data[i] {
			t.Fatalf("wrapped and copied inputs give different outputs at %d", i)
		}
	}
	if dev.live == 0 {
		t.Fatal("no live buffers")
	}
}

// What the kernels lack is refused at load with ErrUnsupported, naming the
// node; input errors are ErrShapeMismatch; use after Close is ErrClosed.
func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
	}{
		{"op", oneOp(17, "Tile", f32, []ob.Value{in("x", f32, 2, 3)}, []ob.Tensor{ints("r", 2, 1)})},
		{"dtype", oneOp(17, "Relu", payload.Float64, []ob.Value{in("x", payload.Float64, 2, 3)}, nil)},
		{"3-D conv", oneOp(17, "Conv", f32, []ob.Value{in("x", f32, 1, 1, 3, 3, 3)}, []ob.Tensor{ob.TensorOf("w", []int64{1, 1, 1, 1, 1}, []float32{1})})},
		{"auto_pad", oneOp(17, "MaxPool", f32, []ob.Value{in("x", f32, 1, 1, 4, 4)}, nil, ob.AInts("kernel_shape", 2, 2), ob.AString("auto_pad", "SAME_UPPER"))},
	}
	for _, tc := range cases {
		art, err := artifacts.FromBytes(tc.b, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = newWith[multi, multi](compute.Options{}, func() (device, error) { return newFake(), nil }).LoadModel(art)
		if !isUnsupported(err) {
			t.Errorf("%s: %v, want ErrUnsupported", tc.name, err)
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	gm, _ := loadTensorFake(t, mlp(r))
	bad := randT(r, 2, 15)
	var y f32t
	if err := gm.InferOne(&bad, &y); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("wrong shape: %v", err)
	}
	short := f32t{Shape: []int{2, 16}, Data: make([]float32, 5)}
	if err := gm.InferOne(&short, &y); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("short data: %v", err)
	}
	gm.Close()
	x := randT(r, 2, 16)
	if err := gm.InferOne(&x, &y); !errors.Is(err, compute.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// Without the Metal driver (any build but -tags metal on darwin), loading
// fails with ErrResourceUnavailable.
func TestNoDriver(t *testing.T) {
	if _, err := openDevice(); err == nil {
		t.Skip("this build has the Metal driver")
	}
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(1, 2))), "mlp.onnx")
	if err != nil {
		t.Fatal(err)
	}
	_, err = New[f32t, f32t](compute.Options{}).LoadModel(art)
	if !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Fatalf("%v, want ErrResourceUnavailable", err)
	}
}

// More input shapes than the model keeps plans for: every call is still
// right, evicted plans' folded constants are released, and a batch that
// spans more shapes than the cache holds is one submission.
func TestPlanEviction(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	b := mlp(r)
	gm, dev := loadTensorFake(t, b)
	art, _ := artifacts.FromBytes(b, "mlp.onnx")
	cm, err := cpuModel(art)
	if err != nil {
		t.Fatal(err)
	}
	var ins []f32t
	for n := 1; n <= maxPlans+3; n++ {
		ins = append(ins, randT(r, n, 16))
	}
	outs := make([]f32t, len(ins))
	before := dev.submits
	if err := gm.InferBatch(batch.Of(ins), outs); err != nil {
		t.Fatal(err)
	}
	if dev.submits-before != 1 {
		t.Fatalf("%d submissions", dev.submits-before)
	}
	if len(gm.plans) != maxPlans {
		t.Fatalf("%d plans kept, want %d", len(gm.plans), maxPlans)
	}
	for i := range ins {
		var want f32t
		if err := cm.InferOne(&ins[i], &want); err != nil {
			t.Fatal(err)
		}
		compareOutputs(t, multi{Tensors: []payload.Dynamic{payload.DynamicOf("y", outs[i])}}, multi{Tensors: []payload.Dynamic{payload.DynamicOf("y", want)}}, 1e-5)
	}
	live := dev.live
	var y f32t
	if err := gm.InferOne(&ins[0], &y); err != nil {
		t.Fatal(err)
	}
	if dev.live > live {
		t.Errorf("live buffers grew from %d to %d", live, dev.live)
	}
	gm.Close()
	if dev.live != 0 {
		t.Errorf("%d buffers live after Close", dev.live)
	}
}
