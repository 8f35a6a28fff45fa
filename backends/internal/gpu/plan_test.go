package gpu_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

const f32 = payload.Float32

type (
	f32t  = payload.Tensor[float32]
	multi = payload.Multi
)

// mlp returns x[N,16] -> MatMul -> Add -> Relu -> MatMul -> Add ->
// Softmax, with a Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain
// on the free batch dim that folds once the input shape is known.
func mlp(r *rand.Rand) []byte {
	m := ob.Model{Opset: 17, Graph: ob.Graph{
		Inputs:  []ob.Value{gt.In("x", f32, -1, 16)},
		Outputs: []ob.Value{gt.In("y", f32, -1, 4)},
		Initializers: []ob.Tensor{gt.W32("w1", r, 16, 32), gt.W32("b1", r, 32), gt.W32("w2", r, 32, 4), gt.W32("b2", r, 4),
			gt.Ints("zero", 0), gt.Ints("four", 4)},
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

// mode is one kind of fake device: host-visible memory (as Metal) or a
// Recorder (as CUDA).
type mode struct {
	name string
	open func() (gpu.Device, *gt.Device, *gt.Recorder)
}

var modes = []mode{
	{"shared", func() (gpu.Device, *gt.Device, *gt.Recorder) { d := gt.New(); return d, d, nil }},
	{"recorder", func() (gpu.Device, *gt.Device, *gt.Recorder) { r := gt.NewRecorder(); return r, r.Device, r }},
}

// forModes runs f once per fake device mode.
func forModes(t *testing.T, f func(t *testing.T, md mode)) {
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) { f(t, md) })
	}
}

func loadTensorFake(t testing.TB, b []byte, md mode) (*gpu.Model[f32t, f32t], *gt.Device, *gt.Recorder) {
	t.Helper()
	art, err := artifacts.FromBytes(b, "mlp.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	dev, fake, rec := md.open()
	m, err := gpu.Load[f32t, f32t](gt.Config(func() (gpu.Device, error) { return dev, nil }, false), compute.Options{}, art)
	if err != nil {
		t.Fatalf("gpu.Load: %v", err)
	}
	if err := m.Init(); err != nil {
		t.Fatalf("m.Init: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m, fake, rec
}

func randT(r *rand.Rand, shape ...int) f32t {
	t := payload.NewTensor[float32](shape...)
	for i := range t.Data {
		t.Data[i] = r.Float32()*2 - 1
	}
	return t
}

func one(name string, t f32t) multi {
	return multi{Tensors: []payload.Dynamic{payload.DynamicOf(name, t)}}
}

// A free batch dim is planned per input shape; a batch of items of
// different shapes is one submission and matches the CPU backend item by
// item.
func TestPlanPerShapeAndBatch(t *testing.T) {
	forModes(t, func(t *testing.T, md mode) {
		r := rand.New(rand.NewPCG(2, 3))
		b := mlp(r)
		gm, dev, _ := loadTensorFake(t, b, md)
		art, _ := artifacts.FromBytes(b, "mlp.onnx")
		cm, err := gt.CPUModel(art)
		if err != nil {
			t.Fatalf("gt.CPUModel: %v", err)
		}
		ins := []f32t{randT(r, 3, 16), randT(r, 1, 16), randT(r, 3, 16), randT(r, 5, 16)}
		outs := make([]f32t, len(ins))
		before := dev.Submits
		if err := gm.InferBatch(batch.Of(ins), outs); err != nil {
			t.Fatalf("gm.InferBatch: %v", err)
		}
		if got := dev.Submits - before; got != 1 {
			t.Fatalf("InferBatch made %d submissions, want 1", got)
		}
		if n := gpu.PlanCount(gm); n != 3 {
			t.Fatalf("%d plans for 3 shapes", n)
		}
		for i := range ins {
			var want f32t
			if err := cm.InferOne(&ins[i], &want); err != nil {
				t.Fatalf("cm.InferOne: %v", err)
			}
			gt.CompareOutputs(t, one("y", outs[i]), one("y", want), 1e-5)
		}
		before = dev.Submits
		var y f32t
		if err := gm.InferOne(&ins[3], &y); err != nil {
			t.Fatalf("gm.InferOne: %v", err)
		}
		if got := dev.Submits - before; got != 1 {
			t.Fatalf("InferOne made %d submissions, want 1", got)
		}
		for i := range y.Data {
			if y.Data[i] != outs[3].Data[i] {
				t.Fatalf("InferOne and InferBatch differ at %d", i)
			}
		}
	})
}

// After the first call at a shape, InferOne and InferBatch allocate
// nothing on the Go heap; a Recorder replays its recording.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	forModes(t, func(t *testing.T, md mode) {
		r := rand.New(rand.NewPCG(4, 5))
		gm, _, rec := loadTensorFake(t, mlp(r), md)
		x := randT(r, 4, 16)
		var y f32t
		if err := gm.InferOne(&x, &y); err != nil {
			t.Fatalf("gm.InferOne: %v", err)
		}
		records := 0
		if rec != nil {
			records = rec.Records
		}
		if n := testing.AllocsPerRun(50, func() {
			if err := gm.InferOne(&x, &y); err != nil {
				t.Fatalf("gm.InferOne: %v", err)
			}
		}); n != 0 {
			t.Fatalf("InferOne: %v allocations per call", n)
		}
		ins := []f32t{x, randT(r, 4, 16)}
		outs := make([]f32t, 2)
		bt := batch.Of(ins)
		if err := gm.InferBatch(bt, outs); err != nil {
			t.Fatalf("gm.InferBatch: %v", err)
		}
		if n := testing.AllocsPerRun(50, func() {
			if err := gm.InferBatch(bt, outs); err != nil {
				t.Fatalf("gm.InferBatch: %v", err)
			}
		}); n != 0 {
			t.Fatalf("InferBatch: %v allocations per call", n)
		}
		if rec != nil && rec.Records != records+1 {
			t.Fatalf("%d recordings for one shape and one batch, want %d", rec.Records, records+1)
		}
	})
}

// The arena layout never lets two values that are live at the same step
// overlap, reuses space, and views share their input's bytes.
func TestArenaLayout(t *testing.T) {
	art, err := artifacts.FromBytes(mlp(rand.New(rand.NewPCG(6, 7))), "mlp.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	if err := gpu.CheckArenaLayout(art, [][]int{{8, 16}}, "h6", "h5"); err != nil {
		t.Fatalf("gpu.CheckArenaLayout: %v", err)
	}
}

// A page-aligned payload is bound in place, not copied, on a device whose
// memory the host sees.
func TestAlignedInputIsWrapped(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	gm, dev, _ := loadTensorFake(t, mlp(r), modes[0])
	buf := make([]float32, 3*gt.Page/4)
	p := uintptr(unsafe.Pointer(&buf[0]))
	skip := int((gt.Page - p%gt.Page) % gt.Page / 4)
	x := f32t{Shape: []int{gt.Page / 64, 16}, Data: buf[skip : skip+gt.Page/4]}
	for i := range x.Data {
		x.Data[i] = r.Float32()
	}
	var y, y2 f32t
	if err := gm.InferOne(&x, &y); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	if dev.Wraps == 0 {
		t.Fatal("aligned input was copied")
	}
	x2 := f32t{Shape: x.Shape, Data: append([]float32{}, x.Data...)}
	if err := gm.InferOne(&x2, &y2); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	for i := range y.Data {
		if y.Data[i] != y2.Data[i] {
			t.Fatalf("wrapped and copied inputs give different outputs at %d", i)
		}
	}
	if dev.Live == 0 {
		t.Fatal("no live buffers")
	}
}

// What the kernels lack is refused at load with ErrUnsupported, naming the
// node; input errors are ErrShapeMismatch; use after Close is ErrClosed.
func TestErrors(t *testing.T) {
	x23 := []ob.Value{gt.In("x", f32, 2, 3)}
	cases := []struct {
		name string
		b    []byte
	}{
		{"op", gt.OneOp(17, "Tile", f32, x23, []ob.Tensor{gt.Ints("r", 2, 1)})},
		{"dtype", gt.OneOp(17, "Relu", payload.Float64, []ob.Value{gt.In("x", payload.Float64, 2, 3)}, nil)},
		{"3-D conv", gt.OneOp(17, "Conv", f32, []ob.Value{gt.In("x", f32, 1, 1, 3, 3, 3)}, []ob.Tensor{ob.TensorOf("w", []int64{1, 1, 1, 1, 1}, []float32{1})})},
		{"resize cubic", gt.OneOp(13, "Resize", f32, []ob.Value{gt.In("x", f32, 1, 1, 4, 4)}, []ob.Tensor{ob.TensorOf("roi", []int64{0}, []float32{}),
			ob.TensorOf("scales", []int64{4}, []float32{1, 1, 2, 2})}, ob.AString("mode", "cubic"))},
		{"resize int64", gt.OneOp(13, "Resize", payload.Int64, []ob.Value{gt.In("x", payload.Int64, 1, 1, 4, 4)}, []ob.Tensor{ob.TensorOf("roi", []int64{0}, []float32{}),
			ob.TensorOf("scales", []int64{4}, []float32{1, 1, 2, 2})})},
		{"auto_pad", gt.OneOp(17, "MaxPool", f32, []ob.Value{gt.In("x", f32, 1, 1, 4, 4)}, nil, ob.AInts("kernel_shape", 2, 2), ob.AString("auto_pad", "SAME_UPPER"))},
	}
	for _, tc := range cases {
		art, err := artifacts.FromBytes(tc.b, tc.name)
		if err != nil {
			t.Fatalf("artifacts.FromBytes: %v", err)
		}
		_, err = gpu.Load[multi, multi](gt.Config(func() (gpu.Device, error) { return gt.New(), nil }, false), compute.Options{}, art)
		if !gt.IsUnsupported(err) {
			t.Errorf("%s: %v, want ErrUnsupported", tc.name, err)
		}
		if tc.name == "resize cubic" && !strings.Contains(err.Error(), `mode "cubic"`) {
			t.Errorf("%s: %v does not name the mode", tc.name, err)
		}
	}
	forModes(t, func(t *testing.T, md mode) {
		r := rand.New(rand.NewPCG(1, 1))
		gm, _, _ := loadTensorFake(t, mlp(r), md)
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
	})
}

// More input shapes than the model keeps plans for: every call is still
// right, evicted plans' folded constants are released, and a batch that
// spans more shapes than the cache holds is one submission.
func TestPlanEviction(t *testing.T) {
	forModes(t, func(t *testing.T, md mode) {
		r := rand.New(rand.NewPCG(10, 11))
		b := mlp(r)
		gm, dev, _ := loadTensorFake(t, b, md)
		art, _ := artifacts.FromBytes(b, "mlp.onnx")
		cm, err := gt.CPUModel(art)
		if err != nil {
			t.Fatalf("gt.CPUModel: %v", err)
		}
		var ins []f32t
		for n := 1; n <= gpu.MaxPlans+3; n++ {
			ins = append(ins, randT(r, n, 16))
		}
		outs := make([]f32t, len(ins))
		before := dev.Submits
		if err := gm.InferBatch(batch.Of(ins), outs); err != nil {
			t.Fatalf("gm.InferBatch: %v", err)
		}
		if dev.Submits-before != 1 {
			t.Fatalf("%d submissions", dev.Submits-before)
		}
		if n := gpu.PlanCount(gm); n != gpu.MaxPlans {
			t.Fatalf("%d plans kept, want %d", n, gpu.MaxPlans)
		}
		for i := range ins {
			var want f32t
			if err := cm.InferOne(&ins[i], &want); err != nil {
				t.Fatalf("cm.InferOne: %v", err)
			}
			gt.CompareOutputs(t, one("y", outs[i]), one("y", want), 1e-5)
		}
		live := dev.Live
		var y f32t
		if err := gm.InferOne(&ins[0], &y); err != nil {
			t.Fatalf("gm.InferOne: %v", err)
		}
		if dev.Live > live {
			t.Errorf("live buffers grew from %d to %d", live, dev.Live)
		}
		gm.Close()
		if dev.Live != 0 {
			t.Errorf("%d buffers live after Close", dev.Live)
		}
	})
}
