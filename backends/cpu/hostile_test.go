package cpu_test

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// TestHostileSizes builds models whose attributes and constant operands
// ask for enormous or overflowing shapes. Each must be refused with an
// error (at load or at inference) that matches a sentinel other than
// ErrExecutionFailed, without allocating what it asks for.
func TestHostileSizes(t *testing.T) {
	const big = math.MaxInt64
	f := payload.Float32
	x := onnxbuild.Input("x", f, 1, 2, 4, 4)
	i64 := func(name string, v ...int64) onnxbuild.Tensor {
		return onnxbuild.TensorOf(name, []int64{int64(len(v))}, v)
	}
	one := func(op string, ins []string, consts []onnxbuild.Tensor, attrs ...onnxbuild.Attr) onnxbuild.Graph {
		return onnxbuild.Graph{
			Inputs:       []onnxbuild.Value{x},
			Outputs:      []onnxbuild.Value{{Name: "y", DType: f, NoShape: true}},
			Initializers: consts,
			Nodes:        []onnxbuild.Node{{Name: "n", Op: op, Inputs: ins, Outputs: []string{"y"}, Attrs: attrs}},
		}
	}
	w := onnxbuild.TensorOf("w", []int64{1, 2, 3, 3}, make([]float32, 18))
	dw := onnxbuild.TensorOf("dw", []int64{2, 1, 3, 3}, make([]float32, 18))
	cases := []struct {
		name string
		g    onnxbuild.Graph
	}{
		{"conv pads", one("Conv", []string{"x", "w"}, []onnxbuild.Tensor{w}, onnxbuild.AInts("pads", big, 0, big, 0))},
		{"conv dilations", one("Conv", []string{"x", "w"}, []onnxbuild.Tensor{w}, onnxbuild.AInts("dilations", big, 1))},
		{"conv strides", one("Conv", []string{"x", "w"}, []onnxbuild.Tensor{w}, onnxbuild.AInts("strides", big, big), onnxbuild.AInts("pads", 1, 1, 1, 1))},
		{"conv same strides", one("Conv", []string{"x", "w"}, []onnxbuild.Tensor{w}, onnxbuild.AInts("strides", big, big), onnxbuild.AString("auto_pad", "SAME_UPPER"))},
		{"pool dilations", one("MaxPool", []string{"x"}, nil, onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("dilations", big, big))},
		{"pool ceil strides", one("MaxPool", []string{"x"}, nil, onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", big, big), onnxbuild.AInt("ceil_mode", 1))},
		{"avgpool ceil", one("AveragePool", []string{"x"}, nil, onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", big/2+1, 3), onnxbuild.AInt("ceil_mode", 1), onnxbuild.AInts("pads", 1, 1, 1, 1))},
		{"depthwise strides", one("Conv", []string{"x", "dw"}, []onnxbuild.Tensor{dw}, onnxbuild.AInt("group", 2), onnxbuild.AInts("strides", 1<<40, 1<<40), onnxbuild.AInts("pads", 1, 1, 1, 1))},
		{"depthwise pads", one("Conv", []string{"x", "dw"}, []onnxbuild.Tensor{dw}, onnxbuild.AInt("group", 2), onnxbuild.AInts("strides", 8, 8), onnxbuild.AInts("pads", 1<<14, 1<<14, 1<<14, 1<<14))},
		{"pool kernel", one("MaxPool", []string{"x"}, nil, onnxbuild.AInts("kernel_shape", big, 1))},
		{"pool pads", one("AveragePool", []string{"x"}, nil, onnxbuild.AInts("kernel_shape", 1, 1), onnxbuild.AInts("pads", 1<<40, 1<<40, 1<<40, 1<<40))},
		{"pad", one("Pad", []string{"x", "p"}, []onnxbuild.Tensor{i64("p", 0, 0, 1<<40, 1<<40, 0, 0, 1<<40, 1<<40)})},
		{"pad overflow", one("Pad", []string{"x", "p"}, []onnxbuild.Tensor{i64("p", 0, 0, big, 0, 0, 0, big, 0)})},
		{"tile", one("Tile", []string{"x", "r"}, []onnxbuild.Tensor{i64("r", 1<<40, 1<<40, 1, 1)})},
		{"tile overflow", one("Tile", []string{"x", "r"}, []onnxbuild.Tensor{i64("r", big, big, big, big)})},
		{"expand", one("Expand", []string{"x", "s"}, []onnxbuild.Tensor{i64("s", 1<<30, 1<<30, 4, 4)})},
		{"reshape", one("Reshape", []string{"x", "s"}, []onnxbuild.Tensor{i64("s", 1<<62, 4, -1)})},
		{"resize scales", one("Resize", []string{"x", "", "s"}, []onnxbuild.Tensor{onnxbuild.TensorOf("s", []int64{4}, []float32{1, 1, 1e30, 1e30})})},
		{"resize sizes", one("Resize", []string{"x", "", "", "s"}, []onnxbuild.Tensor{i64("s", 1, 2, big, big)})},
		{"upsample", one("Upsample", []string{"x", "s"}, []onnxbuild.Tensor{onnxbuild.TensorOf("s", []int64{4}, []float32{1, 1, float32(math.Inf(1)), 2})})},
		{"slice", one("Slice", []string{"x", "a", "b", "c", "d"}, []onnxbuild.Tensor{i64("a", -big), i64("b", big), i64("c", 3), i64("d", -big)})},
		{"constant of shape", onnxbuild.Graph{
			Inputs:  []onnxbuild.Value{onnxbuild.Input("s", payload.Int64, 3)},
			Outputs: []onnxbuild.Value{{Name: "y", DType: f, NoShape: true}},
			Nodes:   []onnxbuild.Node{{Op: "ConstantOfShape", Inputs: []string{"s"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{1}, []float32{1}))}}},
		}},
		{"range", onnxbuild.Graph{
			Inputs:       []onnxbuild.Value{onnxbuild.Input("s", f)},
			Outputs:      []onnxbuild.Value{{Name: "y", DType: f, NoShape: true}},
			Initializers: []onnxbuild.Tensor{onnxbuild.Scalar[float32]("l", 1e30), onnxbuild.Scalar[float32]("d", 1e-30)},
			Nodes:        []onnxbuild.Node{{Op: "Range", Inputs: []string{"s", "l", "d"}, Outputs: []string{"y"}}},
		}},
		{"gather", onnxbuild.Graph{
			Inputs:       []onnxbuild.Value{x},
			Outputs:      []onnxbuild.Value{{Name: "y", DType: f, NoShape: true}},
			Initializers: []onnxbuild.Tensor{i64("i", big, -big, 1<<40)},
			Nodes:        []onnxbuild.Node{{Op: "Gather", Inputs: []string{"x", "i"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 2)}}},
		}},
	}
	// Valid models after all, with one small output: they may run.
	mayRun := map[string]bool{"conv strides": true, "slice": true, "conv same strides": true, "pool ceil strides": true, "avgpool ceil": true, "depthwise strides": true, "depthwise pads": true}
	be := cpu.New[multi, multi](compute.Options{Threads: 1, MaxTensorBytes: 64 << 20})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onnxbuild.Model{Opset: 13, Graph: c.g}
			err := runOnce(be, m.Encode())
			switch {
			case err == nil && !mayRun[c.name]:
				t.Fatal("got no error, want the hostile model refused")
			case err != nil && (!isSentinel(err) || errors.Is(err, compute.ErrExecutionFailed)):
				t.Fatalf("got error %v, want one wrapping a sentinel other than ErrExecutionFailed (a refusal, not a kernel failure)", err)
			}
			checkMemory(t, c.name)
		})
	}
}

// runOnce loads and runs model file data once on inputs of ones, with
// ConstantOfShape-style int64 inputs asking for a huge shape.
func runOnce(be *cpu.Backend[multi, multi], data []byte) error {
	art, err := artifacts.FromBytes(data, "hostile.onnx")
	if err != nil {
		return err
	}
	m, err := be.LoadModel(art)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return err
	}
	in, _ := fuzzInputs(m.Metadata(), 1)
	for i, d := range in.Tensors {
		switch d.DType {
		case payload.Int64:
			v, _ := payload.FromBytes[int64](d.Data)
			for j := range v {
				v[j] = 1 << 40
			}
		case payload.Float32:
			v, _ := payload.FromBytes[float32](d.Data)
			for j := range v {
				v[j] = 1
			}
		}
		in.Tensors[i] = d
	}
	var out multi
	return m.InferOne(&in, &out)
}
