//go:build cuda && cgo

package cuda

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// halfTol is the relative L2 error allowed against the CPU backend with
// the same 16-bit weights, and against float32 weights; halfTolLoose is
// the PP-OCR classifier's, whose two-class softmax on random input moves
// by 2.8e-3 (float16) and 1e-2 (bfloat16) with the CPU backend's own
// half weights.
var (
	halfTol      = map[payload.DType]float64{payload.Float16: 2e-3, payload.BF16: 1e-2}
	halfTolLoose = map[payload.DType]float64{payload.Float16: 1e-2, payload.BF16: 2e-2}
)

// With 16-bit weights, every product with a constant operand is recorded
// as a cuBLAS GemmEx call on that type for both operands (float32 C and
// compute), and products of two computed values (attention) stay SGEMM:
// over the stand-in driver, the models' calls as they reach cuBLAS.
func TestStandInHalfGemmEx(t *testing.T) {
	types := []struct {
		wt   payload.DType
		want uint8
	}{{payload.Float32, dtF32}, {payload.Float16, dtF16}, {payload.BF16, dtBF16}}
	models := []struct {
		name  string
		b     []byte
		shape []int
		mixed bool // has products of two computed values
	}{
		{"mlp", testmodels.MLP(), []int{2, 784}, false},
		{"cnn", testmodels.CNN(), []int{2, 3, 32, 32}, false},
		{"encoder", testmodels.Encoder(), []int{1, 32, 128}, true},
	}
	for _, ty := range types {
		for _, mc := range models {
			t.Run(ty.wt.String()+"/"+mc.name, func(t *testing.T) {
				cfg := standInConfig(t)
				var seen []gemmDesc
				open := cfg.Open
				cfg.Open = func() (core.Device, error) {
					d, err := open()
					if err == nil {
						d.(*standIn).onGemm = func(g gemmDesc) { seen = append(seen, g) }
					}
					return d, err
				}
				art, err := artifacts.FromBytes(mc.b, mc.name)
				if err != nil {
					t.Fatalf("artifacts.FromBytes: %v", err)
				}
				m, err := core.Load[f32, f32](cfg, compute.Options{WeightType: ty.wt}, art)
				if err != nil {
					t.Fatalf("core.Load: %v", err)
				}
				defer m.Close()
				if err := m.Init(); err != nil {
					t.Fatalf("m.Init: %v", err)
				}
				in := f32{Shape: mc.shape, Data: make([]float32, payload.NumElems(mc.shape))}
				var out f32
				if err := m.InferOne(&in, &out); err != nil {
					t.Fatalf("m.InferOne: %v", err)
				}
				half, single := 0, 0
				for _, g := range seen {
					if g.aType != g.bType {
						t.Fatalf("GEMM with A type %d and B type %d", g.aType, g.bType)
					}
					switch g.aType {
					case ty.want:
						half++
					case dtF32:
						single++
					default:
						t.Fatalf("GEMM on type %d with %s weights", g.aType, ty.wt)
					}
				}
				if half == 0 || (single != 0) != (mc.mixed && ty.want != dtF32) {
					t.Fatalf("%d GEMMs on the weight type, %d on float32", half, single)
				}
			})
		}
	}
}

// Over the stand-in driver, calls with half weights allocate nothing.
func TestStandInHalfAllocs(t *testing.T) {
	cfg := standInConfig(t)
	art, err := artifacts.FromBytes(testmodels.MLP(), "mlp")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := core.Load[f32, f32](cfg, compute.Options{WeightType: payload.BF16}, art)
	if err != nil {
		t.Fatalf("core.Load: %v", err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatalf("m.Init: %v", err)
	}
	in := f32{Shape: []int{2, 784}, Data: make([]float32, 2*784)}
	var out f32
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatalf("m.InferOne: %v", err)
		}
	}); n != 0 {
		t.Fatalf("InferOne with bfloat16 weights: %v allocations per call", n)
	}
}

// On the GPU, 16-bit weights stay within the formats' error of the CPU
// backend with the same weight type and of float32 weights, for one call
// and a batch, and calls allocate nothing.
func TestHalfWeightsMatchCPU(t *testing.T) {
	requireGPU(t)
	for _, wt := range []payload.DType{payload.Float16, payload.BF16} {
		for _, c := range modelCases() {
			t.Run(wt.String()+"/"+c.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(11, uint64(len(c.name))))
				tol := halfTol[wt]
				if strings.HasPrefix(c.name, "ppocr") {
					tol = halfTolLoose[wt]
				}
				gm := loadCUDA[f32, f32](t, c.onnx, compute.Options{WeightType: wt})
				in := f32{Shape: c.shape, Data: uniform(r, payload.NumElems(c.shape), 1)}
				var got f32
				for round := range 2 {
					if err := gm.InferOne(&in, &got); err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
				}
				for _, ref := range []payload.DType{payload.Float32, wt} {
					want := cpuRun(t, c.onnx, ref, &in)
					e := relL2(got.Data, want.Data)
					t.Logf("relative L2 error %.2g against the CPU backend with %s weights", e, ref)
					if e > tol || !sameShape(got.Shape, want.Shape) {
						t.Fatalf("against %s weights: shape %v (want %v), relative L2 error %.3g", ref, got.Shape, want.Shape, e)
					}
				}
				item := append([]int{1}, c.shape[1:]...)
				ins := []f32{{Shape: item, Data: uniform(r, payload.NumElems(item), 1)}, {Shape: item, Data: uniform(r, payload.NumElems(item), 1)}}
				outs := make([]f32, 2)
				if err := gm.InferBatch(batch.Of(ins), outs); err != nil {
					t.Fatalf("gm.InferBatch: %v", err)
				}
				for i := range ins {
					want := cpuRun(t, c.onnx, wt, &ins[i])
					if e := relL2(outs[i].Data, want.Data); e > tol {
						t.Fatalf("batch item %d: relative L2 error %.3g", i, e)
					}
				}
				if n := testing.AllocsPerRun(10, func() {
					if err := gm.InferOne(&in, &got); err != nil {
						t.Fatalf("gm.InferOne: %v", err)
					}
				}); n != 0 {
					t.Fatalf("InferOne: %v allocations per call", n)
				}
			})
		}
	}
}

// cpuRun runs one input on the CPU backend with weights of type wt.
func cpuRun(t *testing.T, b []byte, wt payload.DType, in *f32) f32 {
	t.Helper()
	art, err := artifacts.FromBytes(b, "test.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := cpu.New[f32, f32](compute.Options{WeightType: wt}).LoadModel(art)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatalf("m.Init: %v", err)
	}
	var out f32
	if err := m.InferOne(in, &out); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	return out
}
