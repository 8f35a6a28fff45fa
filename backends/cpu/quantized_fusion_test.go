package cpu_test

import (
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
	"github.com/lintel-ml/lintel/quantize"
)

// TestStaticQuantizedFusion checks that the QDQ units package quantize
// emits in static mode are fused at load into integer kernels: no float
// MatMul, Gemm or Conv is left in the loaded MLP and CNN.
func TestStaticQuantizedFusion(t *testing.T) {
	for _, c := range []struct {
		name  string
		model []byte
		shape []int
		want  map[string]int // integer ops and how many
	}{
		{"mlp", testmodels.MLP(), []int{8, 784}, map[string]int{"QLinearMatMul": 3}},
		{"cnn", testmodels.CNN(), []int{2, 3, 32, 32}, map[string]int{"QLinearConv": 2, "QLinearMatMul": 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := testmodels.Rand(5)
			x := payload.Dynamic{Name: "x", DType: payload.Float32, Shape: c.shape,
				Data: payload.AsBytes(testmodels.Uniform(r, payload.NumElems(c.shape), 1))}
			q, _, err := quantize.Model(c.model, quantize.Options{Mode: quantize.Static, Samples: []quantize.Sample{{x}}})
			if err != nil {
				t.Fatal(err)
			}
			art, err := artifacts.FromBytes(q, c.name)
			if err != nil {
				t.Fatal(err)
			}
			m, err := cpu.New[payload.Multi, payload.Multi](compute.Options{Threads: 1, Profile: true}).LoadModel(art)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if err := m.Init(); err != nil {
				t.Fatal(err)
			}
			in, out := payload.Multi{Tensors: []payload.Dynamic{x}}, payload.Multi{}
			if err := m.InferOne(&in, &out); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			var ops []string
			for _, n := range m.Profile().Nodes {
				op, _, _ := strings.Cut(n.Op, "+")
				ops = append(ops, n.Op)
				got[op]++
			}
			for _, op := range []string{"MatMul", "Gemm", "Conv"} {
				if got[op] != 0 {
					t.Errorf("ops %v: %d float %s left", ops, got[op], op)
				}
			}
			for op, n := range c.want {
				if got[op] != n {
					t.Errorf("ops %v: %d %s, want %d", ops, got[op], op, n)
				}
			}
		})
	}
}
