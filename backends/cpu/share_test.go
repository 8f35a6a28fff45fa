package cpu

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

type f32 = payload.Tensor[float32]

// sharedWeightsModel returns a model whose weights take every path that
// used to copy them per instance: a Gemm with transB (its B is transposed
// at build), a constant Transpose (folded into a new constant) and a
// MatMul over raw initializer bytes. x is [N, 256]; the weights take
// 6 MiB.
func sharedWeightsModel() []byte {
	r := rand.New(rand.NewPCG(4, 4))
	w := func(name string, dims ...int64) onnxbuild.Tensor {
		n := int64(1)
		for _, d := range dims {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32() - 0.5
		}
		return onnxbuild.TensorOf(name, dims, v)
	}
	g := onnxbuild.Graph{
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 256)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 256)},
		Initializers: []onnxbuild.Tensor{w("w1", 1024, 256), w("w2", 1024, 1024), w("w3", 256, 1024)},
		Nodes: []onnxbuild.Node{
			{Op: "Gemm", Inputs: []string{"x", "w1"}, Outputs: []string{"h1"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("transB", 1)}},
			{Op: "Relu", Inputs: []string{"h1"}, Outputs: []string{"r1"}},
			{Op: "MatMul", Inputs: []string{"r1", "w2"}, Outputs: []string{"h2"}},
			{Op: "Transpose", Inputs: []string{"w3"}, Outputs: []string{"w3t"}},
			{Op: "MatMul", Inputs: []string{"h2", "w3t"}, Outputs: []string{"y"}},
		},
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// weightBytes sums the bytes of art's initializers.
func weightBytes(art *artifacts.Artifact) int64 {
	var n int64
	for _, t := range art.Graph().Initializers {
		n += int64(len(t.Raw))
	}
	return n
}

// heap returns the live heap after a full collection.
func heap() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// loadRun loads art on b, runs it once on a batch of 4 and returns the
// model and its output.
func loadRun(t *testing.T, b *Backend[f32, f32], art *artifacts.Artifact) (*Model[f32, f32], f32) {
	t.Helper()
	m, out, err := tryLoadRun(b, art)
	if err != nil {
		t.Fatal(err)
	}
	return m, out
}

func tryLoadRun(b *Backend[f32, f32], art *artifacts.Artifact) (*Model[f32, f32], f32, error) {
	var out f32
	m, err := b.LoadModel(art)
	if err != nil {
		return nil, out, err
	}
	if err := m.Init(); err != nil {
		return nil, out, err
	}
	in := f32{Shape: []int{4, 256}, Data: make([]float32, 4*256)}
	for i := range in.Data {
		in.Data[i] = float32(i%17) * 0.01
	}
	err = m.InferOne(&in, &out)
	return m, out, err
}

// A second instance of one artifact on one backend adds only its scratch:
// less than a quarter of the weight bytes. An instance on another backend
// copies what the first one precomputed, which shows the measure works.
func TestSharedWeightsHeap(t *testing.T) {
	art, err := artifacts.FromBytes(sharedWeightsModel(), "shared.onnx")
	if err != nil {
		t.Fatal(err)
	}
	weights := weightBytes(art)
	b := New[f32, f32](compute.Options{})

	h0 := heap()
	m1, out1 := loadRun(t, b, art)
	h1 := heap()
	m2, out2 := loadRun(t, b, art)
	h2 := heap()
	other := New[f32, f32](compute.Options{})
	m3, out3 := loadRun(t, other, art)
	h3 := heap()

	first, second, separate := h1-h0, h2-h1, h3-h2
	t.Logf("weights %d bytes; first instance +%d, second instance on the same backend +%d (%.1f%% of the weights), one on another backend +%d",
		weights, first, second, 100*float64(second)/float64(weights), separate)
	if second*4 >= weights {
		t.Errorf("second instance adds %d bytes, want < 25%% of the %d weight bytes", second, weights)
	}
	if separate*4 < weights {
		t.Errorf("an instance on another backend adds only %d bytes: the measure does not see copied weights", separate)
	}
	for i := range out1.Data {
		if out1.Data[i] != out2.Data[i] || out1.Data[i] != out3.Data[i] {
			t.Fatalf("output %d differs between instances: %v %v %v", i, out1.Data[i], out2.Data[i], out3.Data[i])
		}
	}
	runtime.KeepAlive(m1)
	runtime.KeepAlive(m2)
	runtime.KeepAlive(m3)
	runtime.KeepAlive(art)
}

// Instances of one artifact share its graph and precomputed weights,
// float32 or half; instances of different artifacts, even with the same
// bytes, do not.
func TestSharedStateIdentity(t *testing.T) {
	data := sharedWeightsModel()
	for _, wt := range []payload.DType{payload.Float32, payload.Float16, payload.BF16} {
		a1, err := artifacts.FromBytes(data, "a1")
		if err != nil {
			t.Fatal(err)
		}
		a2, err := artifacts.FromBytes(data, "a2")
		if err != nil {
			t.Fatal(err)
		}
		b := New[f32, f32](compute.Options{WeightType: wt})
		load := func(a *artifacts.Artifact) *Model[f32, f32] {
			m, err := b.LoadModel(a)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		bT := func(m *Model[f32, f32]) unsafe.Pointer {
			for _, st := range m.prog.steps {
				if k, ok := st.k.(*gemmKernel); ok && k.pb.packed != nil {
					return unsafe.Pointer(&k.pb.packed[0])
				} else if ok && k.pb.half != nil {
					return unsafe.Pointer(&k.pb.half[0])
				}
			}
			t.Fatal("no Gemm with a transposed B")
			return nil
		}
		m1, m2, m3 := load(a1), load(a1), load(a2)
		tests := []struct {
			name       string
			x, y       *Model[f32, f32]
			wantShared bool
		}{
			{"same artifact", m1, m2, true},
			{"other artifact", m1, m3, false},
		}
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s weights %s", tc.name, wt), func(t *testing.T) {
				if got := tc.x.prog.g == tc.y.prog.g; got != tc.wantShared {
					t.Errorf("graph shared = %v, want %v", got, tc.wantShared)
				}
				if got := bT(tc.x) == bT(tc.y); got != tc.wantShared {
					t.Errorf("transposed B shared = %v, want %v", got, tc.wantShared)
				}
				if tc.x.prog.share == nil || tc.x.prog.share.data == nil {
					t.Error("no shared store")
				}
			})
		}
	}
}

// The cache keeps neither artifacts nor shared data alive: once every
// model of an artifact is gone, its entry goes too.
func TestShareCacheForgets(t *testing.T) {
	b := New[f32, f32](compute.Options{})
	func() {
		art, err := artifacts.FromBytes(sharedWeightsModel(), "gone")
		if err != nil {
			t.Fatal(err)
		}
		m, _ := loadRun(t, b, art)
		m.Close()
	}()
	entries := func() int {
		b.share.mu.Lock()
		defer b.share.mu.Unlock()
		return len(b.share.entries)
	}
	deadline := time.Now().Add(10 * time.Second)
	for entries() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := entries(); n != 0 {
		t.Fatalf("%d cache entries left after their models were dropped", n)
	}
}

// Concurrent loads of one artifact prepare it once and give equal models.
func TestSharedConcurrentLoads(t *testing.T) {
	art, err := artifacts.FromBytes(sharedWeightsModel(), "concurrent")
	if err != nil {
		t.Fatal(err)
	}
	b := New[f32, f32](compute.Options{})
	const n = 4
	var wg sync.WaitGroup
	models := make([]*Model[f32, f32], n)
	outs := make([]f32, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { models[i], outs[i], errs[i] = tryLoadRun(b, art) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
	}
	for i := 1; i < n; i++ {
		if models[i].prog.g != models[0].prog.g {
			t.Errorf("model %d has its own graph", i)
		}
		for j := range outs[0].Data {
			if outs[i].Data[j] != outs[0].Data[j] {
				t.Fatalf("model %d output %d: %v, want %v", i, j, outs[i].Data[j], outs[0].Data[j])
			}
		}
	}
}
