package stream

import (
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// sumModel is a running sum: total = x + state, stateN = total, for x of
// shape [1, 4].
func sumModel() []byte {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			onnxbuild.Input("x", payload.Float32, 1, 4),
			onnxbuild.Input("state", payload.Float32, 1, 4),
		},
		Outputs: []onnxbuild.Value{
			onnxbuild.Input("total", payload.Float32, 1, 4),
			onnxbuild.Input("stateN", payload.Float32, 1, 4),
		},
		Nodes: []onnxbuild.Node{
			{Op: "Add", Inputs: []string{"x", "state"}, Outputs: []string{"total"}},
			{Op: "Identity", Inputs: []string{"total"}, Outputs: []string{"stateN"}},
		},
	}}
	return m.Encode()
}

func load(t *testing.T) *backends.Model[payload.Multi, payload.Multi] {
	t.Helper()
	art, err := artifacts.FromBytes(sumModel(), "sum")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	if err := m.Init(); err != nil {
		t.Fatalf("Init: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestStreamCarriesState(t *testing.T) {
	s := New(load(t), []payload.Dynamic{
		payload.DynamicOf("x", payload.NewTensor[float32](1, 4)),
		payload.DynamicOf("state", payload.NewTensor[float32](1, 4)),
	}, []State{{In: "state", Out: "stateN"}})
	x, _ := payload.Typed[float32](*s.Input("x"))
	for k := 1; k <= 5; k++ {
		for i := range x.Data {
			x.Data[i] = float32(i + 1)
		}
		out, err := s.Step()
		if err != nil {
			t.Fatalf("Step %d: %v", k, err)
		}
		got, err := payload.Typed[float32](*out.Get("total"))
		if err != nil {
			t.Fatalf("Step %d: %v", k, err)
		}
		for i, g := range got.Data {
			if want := float32(k * (i + 1)); g != want {
				t.Fatalf("after %d steps: total[%d] = %v, want %v", k, i, g, want)
			}
		}
	}
	step := func() {
		if _, err := s.Step(); err != nil {
			t.Fatalf("Step: %v", err)
		}
	}
	if got := testing.AllocsPerRun(100, step); got != 0 {
		t.Errorf("got %v allocations per step, want 0", got)
	}
}
