package gpu_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"

	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
)

// TestOpsMatchCPU runs every single-op case on both fake devices, with
// direct and im2col convolution, and on the CPU backend with the same
// random inputs.
func TestOpsMatchCPU(t *testing.T) {
	for _, md := range modes {
		for _, im2col := range []bool{false, true} {
			name := md.name
			if im2col {
				name += "/im2col"
			}
			t.Run(name, func(t *testing.T) {
				open := func() (gpu.Device, error) { d, _, _ := md.open(); return d, nil }
				gt.RunOpCases(t, gt.Config(open, im2col), 1e-5)
			})
		}
	}
}

// With Im2Col set, a Conv with few groups lowers to im2col and GEMM (and a
// bias add for several groups); a depthwise Conv, and any Conv without the
// option, stays a direct convolution.
func TestConvLowering(t *testing.T) {
	cases := []struct {
		name   string
		group  int64
		c, m   int64
		im2col bool
		want   []gpu.KernelID
	}{
		{"direct", 1, 4, 6, false, []gpu.KernelID{gpu.KConv2D}},
		{"im2col", 1, 4, 6, true, []gpu.KernelID{gpu.KIm2Col, gpu.KGemm}},
		{"im2col groups", 2, 4, 6, true, []gpu.KernelID{gpu.KIm2Col, gpu.KGemm, gpu.KBinary}},
		{"depthwise", 4, 4, 4, true, []gpu.KernelID{gpu.KConv2D}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			b := gt.OneOp(13, "Conv", payload.Float32, []ob.Value{gt.In("x", payload.Float32, 1, tc.c, 5, 5)},
				[]ob.Tensor{gt.W32("w", r, tc.m, tc.c/tc.group, 3, 3), gt.W32("b", r, tc.m)}, ob.AInt("group", tc.group))
			art, err := artifacts.FromBytes(b, "conv.onnx")
			if err != nil {
				t.Fatalf("artifacts.FromBytes: %v", err)
			}
			ks, err := gpu.PlanKernels(gt.Config(gt.Open(gt.New), tc.im2col), art, [][]int{{1, int(tc.c), 5, 5}})
			if err != nil {
				t.Fatalf("gpu.PlanKernels: %v", err)
			}
			if !slices.Equal(ks, tc.want) {
				t.Fatalf("kernels %v, want %v", ks, tc.want)
			}
		})
	}
}

// Ops computed from shapes alone (Shape, Size, ConstantOfShape, Constant)
// need no kernel: they fold once the input shapes are known, also on a
// free dim, and the model matches the CPU backend.
func TestShapeOnlyOpsFold(t *testing.T) {
	f32 := payload.Float32
	m := ob.Model{Opset: 17, Graph: ob.Graph{
		Inputs:  []ob.Value{gt.In("x", f32, -1, 3)},
		Outputs: []ob.Value{{Name: "y", DType: f32, NoShape: true}},
		Nodes: []ob.Node{
			{Op: "Shape", Inputs: []string{"x"}, Outputs: []string{"s"}},
			{Op: "ConstantOfShape", Inputs: []string{"s"}, Outputs: []string{"ones"}, Attrs: []ob.Attr{ob.ATensor("value", ob.TensorOf("", []int64{1}, []float32{1}))}},
			{Op: "Size", Inputs: []string{"x"}, Outputs: []string{"n"}},
			{Op: "Cast", Inputs: []string{"n"}, Outputs: []string{"nf"}, Attrs: []ob.Attr{ob.AInt("to", int64(f32))}},
			{Op: "Constant", Outputs: []string{"half"}, Attrs: []ob.Attr{ob.ATensor("value", ob.TensorOf("", []int64{}, []float32{0.5}))}},
			{Op: "Add", Inputs: []string{"x", "ones"}, Outputs: []string{"a"}},
			{Op: "Mul", Inputs: []string{"a", "nf"}, Outputs: []string{"b"}},
			{Op: "Mul", Inputs: []string{"b", "half"}, Outputs: []string{"y"}},
		},
	}}
	b := m.Encode()
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			open := func() (gpu.Device, error) { d, _, _ := md.open(); return d, nil }
			gm := gt.LoadOn(t, b, gt.Config(open, false))
			cm := gt.LoadCPU(t, b)
			r := rand.New(rand.NewPCG(5, 6))
			for _, n := range []int{2, 5} {
				in := payload.Multi{Tensors: []payload.Dynamic{gt.RandInput(r, "x", f32, []int{n, 3}, 0, 1)}}
				var got, want payload.Multi
				if err := cm.InferOne(&in, &want); err != nil {
					t.Fatalf("cm.InferOne: %v", err)
				}
				if err := gm.InferOne(&in, &got); err != nil {
					t.Fatalf("gm.InferOne: %v", err)
				}
				gt.CompareOutputs(t, got, want, 1e-6)
			}
		})
	}
}

// Every op of the CPU backend's first tier runs on the GPU backends: it has
// a lowering, or it is computed from shapes alone and folds away once the
// input shapes are known.
func TestTierOneCoverage(t *testing.T) {
	tier1 := []string{"Abs", "Add", "ArgMax", "AveragePool", "BatchNormalization", "Cast", "Clip", "Concat", "Constant",
		"ConstantOfShape", "Conv", "ConvTranspose", "Div", "Dropout", "Equal", "Erf", "Exp", "Expand", "Flatten", "Gather",
		"Gelu", "Gemm", "GlobalAveragePool", "GlobalMaxPool", "Greater", "HardSigmoid", "HardSwish", "Identity",
		"LayerNormalization", "LeakyRelu", "Less", "Log", "LogSoftmax", "MatMul", "Max", "MaxPool", "Min", "Mul", "Neg",
		"Not", "Pad", "Pow", "ReduceMax", "ReduceMean", "ReduceSum", "Relu", "Reshape", "Resize", "Shape", "Sigmoid",
		"Size", "Slice", "Softmax", "Split", "Sqrt", "Squeeze", "Sub", "Tanh", "Transpose", "Unsqueeze", "Where"}
	folded := map[string]bool{"Constant": true, "ConstantOfShape": true, "Shape": true, "Size": true}
	ops := gpu.SupportedOps()
	for _, op := range tier1 {
		if !folded[op] && !slices.Contains(ops, op) {
			t.Errorf("op %s has no GPU lowering", op)
		}
	}
}
