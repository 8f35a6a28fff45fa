package gputest

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

type multi = payload.Multi

// Config returns a configuration of the portable layer named "fake" over
// devices from open, lowering Conv through im2col when im2col is set.
func Config(open func() (gpu.Device, error), im2col bool) *gpu.Config {
	return &gpu.Config{Name: "fake", Open: open, Im2Col: im2col,
		PreferredInput: memclass.Host, PreferredOutput: memclass.Host, AcceptedInput: memclass.HostAccessible}
}

// LoadOn loads model bytes with cfg and calls Init; the model is closed
// when the test ends.
func LoadOn(t testing.TB, b []byte, cfg *gpu.Config) *gpu.Model[payload.Multi, payload.Multi] {
	t.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := gpu.Load[multi, multi](cfg, compute.Options{}, art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// LoadCPU loads model bytes on the CPU backend, the reference.
func LoadCPU(t testing.TB, b []byte) *cpu.Model[multi, multi] {
	t.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cpu.New[multi, multi](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// RandInput returns a random tensor: floats in [-2, 2), bools, or int64
// indices in [lo, hi).
func RandInput(r *rand.Rand, name string, dt payload.DType, shape []int, lo, hi int64) payload.Dynamic {
	n := payload.NumElems(shape)
	switch dt {
	case payload.Bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 1
		}
		return payload.DynamicOf(name, payload.Tensor[bool]{Shape: shape, Data: v})
	case payload.Int64:
		v := make([]int64, n)
		for i := range v {
			v[i] = lo + r.Int64N(hi-lo)
		}
		return payload.DynamicOf(name, payload.Tensor[int64]{Shape: shape, Data: v})
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*4 - 2
	}
	return payload.DynamicOf(name, payload.Tensor[float32]{Shape: shape, Data: v})
}

// CompareOutputs checks that got matches want: same names, types and
// shapes; integers and bools exactly, floats to a relative L2 error of
// tol.
func CompareOutputs(t *testing.T, got, want multi, tol float64) {
	t.Helper()
	if len(got.Tensors) != len(want.Tensors) {
		t.Fatalf("%d outputs, want %d", len(got.Tensors), len(want.Tensors))
	}
	for i := range want.Tensors {
		g, w := got.Tensors[i], want.Tensors[i]
		if g.Name != w.Name || g.DType != w.DType || !slices.Equal(g.Shape, w.Shape) {
			t.Fatalf("output %d: %s %s %v, want %s %s %v", i, g.Name, g.DType, g.Shape, w.Name, w.DType, w.Shape)
		}
		if w.DType != payload.Float32 {
			for k := range w.Data {
				if g.Data[k] != w.Data[k] {
					t.Fatalf("output %q differs at byte %d", w.Name, k)
				}
			}
			continue
		}
		gf, _ := payload.Typed[float32](g)
		wf, _ := payload.Typed[float32](w)
		var num, den float64
		for k := range wf.Data {
			dv := float64(gf.Data[k]) - float64(wf.Data[k])
			num += dv * dv
			den += float64(wf.Data[k]) * float64(wf.Data[k])
		}
		if e := math.Sqrt(num) / math.Max(math.Sqrt(den), 1e-30); e > tol || math.IsNaN(e) {
			t.Fatalf("output %q: relative L2 error %.3g > %.3g\ngot  %v\nwant %v", w.Name, e, tol, head(gf.Data), head(wf.Data))
		}
	}
}

func head(v []float32) []float32 { return v[:min(len(v), 8)] }

// OneOp returns a model of one node with the given inputs (x0, x1...),
// constant initializers and attributes, and one output y.
func OneOp(opset int64, op string, out payload.DType, ins []onnxbuild.Value, inits []onnxbuild.Tensor, attrs ...onnxbuild.Attr) []byte {
	names := make([]string, 0, len(ins)+len(inits))
	for _, v := range ins {
		names = append(names, v.Name)
	}
	for _, t := range inits {
		names = append(names, t.Name)
	}
	m := onnxbuild.Model{Opset: opset, Graph: onnxbuild.Graph{
		Inputs:       ins,
		Outputs:      []onnxbuild.Value{{Name: "y", DType: out, NoShape: true}},
		Initializers: inits,
		Nodes:        []onnxbuild.Node{{Op: op, Inputs: names, Outputs: []string{"y"}, Attrs: attrs}},
	}}
	return m.Encode()
}

// IsUnsupported reports whether err is compute.ErrUnsupported.
func IsUnsupported(err error) bool { return errors.Is(err, compute.ErrUnsupported) }

// CPUModel loads art on the CPU backend for one float32 tensor in and out.
func CPUModel(art *artifacts.Artifact) (*cpu.Model[payload.Tensor[float32], payload.Tensor[float32]], error) {
	m, err := cpu.New[payload.Tensor[float32], payload.Tensor[float32]](compute.Options{}).LoadModel(art)
	if err != nil {
		return nil, err
	}
	return m, m.Init()
}

// Open returns an open function for a gpu.Config that makes a fresh fake
// device from mk (New or NewRecorder) per model.
func Open[D gpu.Device](mk func() D) func() (gpu.Device, error) {
	return func() (gpu.Device, error) { return mk(), nil }
}
