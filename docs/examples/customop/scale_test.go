package customop

import (
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

type T = payload.Tensor[float32]

// scaleModel is y = Relu(Scale(x, factor=2.5)) for x of shape [N, 3].
func scaleModel() []byte {
	m := onnxbuild.Model{Opsets: map[string]int64{"com.example": 1}, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 3)},
		Nodes: []onnxbuild.Node{
			{Name: "scale", Op: "Scale", Domain: "com.example", Inputs: []string{"x"}, Outputs: []string{"s"},
				Attrs: []onnxbuild.Attr{onnxbuild.AFloat("factor", 2.5)}},
			{Name: "relu", Op: "Relu", Inputs: []string{"s"}, Outputs: []string{"y"}},
		},
	}}
	return m.Encode()
}

func TestScale(t *testing.T) {
	art, err := artifacts.FromBytes(scaleModel(), "scale.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if issues := cpu.Check(art, compute.Options{}); len(issues) != 0 {
		t.Fatalf("Check: %v", issues)
	}
	m, err := cpu.New[T, T](compute.Options{Profile: true}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	in := T{Shape: []int{1, 3}, Data: []float32{-1, 0, 2}}
	var out T
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	want := []float32{0, 0, 5}
	for i, w := range want {
		if out.Data[i] != w {
			t.Fatalf("got %v, want %v", out.Data, want)
		}
	}
	// A custom node is profiled like any other.
	if p := m.Profile(); len(p.Nodes) != 2 || p.Nodes[0].Op != "Scale" || p.Nodes[0].Calls != 1 {
		t.Errorf("profile nodes %+v, want Scale then Relu, one call each", p.Nodes)
	}
	if got := testing.AllocsPerRun(10, func() { _ = m.InferOne(&in, &out) }); got != 0 {
		t.Errorf("InferOne allocates %v times per call, want 0", got)
	}
}
