package cpu_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the FuzzLoad and FuzzGraph seed corpora in testdata/fuzz")

type multi = payload.Multi

// fuzzSeeds are small models that exercise the CPU backend's builders and
// kernels: convolutions, pooling, shape ops with constant operands,
// reductions, gathers and resizes.
func fuzzSeeds() map[string][]byte {
	f := payload.Float32
	in := func(name string, shape ...int64) onnxbuild.Value { return onnxbuild.Input(name, f, shape...) }
	node := func(op string, ins, outs []string, attrs ...onnxbuild.Attr) onnxbuild.Node {
		return onnxbuild.Node{Name: op + "_" + outs[0], Op: op, Inputs: ins, Outputs: outs, Attrs: attrs}
	}
	models := map[string]onnxbuild.Graph{
		"conv": {
			Inputs:  []onnxbuild.Value{in("x", 1, 2, 5, 5)},
			Outputs: []onnxbuild.Value{in("y", 1, 3, 2, 2)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("w", []int64{3, 2, 3, 3}, make([]float32, 54)),
				onnxbuild.TensorOf("b", []int64{3}, []float32{1, 2, 3}),
			},
			Nodes: []onnxbuild.Node{
				node("Conv", []string{"x", "w", "b"}, []string{"c"}, onnxbuild.AInts("pads", 1, 1, 1, 1), onnxbuild.AInts("strides", 1, 1)),
				node("Relu", []string{"c"}, []string{"r"}),
				node("MaxPool", []string{"r"}, []string{"y"}, onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2)),
			},
		},
		"depthwise": {
			Inputs:  []onnxbuild.Value{in("x", 1, 2, -1, -1)},
			Outputs: []onnxbuild.Value{in("y", 1, 2, 1, 1)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("w", []int64{2, 1, 3, 3}, make([]float32, 18)),
			},
			Nodes: []onnxbuild.Node{
				node("Conv", []string{"x", "w"}, []string{"c"}, onnxbuild.AInt("group", 2), onnxbuild.AInts("pads", 1, 1, 1, 1)),
				node("GlobalAveragePool", []string{"c"}, []string{"y"}),
			},
		},
		"matmul": {
			Inputs:  []onnxbuild.Value{in("x", -1, 4)},
			Outputs: []onnxbuild.Value{in("y", -1, 3)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("w", []int64{4, 3}, make([]float32, 12)),
				onnxbuild.TensorOf("b", []int64{3}, []float32{1, 2, 3}),
			},
			Nodes: []onnxbuild.Node{
				node("MatMul", []string{"x", "w"}, []string{"m"}),
				node("Add", []string{"m", "b"}, []string{"a"}),
				node("Softmax", []string{"a"}, []string{"y"}, onnxbuild.AInt("axis", -1)),
			},
		},
		"shape": {
			Inputs:  []onnxbuild.Value{in("x", 2, 3, 4)},
			Outputs: []onnxbuild.Value{in("y", -1, -1)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("s", []int64{2}, []int64{4, -1}),
				onnxbuild.TensorOf("st", []int64{1}, []int64{1}),
				onnxbuild.TensorOf("en", []int64{1}, []int64{5}),
				onnxbuild.TensorOf("ax", []int64{1}, []int64{1}),
			},
			Nodes: []onnxbuild.Node{
				node("Transpose", []string{"x"}, []string{"t"}, onnxbuild.AInts("perm", 2, 0, 1)),
				node("Reshape", []string{"t", "s"}, []string{"r"}),
				node("Slice", []string{"r", "st", "en", "ax"}, []string{"sl"}),
				node("Concat", []string{"sl", "r"}, []string{"y"}, onnxbuild.AInt("axis", 1)),
			},
		},
		"gather": {
			Inputs:  []onnxbuild.Value{in("x", 3, 4), onnxbuild.Input("i", payload.Int64, 2)},
			Outputs: []onnxbuild.Value{in("y", 2)},
			Nodes: []onnxbuild.Node{
				node("Gather", []string{"x", "i"}, []string{"g"}, onnxbuild.AInt("axis", 0)),
				node("ReduceMean", []string{"g"}, []string{"y"}, onnxbuild.AInts("axes", 1), onnxbuild.AInt("keepdims", 0)),
			},
		},
		"resize": {
			Inputs:  []onnxbuild.Value{in("x", 1, 1, 2, 3)},
			Outputs: []onnxbuild.Value{in("y", 1, 1, 4, 6)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("sc", []int64{4}, []float32{1, 1, 2, 2}),
				onnxbuild.TensorOf("p", []int64{8}, []int64{0, 0, 1, 1, 0, 0, 1, 1}),
			},
			Nodes: []onnxbuild.Node{
				node("Resize", []string{"x", "", "sc"}, []string{"r"}, onnxbuild.AString("mode", "linear")),
				node("Pad", []string{"r", "p"}, []string{"pd"}),
				node("AveragePool", []string{"pd"}, []string{"y"}, onnxbuild.AInts("kernel_shape", 3, 3)),
			},
		},
		"norm": {
			Inputs:  []onnxbuild.Value{in("x", 2, 3, 2, 2)},
			Outputs: []onnxbuild.Value{in("y", 2, 3, 2, 2)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("sc", []int64{3}, []float32{1, 2, 3}),
				onnxbuild.TensorOf("b", []int64{3}, []float32{0, 1, 0}),
				onnxbuild.TensorOf("m", []int64{3}, []float32{0, 0, 1}),
				onnxbuild.TensorOf("v", []int64{3}, []float32{1, 1, 2}),
			},
			Nodes: []onnxbuild.Node{
				node("BatchNormalization", []string{"x", "sc", "b", "m", "v"}, []string{"bn"}),
				node("Sigmoid", []string{"bn"}, []string{"s"}),
				node("Mul", []string{"bn", "s"}, []string{"y"}),
			},
		},
		"expand": {
			Inputs:  []onnxbuild.Value{in("x", 3, 1)},
			Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Int64, -1, 1)},
			Initializers: []onnxbuild.Tensor{
				onnxbuild.TensorOf("s", []int64{2}, []int64{3, 4}),
				onnxbuild.TensorOf("r", []int64{2}, []int64{2, 1}),
			},
			Nodes: []onnxbuild.Node{
				node("Expand", []string{"x", "s"}, []string{"e"}),
				node("Tile", []string{"e", "r"}, []string{"t"}),
				node("ArgMax", []string{"t"}, []string{"a"}, onnxbuild.AInt("axis", 1)),
				node("Cast", []string{"a"}, []string{"y"}, onnxbuild.AInt("to", int64(payload.Int64))),
			},
		},
	}
	seeds := map[string][]byte{}
	for name, g := range models {
		g.Name = name
		m := onnxbuild.Model{Opset: 17, Graph: g}
		seeds[name] = m.Encode()
	}
	return seeds
}

// seedFree is the size the seeds give free dimensions.
const seedFree = 2

// fuzzInputs returns zero-filled inputs for m: free dimensions are free
// and an unknown rank is 1. It returns false when the inputs would be
// large.
func fuzzInputs(m compute.ModelMetadata, free int) (multi, bool) {
	var in multi
	for _, ti := range m.Inputs {
		shape := []int{free}
		if ti.Shape != nil {
			shape = make([]int, len(ti.Shape))
			for i, d := range ti.Shape {
				shape[i] = d
				if d < 0 {
					shape[i] = free
				}
			}
		}
		n := payload.NumElems(shape)
		if n < 0 || n > 1<<14 || !ti.DType.Valid() {
			return in, false
		}
		in.Tensors = append(in.Tensors, payload.Dynamic{Name: ti.Name, DType: ti.DType, Shape: shape,
			Data: payload.AsBytes(make([]uint64, (n*ti.DType.Size()+7)/8))[:n*ti.DType.Size()]})
	}
	return in, true
}

// FuzzLoad decodes, loads and runs fuzzed models on the CPU backend, with
// free input dimensions of size free%9. Every failure must be an error
// that matches a compute sentinel; a panic caught inside the backend
// (reported as an internal error) fails the target too.
func FuzzLoad(f *testing.F) {
	seeds := fuzzSeeds()
	for _, name := range sortedNames(seeds) {
		f.Add(seeds[name], uint8(seedFree))
	}
	lim := artifacts.Limits{MaxFileBytes: 1 << 20, MaxNodes: 256, MaxRank: 8, MaxTensorElems: 1 << 16, MaxInitializerBytes: 1 << 22, MaxDepth: 2}
	be := cpu.New[multi, multi](compute.Options{Threads: 1, MaxTensorBytes: 1 << 24})
	f.Fuzz(func(t *testing.T, data []byte, free uint8) {
		runFuzzModel(t, be, data, int(free%9), lim)
	})
}

// runFuzzModel decodes, loads and runs the model file data twice on
// zero-filled inputs whose free dimensions are free. Every failure must be
// an error matching a compute sentinel and not a panic caught inside the
// backend (reported as an internal error).
func runFuzzModel(t *testing.T, be *cpu.Backend[multi, multi], data []byte, free int, lim artifacts.Limits) {
	check := func(stage string, err error) bool {
		if err == nil {
			return true
		}
		if !isSentinel(err) {
			t.Fatalf("%s: error matches no sentinel: %v", stage, err)
		}
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s: %v", stage, err)
		}
		return false
	}
	art, err := artifacts.FromBytes(data, "fuzz.onnx", artifacts.WithLimits(lim))
	if !check("decode", err) {
		return
	}
	m, err := be.LoadModel(art)
	if !check("load", err) {
		return
	}
	defer m.Close()
	if !check("init", m.Init()) {
		return
	}
	in, ok := fuzzInputs(m.Metadata(), free)
	if !ok {
		return
	}
	var out multi
	for range 2 { // the second call runs on the buffers the first planned
		if !check("infer", m.InferOne(&in, &out)) {
			return
		}
	}
}

func sortedNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// TestFuzzLoadSeeds checks that every seed model runs and that
// testdata/fuzz holds the seeds of FuzzLoad and FuzzGraph; it rewrites
// them when run with -update-fuzz-seeds.
func TestFuzzLoadSeeds(t *testing.T) {
	bodies := map[string][]byte{}
	for name, data := range fuzzSeeds() {
		if err := runSeed(data); err != nil {
			t.Errorf("seed %s: %v", name, err)
		}
		bodies[filepath.Join("FuzzLoad", name)] = []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nbyte(%q)\n", data, uint8(seedFree)))
	}
	for i, data := range graphSeeds() {
		bodies[filepath.Join("FuzzGraph", fmt.Sprintf("seed%02d", i))] = []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nbyte(%q)\n", data, uint8(seedFree)))
	}
	for name, body := range bodies {
		path := filepath.Join("testdata", "fuzz", name)
		if *updateSeeds {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("seed %s is missing or stale (run go test ./backends/cpu -run TestFuzzLoadSeeds -update-fuzz-seeds): %v", path, err)
		}
	}
	// Generated seeds no generator makes any more (the op list shrank, or
	// a merge brought two lists' worth) are removed by the update.
	old, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzGraph", "seed*"))
	for _, path := range old {
		if _, ok := bodies[filepath.Join("FuzzGraph", filepath.Base(path))]; ok {
			continue
		}
		if *updateSeeds {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("seed %s is not generated any more (run go test ./backends/cpu -run TestFuzzLoadSeeds -update-fuzz-seeds)", path)
	}
}

// runSeed decodes, loads and runs a seed model once.
func runSeed(data []byte) error {
	art, err := artifacts.FromBytes(data, "seed.onnx")
	if err != nil {
		return err
	}
	m, err := cpu.New[multi, multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return err
	}
	in, ok := fuzzInputs(m.Metadata(), seedFree)
	if !ok {
		return fmt.Errorf("inputs too large")
	}
	var out multi
	return m.InferOne(&in, &out)
}
