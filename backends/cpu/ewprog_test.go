package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// sameF32 reports whether a and b are the same float32 (any NaN equals
// any NaN).
func sameF32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

// TestUnaryVecMatchesLoop checks the vector loops of the float32 unary
// kernel against the per-element loops they replace, on every length up
// to 600 (blocks and tails) with special values.
func TestUnaryVecMatchesLoop(t *testing.T) {
	cases := []struct {
		op   uop
		a, b float64
	}{{op: uRelu}, {op: uLeakyRelu, a: 0.01}, {op: uLeakyRelu, a: -2}, {op: uHardSigmoid, a: 0.2, b: 0.5}, {op: uHardSwish}, {op: uSigmoid}}
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), 3, -3, 20, -20}
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range cases {
		k := &unaryKernel{op: c.op, a: c.a, b: c.b, dt: payload.Float32}
		for _, n := range []int{0, 1, 7, 8, 9, 31, 255, 256, 257, 600} {
			x := make([]float32, n)
			for i := range x {
				x[i] = (r.Float32()*2 - 1) * 12
				if r.IntN(4) == 0 {
					x[i] = specials[r.IntN(len(specials))]
				}
			}
			got, want := make([]float32, n), make([]float32, n)
			if !unaryVec32(k, got, x) {
				t.Fatalf("op %d: no vector loop", c.op)
			}
			if c.op == uSigmoid {
				for i, v := range x {
					want[i] = sigmoid32(v)
				}
			} else {
				unaryFloat(k, want, x)
			}
			for i := range got {
				if !sameF32(got[i], want[i]) {
					t.Fatalf("op %d n=%d: element %d of %v is %v, want %v", c.op, n, i, x[i], got[i], want[i])
				}
			}
		}
	}
}

// ewModel is x (static shape) through Softmax (a value the program takes
// as a second input) and a chain of elementwise ops that FuseElementwise
// turns into one node.
func ewModel(r *rand.Rand, shape []int64) []byte {
	nd := func(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
		return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
	}
	g := onnxbuild.Graph{Name: "ew"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, shape...)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, shape...)}
	g.Initializers = []onnxbuild.Tensor{onnxbuild.Scalar("c", float32(0.25)), onnxbuild.Scalar("h", float32(0.5)),
		onnxbuild.TensorOf("w", []int64{1}, []float32{r.Float32()})}
	g.Nodes = []onnxbuild.Node{
		nd("Softmax", []string{"x"}, "sm"),
		nd("Add", []string{"x", "c"}, "a"),
		nd("Sigmoid", []string{"a"}, "s"),
		nd("Mul", []string{"s", "sm"}, "m"),
		nd("Sub", []string{"h", "m"}, "d"),
		nd("LeakyRelu", []string{"d"}, "l", onnxbuild.AFloat("alpha", 0.1)),
		nd("Mul", []string{"l", "x"}, "p"),
		nd("Max", []string{"p", "w"}, "y"),
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// TestElementwiseNode checks that FuseElementwise's node gives the bits
// of the ops it replaces, on one thread and two (a shape large enough to
// split), and allocates nothing per call.
func TestElementwiseNode(t *testing.T) {
	for _, shape := range [][]int64{{3, 5, 7}, {2, 8, 64, 70}} {
		for _, threads := range []int{1, 2} {
			r := rand.New(rand.NewPCG(9, uint64(len(shape))))
			onnx := ewModel(r, shape)
			fused, _ := loadFused(t, onnx, true, threads)
			plain, _ := loadFused(t, onnx, false, threads)
			ew := 0
			for _, n := range fused.prog.g.Nodes {
				if model.IsEwNode(n) {
					ew++
				}
			}
			if ew != 1 {
				t.Fatalf("shape %v: %d elementwise nodes, want 1", shape, ew)
			}
			n := 1
			for _, d := range shape {
				n *= int(d)
			}
			dims := make([]int, len(shape))
			for i, d := range shape {
				dims[i] = int(d)
			}
			x := fuseRand(r, n, 6)
			x[1] = float32(math.NaN())
			in := f32t{Shape: dims, Data: x}
			sameAsUnfused(t, fmt.Sprintf("shape %v threads=%d", shape, threads), fused, plain, &in, true)
		}
	}
}

// sameAsUnfused runs fused and plain on in and fails t unless their
// outputs have the same shape and bits (any NaN equals any NaN); with
// allocs set, it also wants fused to allocate nothing per call.
func sameAsUnfused(t *testing.T, name string, fused, plain *Model[f32t, f32t], in *f32t, allocs bool) {
	t.Helper()
	var got, want f32t
	if err := fused.InferOne(in, &got); err != nil {
		t.Fatalf("%s: fused: %v", name, err)
	}
	if err := plain.InferOne(in, &want); err != nil {
		t.Fatalf("%s: unfused: %v", name, err)
	}
	if !slices.Equal(got.Shape, want.Shape) {
		t.Fatalf("%s: output shape %v, want %v", name, got.Shape, want.Shape)
	}
	for i := range want.Data {
		if !sameF32(got.Data[i], want.Data[i]) {
			t.Fatalf("%s: element %d is %v fused, %v unfused", name, i, got.Data[i], want.Data[i])
		}
	}
	if !allocs {
		return
	}
	if a := testing.AllocsPerRun(5, func() {
		if err := fused.InferOne(in, &got); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%s: %v allocations per call, want 0", name, a)
	}
}

// TestEpilogueProgramAllocs checks that a Conv with a fused program
// allocates nothing per call.
func TestEpilogueProgramAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	onnx, shape := fuseModel(r, "Conv", "PaddleHardSwish")
	m, nf := loadFused(t, onnx, true, 1)
	if nf != 1 {
		t.Fatalf("%d fused nodes, want 1", nf)
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	in := f32t{Shape: shape, Data: fuseRand(r, n, 4)}
	var out f32t
	if got := testing.AllocsPerRun(10, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("%v allocations per call, want 0", got)
	}
}

// TestCompileEwSlots checks the block assignment of a tree-shaped
// program: input 0 used three times, and a result that needs a scratch
// block while it is live; and of a program with a result nothing reads.
func TestCompileEwSlots(t *testing.T) {
	dead := &model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Neg", X: 0, Y: -1, K: []float32{0, 0}}, // read by nothing
		{Op: "Add", X: 0, Y: -1, K: []float32{1}},
	}}
	for _, inPlace := range []bool{true, false} {
		if _, err := compileEw(dead, inPlace); err != nil {
			t.Errorf("program with an unread result, in place %v: %v", inPlace, err)
		}
	}
	p := &model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Add", X: 0, Y: -1, K: []float32{3}},     // r1 = x + 3
		{Op: "Clip", X: 1, Y: -1, K: []float32{0, 6}}, // r2 = clip(r1)
		{Op: "Mul", X: 0, Y: 2},                       // r3 = x * r2
		{Op: "Sub", X: 3, Y: 0},                       // r4 = r3 - x
		{Op: "Div", X: 4, Y: -1, K: []float32{6}, ConstFirst: true},
	}}
	c, err := compileEw(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.scratch != 1 {
		t.Errorf("%d scratch blocks, want 1", c.scratch)
	}
	if last := c.steps[len(c.steps)-1]; last.d != ewOut {
		t.Errorf("result in block %d, want the output", last.d)
	}
	d := []float32{-4, -1, 0, 2, 5, 9, float32(math.NaN()), 1.5, 0.25}
	want := make([]float32, len(d))
	for i, x := range d {
		r2 := min(max(x+3, 0), 6)
		want[i] = 6 / (x*r2 - x)
	}
	c.run(d, 0, len(d))
	for i := range d {
		if !sameF32(d[i], want[i]) {
			t.Errorf("element %d: %v, want %v", i, d[i], want[i])
		}
	}
}

// BenchmarkEwProgram times the epilogue programs of PP-OCRv4's
// HardSwish tail and openWakeWord's LeakyRelu and Max on a 64 Ki-element
// plane.
func BenchmarkEwProgram(b *testing.B) {
	progs := map[string]*model.EwProgram{
		"PaddleHardSwish": {Inputs: 1, Steps: []model.EwStep{
			{Op: "Mul", X: 0, Y: -1, K: []float32{1.1}}, {Op: "Add", X: 1, Y: -1, K: []float32{0.1}},
			{Op: "Add", X: 2, Y: -1, K: []float32{3}}, {Op: "Clip", X: 3, Y: -1, K: []float32{0, 6}},
			{Op: "Mul", X: 2, Y: 4}, {Op: "Div", X: 5, Y: -1, K: []float32{6}},
			{Op: "Mul", X: 6, Y: -1, K: []float32{0.9}}, {Op: "Add", X: 7, Y: -1, K: []float32{-0.1}}}},
		"GeluErf": &geluSpellings[0].p,
		"LeakyReluMax": {Inputs: 1, Steps: []model.EwStep{
			{Op: "LeakyRelu", X: 0, Y: -1, K: []float32{0.2, 0}}, {Op: "Max", X: 1, Y: -1, K: []float32{-0.5}}}},
	}
	for name, p := range progs {
		c, err := compileEw(p, true)
		if err != nil {
			b.Fatal(err)
		}
		d := fuseRand(rand.New(rand.NewPCG(1, 2)), 64<<10, 8)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(d)))
			for b.Loop() {
				c.run(d, 0, len(d))
			}
		})
	}
}

// TestUnaryThreads checks that a large float32 LeakyRelu split across two
// threads gives the one-thread loop's bits, and allocates nothing.
func TestUnaryThreads(t *testing.T) {
	g := onnxbuild.Graph{Name: "leaky"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 80000)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 80000)}
	g.Nodes = []onnxbuild.Node{{Name: "y", Op: "LeakyRelu", Inputs: []string{"x"}, Outputs: []string{"y"},
		Attrs: []onnxbuild.Attr{onnxbuild.AFloat("alpha", 0.3)}}}
	m, _ := loadFused(t, (&onnxbuild.Model{Opset: 17, Graph: g}).Encode(), true, 2)
	r := rand.New(rand.NewPCG(21, 22))
	x := fuseRand(r, 80000, 5)
	in := f32t{Shape: []int{1, 80000}, Data: x}
	var out f32t
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	want := append([]float32(nil), x...)
	leakyReluGo(want, 0.3)
	for i := range want {
		if !sameF32(out.Data[i], want[i]) {
			t.Fatalf("element %d is %v, want %v", i, out.Data[i], want[i])
		}
	}
	if got := testing.AllocsPerRun(10, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("%v allocations per call, want 0", got)
	}
}

// TestNamedTailsStandalone checks that each spelled-out activation of
// progActs, on a graph input rather than after a product, becomes one
// Elementwise node with the unfused graph's bits, which InferBatch can
// still stack.
func TestNamedTailsStandalone(t *testing.T) {
	for _, act := range progActs {
		r := rand.New(rand.NewPCG(31, uint64(len(act))))
		g := onnxbuild.Graph{Name: "tail"}
		g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 300)}
		g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 300)}
		g.Nodes, g.Initializers = actTail(act, "x", "y")
		onnx := (&onnxbuild.Model{Opset: 17, Graph: g}).Encode()
		fused, _ := loadFused(t, onnx, true, 1)
		plain, _ := loadFused(t, onnx, false, 1)
		if n := fused.prog.g.Nodes; len(n) != 1 || !model.IsEwNode(n[0]) {
			t.Fatalf("%s: %d nodes, want one Elementwise node", act, len(n))
		}
		if !fused.prog.stackable || !plain.prog.stackable {
			t.Errorf("%s: InferBatch stacks items %v fused, %v unfused, want both", act, fused.prog.stackable, plain.prog.stackable)
		}
		x := fuseRand(r, 600, 8)
		x[3] = float32(math.NaN())
		in := f32t{Shape: []int{2, 300}, Data: x}
		var a, b f32t
		if err := fused.InferOne(&in, &a); err != nil {
			t.Fatal(err)
		}
		if err := plain.InferOne(&in, &b); err != nil {
			t.Fatal(err)
		}
		for i := range a.Data {
			if !sameF32(a.Data[i], b.Data[i]) {
				t.Fatalf("%s: element %d is %v fused, %v unfused", act, i, a.Data[i], b.Data[i])
			}
		}
	}
}

// TestElementwiseBroadcastOperands checks programs whose operands
// broadcast along one run of axes: a squeeze-excitation scale computed
// in the graph (x + x·s, s of [N, C, 1, 1]) and per-channel, per-row and
// last-axis constants, on either side, through Add, Mul, Sub, Div and
// Max. Each graph must become one Elementwise node after the reduction,
// with the unfused graph's bits, on one thread and two, on planes that
// blocks straddle and planes that hold whole blocks, allocating nothing.
func TestElementwiseBroadcastOperands(t *testing.T) {
	for _, dims := range [][]int64{{2, 8, 9, 11}, {2, 8, 64, 64}} {
		n, c, h, w := dims[0], dims[1], dims[2], dims[3]
		r := rand.New(rand.NewPCG(41, uint64(h)))
		g := onnxbuild.Graph{Name: "bcast"}
		g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, dims...)}
		g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, dims...)}
		g.Initializers = []onnxbuild.Tensor{
			onnxbuild.TensorOf("axes", []int64{2}, []int64{2, 3}),
			onnxbuild.TensorOf("pc", []int64{c, 1, 1}, fuseRand(r, int(c), 2)),
			onnxbuild.TensorOf("pc4", []int64{1, c, 1, 1}, fuseRand(r, int(c), 2)),
			onnxbuild.TensorOf("last", []int64{w}, fuseRand(r, int(w), 2)),
			onnxbuild.TensorOf("plane", []int64{h, w}, fuseRand(r, int(h*w), 2)),
			onnxbuild.TensorOf("row", []int64{1, 1, h, 1}, fuseRand(r, int(h), 2)),
		}
		nd := func(op string, ins []string, out string) onnxbuild.Node {
			return onnxbuild.Node{Name: out, Op: op, Inputs: ins, Outputs: []string{out}}
		}
		g.Nodes = []onnxbuild.Node{
			{Name: "m", Op: "ReduceMean", Inputs: []string{"x", "axes"}, Outputs: []string{"m"}},
			nd("Sigmoid", []string{"m"}, "s"),
			nd("Mul", []string{"x", "s"}, "xs"),
			nd("Add", []string{"x", "xs"}, "se"),
			nd("Add", []string{"se", "pc"}, "a"),
			nd("Mul", []string{"pc4", "a"}, "b"),
			nd("Sub", []string{"last", "b"}, "d"),
			nd("Div", []string{"d", "plane"}, "e"),
			nd("Max", []string{"e", "row"}, "y"),
		}
		onnx := (&onnxbuild.Model{Opset: 18, Graph: g}).Encode()
		x := fuseRand(r, int(n*c*h*w), 4)
		x[5] = float32(math.NaN())
		in := f32t{Shape: []int{int(n), int(c), int(h), int(w)}, Data: x}
		plain, _ := loadFused(t, onnx, false, 1)
		for _, threads := range []int{1, 2} {
			fused, _ := loadFused(t, onnx, true, threads)
			var ops []string
			for _, nd := range fused.prog.g.Nodes {
				ops = append(ops, nd.OpType)
			}
			if len(ops) != 3 || ops[2] != model.EwOpType {
				t.Fatalf("%v: nodes %v, want the reduction, the Sigmoid and one Elementwise node", dims, ops)
			}
			sameAsUnfused(t, fmt.Sprintf("%v, %d threads", dims, threads), fused, plain, &in, true)
		}
	}
}

// TestElementwiseGeneralBroadcast checks a program fused on inputs of
// unknown dims whose operands, at run time, broadcast over two runs of
// axes, span the output with fewer dims, or match it with fewer dims,
// and whose first input is itself broadcast to a larger output: the
// same shape and bits as the unfused graph.
func TestElementwiseGeneralBroadcast(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	g := onnxbuild.Graph{Name: "general"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3, -1, -1)}
	g.Outputs = []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}}
	g.Initializers = []onnxbuild.Tensor{
		onnxbuild.TensorOf("cw", []int64{3, 1, 5}, fuseRand(r, 15, 2)),
		onnxbuild.TensorOf("ch", []int64{3, 4, 1}, fuseRand(r, 12, 2)),
		onnxbuild.TensorOf("cf", []int64{3, 4, 5}, fuseRand(r, 60, 2)),
	}
	g.Nodes = []onnxbuild.Node{
		{Name: "a", Op: "Mul", Inputs: []string{"x", "cw"}, Outputs: []string{"a"}},
		{Name: "b", Op: "Add", Inputs: []string{"ch", "a"}, Outputs: []string{"b"}},
		{Name: "c", Op: "Sub", Inputs: []string{"b", "cf"}, Outputs: []string{"c"}},
		{Name: "y", Op: "Relu", Inputs: []string{"c"}, Outputs: []string{"y"}},
	}
	onnx := (&onnxbuild.Model{Opset: 17, Graph: g}).Encode()
	plain, _ := loadFused(t, onnx, false, 1)
	fused, _ := loadFused(t, onnx, true, 1)
	if n := fused.prog.g.Nodes; len(n) != 1 || !model.IsEwNode(n[0]) {
		t.Fatalf("%d nodes, want one Elementwise node", len(n))
	}
	for _, shape := range [][]int{{2, 3, 4, 5}, {2, 3, 1, 5}, {1, 3, 4, 1}} {
		n := shape[0] * shape[1] * shape[2] * shape[3]
		in := f32t{Shape: shape, Data: fuseRand(r, n, 4)}
		sameAsUnfused(t, fmt.Sprintf("input %v", shape), fused, plain, &in, false)
	}
}

// TestBatchNormJoinsPrograms checks that an inference BatchNormalization
// after a node it cannot fold into becomes part of the elementwise
// program around it (model.SplitBatchNorm) with the BatchNormalization
// kernel's bits, on inputs of rank 4 and 2.
func TestBatchNormJoinsPrograms(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	const c = 6
	for _, rank := range []int{4, 2} {
		dims := []int64{-1, c, -1, -1}[:rank]
		g := onnxbuild.Graph{Name: "bn"}
		g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, dims...)}
		g.Outputs = []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}}
		variance := fuseRand(r, c, 1)
		for i := range variance {
			variance[i] = variance[i]*variance[i] + 0.01
		}
		g.Initializers = []onnxbuild.Tensor{
			onnxbuild.TensorOf("scale", []int64{c}, fuseRand(r, c, 2)),
			onnxbuild.TensorOf("beta", []int64{c}, fuseRand(r, c, 2)),
			onnxbuild.TensorOf("mean", []int64{c}, fuseRand(r, c, 2)),
			onnxbuild.TensorOf("var", []int64{c}, variance),
		}
		g.Nodes = []onnxbuild.Node{
			{Name: "a", Op: "Abs", Inputs: []string{"x"}, Outputs: []string{"a"}},
			{Name: "b", Op: "BatchNormalization", Inputs: []string{"a", "scale", "beta", "mean", "var"}, Outputs: []string{"b"},
				Attrs: []onnxbuild.Attr{onnxbuild.AFloat("epsilon", 1e-3)}},
			{Name: "y", Op: "Relu", Inputs: []string{"b"}, Outputs: []string{"y"}},
		}
		onnx := (&onnxbuild.Model{Opset: 15, Graph: g}).Encode()
		plain, _ := loadFused(t, onnx, false, 1)
		fused, _ := loadFused(t, onnx, true, 1)
		if n := fused.prog.g.Nodes; len(n) != 1 || !model.IsEwNode(n[0]) {
			t.Fatalf("rank %d: %d nodes, want one Elementwise node", rank, len(n))
		}
		shape := []int{3, c, 5, 7}[:rank]
		n := 1
		for _, d := range shape {
			n *= d
		}
		in := f32t{Shape: shape, Data: fuseRand(r, n, 4)}
		sameAsUnfused(t, fmt.Sprintf("rank %d (unfused: the BatchNormalization kernel)", rank), fused, plain, &in, true)
	}
}
