package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// directModel is y = Transpose(Softmax(x) + x): the transpose, which
// writes the output, reads its input in another order than it writes.
// x is [3 37], y [37 3].
func directModel(t *testing.T) *Model[f32t, f32t] {
	t.Helper()
	g := onnxbuild.Graph{Name: "direct"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 3, 37)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 37, 3)}
	g.Nodes = []onnxbuild.Node{
		{Name: "s", Op: "Softmax", Inputs: []string{"x"}, Outputs: []string{"s"}},
		{Name: "a", Op: "Add", Inputs: []string{"s", "x"}, Outputs: []string{"a"}},
		{Name: "y", Op: "Transpose", Inputs: []string{"a"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInts("perm", 1, 0)}},
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	l, _ := loadFused(t, m.Encode(), false, 1)
	return l
}

// directTransposeModel is y = Transpose(x), x [3 37]: the node that
// writes the output reads the graph input.
func directTransposeModel(t *testing.T) *Model[f32t, f32t] {
	t.Helper()
	g := onnxbuild.Graph{Name: "direct"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 3, 37)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 37, 3)}
	g.Nodes = []onnxbuild.Node{{Name: "y", Op: "Transpose", Inputs: []string{"x"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInts("perm", 1, 0)}}}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	l, _ := loadFused(t, m.Encode(), false, 1)
	return l
}

// directWant is directModel's output, computed here.
func directWant(x []float32, rows int) []float32 {
	n := len(x) / rows
	y := make([]float32, len(x))
	for r := range rows {
		row := x[r*n : (r+1)*n]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, float64(v))
		}
		var s float64
		for _, v := range row {
			s += math.Exp(float64(v) - m)
		}
		for i, v := range row {
			y[i*rows+r] = float32(math.Exp(float64(v)-m)/s) + v
		}
	}
	return y
}

// TestDirectOutputShared checks that an output payload sharing the
// input's memory, whole or in part, still gets the right result when the
// output's node reads the graph input.
func TestDirectOutputShared(t *testing.T) {
	m := directTransposeModel(t)
	x := fuseRand(rand.New(rand.NewPCG(53, 54)), 3*37, 4)
	check := func(name string, got []float32) {
		t.Helper()
		for r := range 3 {
			for c := range 37 {
				if got[c*3+r] != x[r*37+c] {
					t.Fatalf("%s: y[%d][%d] is %v, want %v", name, c, r, got[c*3+r], x[r*37+c])
				}
			}
		}
	}
	same := f32t{Shape: []int{3, 37}, Data: append([]float32(nil), x...)}
	if err := m.InferOne(&same, &same); err != nil {
		t.Fatal(err)
	}
	check("output payload is the input", same.Data)
	big := make([]float32, 4*37)
	copy(big[37:], x)
	in := f32t{Shape: []int{3, 37}, Data: big[37:]}
	out := f32t{Data: big[:0]}
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("output payload overlaps the input", out.Data)
}

// TestDirectOutput checks that the output lands in the payload's own
// data when it has room (and in a new slice when it has not), and that a
// call allocates nothing once the output has room.
func TestDirectOutput(t *testing.T) {
	m := directModel(t)
	x := fuseRand(rand.New(rand.NewPCG(51, 52)), 3*37, 4)
	want := directWant(x, 3)
	check := func(name string, got []float32) {
		t.Helper()
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-6 {
				t.Fatalf("%s: element %d is %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	in := f32t{Shape: []int{3, 37}, Data: x}
	var out f32t
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("first call", out.Data)
	buf := make([]float32, 200)
	out = f32t{Data: buf[:0]}
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("payload with room", out.Data)
	if &out.Data[0] != &buf[0] || len(out.Data) != 3*37 {
		t.Fatalf("output data at %p (len %d), want the payload's %p (len %d)", &out.Data[0], len(out.Data), &buf[0], 3*37)
	}
	if m.x.direct[0] != nil {
		t.Fatalf("direct bytes kept after the call")
	}
	if a := testing.AllocsPerRun(20, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Fatalf("%v allocations a call, want 0", a)
	}
}

// directMultiModel has directModel's y and a second output z = Relu(x)
// + x, and a third, w, that is a Reshape (a view) of z: y and z are
// computed into slots, w is not eligible.
func directMultiModel(t *testing.T) *Model[payload.Multi, payload.Multi] {
	t.Helper()
	g := onnxbuild.Graph{Name: "direct"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 3, 37)}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 37, 3), onnxbuild.Input("z", payload.Float32, 3, 37), onnxbuild.Input("w", payload.Float32, 111)}
	g.Initializers = []onnxbuild.Tensor{onnxbuild.TensorOf("ws", []int64{1}, []int64{111})}
	g.Nodes = []onnxbuild.Node{
		{Name: "s", Op: "Softmax", Inputs: []string{"x"}, Outputs: []string{"s"}},
		{Name: "a", Op: "Add", Inputs: []string{"s", "x"}, Outputs: []string{"a"}},
		{Name: "y", Op: "Transpose", Inputs: []string{"a"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInts("perm", 1, 0)}},
		{Name: "r", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"r"}},
		{Name: "z", Op: "Add", Inputs: []string{"r", "x"}, Outputs: []string{"z"}},
		{Name: "w", Op: "Reshape", Inputs: []string{"z", "ws"}, Outputs: []string{"w"}},
	}
	return loadMulti(t, onnxbuild.Model{Opset: 17, Graph: g})
}

// TestDirectOutputMulti checks that each eligible tensor of a
// payload.Multi output lands in the payload's own data when it has room,
// that outputs sharing bytes with each other or with the input still
// get the right results, and that a call allocates nothing once the
// outputs have room.
func TestDirectOutputMulti(t *testing.T) {
	m := directMultiModel(t)
	x := fuseRand(rand.New(rand.NewPCG(55, 56)), 3*37, 4)
	wantY := directWant(x, 3)
	wantZ := make([]float32, len(x))
	for i, v := range x {
		wantZ[i] = max(v, 0) + v
	}
	check := func(name string, out *payload.Multi) {
		t.Helper()
		for i, want := range [][]float32{wantY, wantZ, wantZ} {
			got, ok := payload.FromBytes[float32](out.Tensors[i].Data)
			if !ok || len(got) != len(want) {
				t.Fatalf("%s: output %d: %d values (view %v), want %d", name, i, len(got), ok, len(want))
			}
			for j := range want {
				if d := math.Abs(float64(got[j] - want[j])); d > 1e-6 {
					t.Fatalf("%s: output %d element %d is %v, want %v", name, i, j, got[j], want[j])
				}
			}
		}
	}
	in := payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{3, 37}, Data: append([]float32(nil), x...)})}}
	var out payload.Multi
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("first call", &out)
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("second call", &out)
	for i, direct := range []bool{true, true, false} {
		v := &m.x.vals[m.x.p.outputs[i]]
		if got := &v.data[0] == &out.Tensors[i].Data[0]; got != direct {
			t.Errorf("output %d computed in the payload's data: %v, want %v", i, got, direct)
		}
	}
	for i, d := range m.x.direct {
		if d != nil {
			t.Fatalf("direct bytes of output %d kept after the call", i)
		}
	}
	if a := testing.AllocsPerRun(20, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Fatalf("%v allocations a call, want 0", a)
	}

	// y and z in one buffer: neither is computed there, and z gets new
	// bytes rather than overwrite y.
	shared := make([]byte, 4*3*37)
	out.Tensors[0].Data, out.Tensors[1].Data = shared[:0], shared[:0]
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("outputs sharing one buffer", &out)
	if &out.Tensors[1].Data[0] == &shared[0] {
		t.Errorf("output 1 reuses output 0's bytes")
	}
	for i := range 2 {
		if v := &m.x.vals[m.x.p.outputs[i]]; &v.data[0] == &out.Tensors[i].Data[0] {
			t.Errorf("output %d computed in a buffer the outputs share", i)
		}
	}

	// z's payload is the input's memory: z is computed in a slot (the
	// nodes after it read x) and copied there at the end.
	out.Tensors[1].Data = in.Tensors[0].Data[:0]
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	check("output sharing the input", &out)
	if v := &m.x.vals[m.x.p.outputs[1]]; &v.data[0] == &out.Tensors[1].Data[0] {
		t.Errorf("output 1 computed in the input's bytes")
	}
}
