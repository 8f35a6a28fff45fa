package cuda

import (
	"math/rand/v2"
	"testing"

	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// extraCase is a small model testing an op the shared single-op cases
// leave out: views, ops needing positive inputs, several outputs.
type extraCase struct {
	name, op string
	onnx     []byte
	ins      []ob.Value
}

// extraCases returns the cases that, with gputest.OpCases, cover every
// op of SupportedOps.
func extraCases() []extraCase {
	f32, boo := payload.Float32, payload.Bool
	x := func(shape ...int64) []ob.Value { return []ob.Value{ob.Input("x", f32, shape...)} }
	y := func(dt payload.DType, names ...string) []ob.Value {
		vs := make([]ob.Value, len(names))
		for i, n := range names {
			vs[i] = ob.Value{Name: n, DType: dt, NoShape: true}
		}
		return vs
	}
	graph := func(opset int64, ins, outs []ob.Value, inits []ob.Tensor, nodes ...ob.Node) []byte {
		m := ob.Model{Opset: opset, Graph: ob.Graph{Inputs: ins, Outputs: outs, Initializers: inits, Nodes: nodes}}
		return m.Encode()
	}
	node := func(op string, in, out []string, attrs ...ob.Attr) ob.Node {
		return ob.Node{Name: out[0], Op: op, Inputs: in, Outputs: out, Attrs: attrs}
	}
	xz := []ob.Value{ob.Input("x", f32, 2, 3), ob.Input("z", f32, 3)}
	return []extraCase{
		{"Dropout", "Dropout", graph(13, x(3, 4), y(f32, "y"), nil, node("Dropout", []string{"x"}, []string{"y"})), x(3, 4)},
		{"Flatten", "Flatten", graph(13, x(2, 3, 4), y(f32, "y"), nil, node("Flatten", []string{"x"}, []string{"y"}, ob.AInt("axis", 2))), x(2, 3, 4)},
		{"Identity", "Identity", graph(13, x(3, 4), y(f32, "y"), nil, node("Identity", []string{"x"}, []string{"y"})), x(3, 4)},
		{"Squeeze", "Squeeze", graph(13, x(2, 1, 3), y(f32, "y"), []ob.Tensor{gputest.Ints("a", 1)}, node("Squeeze", []string{"x", "a"}, []string{"y"})), x(2, 1, 3)},
		{"Unsqueeze", "Unsqueeze", graph(13, x(2, 3), y(f32, "y"), []ob.Tensor{gputest.Ints("a", 0, 2)}, node("Unsqueeze", []string{"x", "a"}, []string{"y"})), x(2, 3)},
		{"Greater", "Greater", graph(13, xz, y(boo, "y"), nil, node("Greater", []string{"x", "z"}, []string{"y"})), xz},
		{"LessOrEqual", "LessOrEqual", graph(13, xz, y(boo, "y"), nil, node("LessOrEqual", []string{"x", "z"}, []string{"y"})), xz},
		{"Log of Abs", "Log", graph(13, x(3, 5), y(f32, "y"), nil,
			node("Abs", []string{"x"}, []string{"a"}), node("Log", []string{"a"}, []string{"y"})), x(3, 5)},
		{"Sqrt of Abs", "Sqrt", graph(13, x(3, 5), y(f32, "y"), nil,
			node("Abs", []string{"x"}, []string{"a"}), node("Sqrt", []string{"a"}, []string{"y"})), x(3, 5)},
		{"ReduceMin", "ReduceMin", graph(13, x(2, 3, 4), y(f32, "y"), nil, node("ReduceMin", []string{"x"}, []string{"y"}, ob.AInts("axes", 1))), x(2, 3, 4)},
		{"Split", "Split", graph(13, x(4, 6), y(f32, "y0", "y1"), []ob.Tensor{gputest.Ints("s", 2, 4)},
			node("Split", []string{"x", "s"}, []string{"y0", "y1"}, ob.AInt("axis", 1))), x(4, 6)},
	}
}

// Every op the backend claims has a case that the GPU test
// (TestOpsMatchCPU) runs against the CPU backend.
func TestOpCasesCoverSupportedOps(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range gputest.OpCases() {
		covered[c.Op] = true
	}
	for _, c := range extraCases() {
		covered[c.op] = true
	}
	for _, op := range SupportedOps() {
		if !covered[op] {
			t.Errorf("no single-op case for %s", op)
		}
	}
}

// runExtraCases runs every extra case with cfg and on the CPU backend on
// the same random inputs, twice per model, and compares the outputs.
func runExtraCases(t *testing.T, cfg *core.Config, tol float64) {
	for _, c := range extraCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(2, uint64(len(c.name))))
			gm := gputest.LoadOn(t, c.onnx, cfg)
			cm := gputest.LoadCPU(t, c.onnx)
			for round := range 2 {
				var in, got, want payload.Multi
				for _, v := range c.ins {
					shape := make([]int, len(v.Shape))
					for j, d := range v.Shape {
						shape[j] = int(d)
					}
					in.Tensors = append(in.Tensors, gputest.RandInput(r, v.Name, v.DType, shape, 0, 1))
				}
				if err := cm.InferOne(&in, &want); err != nil {
					t.Fatalf("cm.InferOne: %v", err)
				}
				if err := gm.InferOne(&in, &got); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				gputest.CompareOutputs(t, got, want, tol)
			}
		})
	}
}

// The extra cases hold on the shared layer's fake device in CUDA's mode,
// so that a GPU run tests the kernels, not the cases.
func TestExtraCasesOnFake(t *testing.T) {
	runExtraCases(t, gputest.Config(gputest.Open(gputest.NewRecorder), true), 1e-5)
}
