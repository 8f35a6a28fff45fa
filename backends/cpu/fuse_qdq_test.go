package cpu

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// qdqModels are the generated QDQ models and their input shapes.
var qdqModels = []struct {
	name  string
	model func() []byte
	x     []int
	ops   []string // the ops left after the load-time passes
}{
	{"cnn_u8", func() []byte { return testmodels.QDQCNN(payload.Uint8, false) }, []int{1, 3, 64, 64},
		[]string{"QuantizeLinear", "QLinearConv", "QLinearConv", "MaxPool", "QLinearConv", "QLinearAdd", "QLinearConv",
			"QLinearGlobalAveragePool", "Flatten", "QLinearMatMul", "DequantizeLinear"}},
	{"cnn_s8", func() []byte { return testmodels.QDQCNN(payload.Int8, false) }, []int{2, 3, 64, 64}, nil},
	{"mlp_u8", func() []byte { return testmodels.QDQMLP(payload.Uint8, false, false) }, []int{4, 256},
		[]string{"QuantizeLinear", "QLinearMatMul", "QLinearMatMul", "QLinearMatMul", "DequantizeLinear"}},
	{"mlp_s8_per_channel", func() []byte { return testmodels.QDQMLP(payload.Int8, true, false) }, []int{4, 256}, nil},
}

// TestFuseQDQModels checks what the load-time passes leave of the
// generated QDQ models, that the fused models agree with the unfused ones
// (the integer kernels and the float ops between DequantizeLinear and
// QuantizeLinear may round a value differently: by one step at most, on
// few values) and that a call allocates nothing.
func TestFuseQDQModels(t *testing.T) {
	for _, c := range qdqModels {
		t.Run(c.name, func(t *testing.T) {
			ops := optimizedOps(t, c.model())
			art, err := artifacts.FromBytes(c.model(), c.name)
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range ops {
				if op == "Conv" || op == "MatMul" || op == "Gemm" {
					t.Fatalf("ops %v: a %s is left", ops, op)
				}
			}
			if c.ops != nil && !slices.Equal(ops, c.ops) {
				t.Fatalf("ops %v, want %v", ops, c.ops)
			}
			r := rand.New(rand.NewPCG(7, 7))
			n := payload.NumElems(c.x)
			xs := make([]float32, n)
			for i := range xs {
				xs[i] = r.Float32()*2 - 1
			}
			in := payload.Multi{Tensors: []payload.Dynamic{{Name: "x", DType: payload.Float32, Shape: c.x, Data: payload.AsBytes(xs)}}}
			run := func() (*Model[payload.Multi, payload.Multi], *payload.Multi) {
				m, err := New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Init(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = m.Close() })
				out := &payload.Multi{}
				if err := m.InferOne(&in, out); err != nil {
					t.Fatal(err)
				}
				return m, out
			}
			m, fused := run()
			t.Setenv("LINTEL_QDQ_FUSION", "0")
			_, plain := run()
			q, p := fused.Tensors[1], plain.Tensors[1]
			if q.Name != "y_q" || !slices.Equal(q.Shape, p.Shape) || len(q.Data) != len(p.Data) {
				t.Fatalf("fused %s %v, unfused %s %v", q.Name, q.Shape, p.Name, p.Shape)
			}
			bad := 0
			for i := range q.Data {
				d := int(q.Data[i]) - int(p.Data[i])
				if q.DType == payload.Int8 {
					d = int(int8(q.Data[i])) - int(int8(p.Data[i]))
				}
				if d != 0 {
					bad++
				}
				if d > 1 || d < -1 {
					t.Fatalf("y_q[%d]: fused %d, unfused %d", i, q.Data[i], p.Data[i])
				}
			}
			if bad*10 > len(q.Data) {
				t.Fatalf("%d of %d values of y_q differ", bad, len(q.Data))
			}
			if got := testing.AllocsPerRun(10, func() {
				if err := m.InferOne(&in, fused); err != nil {
					t.Fatal(err)
				}
			}); got != 0 {
				t.Fatalf("InferOne allocates %v times per call, want 0", got)
			}
		})
	}
}
