//go:build cuda && cgo

package cuda

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/artifacts"
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// standIn is the backend's device over the stand-in driver, which accepts
// every call and runs nothing: kernels get dummy handles, device memory
// dummy addresses, staging memory comes from the Go heap. Models run on it
// end to end through this package's Go and C paths (planning, packing,
// the cuBLAS mapping, recording, capture, transfers), so that everything
// but the GPU's arithmetic is exercised without a GPU. Outputs are
// whatever the stage held.
type standIn struct {
	*device
	next core.BufID
}

func (s *standIn) Compile(ks []core.KernelID) error {
	for _, k := range ks {
		if inPTX(core.KernelNames[k]) {
			s.fns[k] = function(k + 1)
		}
	}
	return nil
}

func (s *standIn) Alloc(n int) (core.BufID, []byte, error) {
	b := s.next
	s.next += core.BufID((n + 511) / 256 * 256)
	return b, nil, nil
}

func (s *standIn) Release(core.BufID)               {}
func (s *standIn) AllocStage(n int) ([]byte, error) { return make([]byte, n), nil }
func (s *standIn) FreeStage([]byte)                 {}

// standInConfig is the backend's configuration with models on stand-in
// devices; it skips the test where a real driver is loaded.
func standInConfig(t testing.TB) *core.Config {
	t.Helper()
	if !useFakeDriver() {
		t.Skip("a CUDA driver is loaded; the stand-in driver is for machines without one")
	}
	fakeFail("", 0)
	cfg := config(compute.Options{})
	cfg.Open = func() (core.Device, error) {
		g := fakeGPU()
		st, err := g.newStream()
		if err != nil {
			return nil, err
		}
		d := &device{g: g, st: st, bl: fakeBlas(g, st), progs: map[core.ProgID]*program{}}
		return &standIn{device: d, next: 1 << 40}, nil
	}
	return cfg
}

// Every model and single-op case records, captures and runs over the
// stand-in driver: every launch names a kernel of the PTX, every matrix
// product is a valid cuBLAS call, every transfer is well formed.
func TestStandInRecordsEveryCase(t *testing.T) {
	cfg := standInConfig(t)
	for _, c := range modelCases() {
		t.Run(c.name, func(t *testing.T) {
			m := loadWith[f32, f32](t, cfg, c.onnx)
			in := f32{Shape: c.shape, Data: make([]float32, payload.NumElems(c.shape))}
			var out f32
			for range 2 {
				if err := m.InferOne(&in, &out); err != nil {
					t.Fatalf("m.InferOne: %v", err)
				}
			}
			item := append([]int{1}, c.shape[1:]...)
			ins := []f32{{Shape: item, Data: make([]float32, payload.NumElems(item))}, {Shape: item, Data: make([]float32, payload.NumElems(item))}}
			if err := m.InferBatch(batch.Of(ins), make([]f32, 2)); err != nil {
				t.Fatalf("m.InferBatch: %v", err)
			}
		})
	}
	for _, c := range gputest.OpCases() {
		t.Run(c.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 1))
			b := gputest.OneOp(c.Opset, c.Op, c.Out, c.Ins, c.Inits(r), c.Attrs...)
			m := loadWith[payload.Multi, payload.Multi](t, cfg, b)
			var in, out payload.Multi
			for k, v := range c.Ins {
				shape := make([]int, len(v.Shape))
				for j, d := range v.Shape {
					shape[j] = int(d)
				}
				if c.Shapes != nil {
					shape = c.Shapes[k]
				}
				in.Tensors = append(in.Tensors, gputest.RandInput(r, v.Name, v.DType, shape, 0, 1))
			}
			if err := m.InferOne(&in, &out); err != nil {
				t.Fatalf("m.InferOne: %v", err)
			}
		})
	}
}

// loadWith loads model bytes with cfg and calls Init.
func loadWith[In, Out any](tb testing.TB, cfg *core.Config, b []byte) *Model[In, Out] {
	tb.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := core.Load[In, Out](cfg, compute.Options{}, art)
	if err != nil {
		tb.Fatalf("core.Load: %v", err)
	}
	if err := m.Init(); err != nil {
		tb.Fatalf("m.Init: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

// fakeDeviceTensor records a device region at a dummy address, as
// NewTensor does for real device memory, and returns a tensor over it;
// its Data must never be read on the host.
func fakeDeviceTensor(t *testing.T, addr uintptr, shape ...int) f32 {
	n := payload.NumElems(shape)
	regions.add(region{addr: addr, size: uintptr(4 * n), class: memclass.Device(0)})
	t.Cleanup(func() { regions.remove(addr) })
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return f32{Shape: shape, Data: unsafe.Slice((*float32)(p), n), Place: memclass.Device(0)}
}

// Calls allocate nothing once planned and recorded, from host payloads
// and to and from device payloads; device payloads NewTensor did not
// allocate are refused.
func TestStandInAllocatesNothing(t *testing.T) {
	cfg := standInConfig(t)
	m := loadWith[f32, f32](t, cfg, modelCases()[0].onnx)
	in := f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
	var out f32
	dIn := fakeDeviceTensor(t, 1<<44, 1, 784)
	dOut := fakeDeviceTensor(t, 1<<44+1<<20, 1, 10)
	items := []f32{in, in, in}
	outs := make([]f32, 3)
	bt := batch.Of(items)
	cases := []struct {
		name string
		call func() error
	}{
		{"InferOne", func() error { return m.InferOne(&in, &out) }},
		{"InferOne device in", func() error { return m.InferOne(&dIn, &out) }},
		{"InferOne device out", func() error { return m.InferOne(&in, &dOut) }},
		{"InferOne device to device", func() error { return m.InferOne(&dIn, &dOut) }},
		{"InferBatch", func() error { return m.InferBatch(bt, outs) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); err != nil {
				t.Fatalf("c.call: %v", err)
			}
			var err error
			if n := testing.AllocsPerRun(50, func() { err = c.call() }); n != 0 || err != nil {
				t.Fatalf("%v allocations per call, err %v", n, err)
			}
		})
	}
	if out.Place != memclass.Host || len(out.Data) != 10 {
		t.Fatalf("host output: %v, %d elements", out.Place, len(out.Data))
	}
	md := m.Metadata()
	if md.PreferredInput != memclass.Pinned || md.PreferredOutput != memclass.Pinned || !md.AcceptedInput.Contains(memclass.Device(0)) ||
		!md.AcceptedInput.Contains(memclass.Pinned) || !md.AcceptedInput.Contains(memclass.Host) || md.AcceptedInput.Contains(memclass.Device(1)) {
		t.Fatalf("metadata classes: %+v", md)
	}
	forged := f32{Shape: []int{1, 784}, Data: make([]float32, 784), Place: memclass.Device(0)}
	if err := m.InferOne(&forged, &out); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("forged device input: %v", err)
	}
	small := fakeDeviceTensor(t, 1<<44+2<<20, 1, 5)
	if err := m.InferOne(&in, &small); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("small device output: %v", err)
	}
}

// A failure the driver reports comes back as the model's error, and a
// sticky fault leaves the model refusing every later call.
func TestStandInFault(t *testing.T) {
	cfg := standInConfig(t)
	m := loadWith[f32, f32](t, cfg, modelCases()[0].onnx)
	in := f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
	var out f32
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	if !fakeFail("cuStreamSynchronize", 700) { // CUDA_ERROR_ILLEGAL_ADDRESS
		t.Fatal("no such operation")
	}
	err := m.InferOne(&in, &out)
	fakeFail("", 0)
	if !errors.Is(err, compute.ErrExecutionFailed) {
		t.Fatalf("faulting call: %v", err)
	}
	for i := range 2 {
		err2 := m.InferOne(&in, &out)
		if !errors.Is(err2, compute.ErrExecutionFailed) || !strings.Contains(err2.Error(), "unusable") || !strings.Contains(err2.Error(), "(700)") {
			t.Fatalf("call %d after a sticky fault does not name it: %v", i, err2)
		}
	}
	t.Logf("fault: %v", err)
}
