package gpu_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// halfCfg is a fake configuration that runs half GEMMs, as CUDA's, with
// Conv lowered to im2col.
func halfCfg(md mode) *gpu.Config {
	cfg := gt.Config(func() (gpu.Device, error) { d, _, _ := md.open(); return d, nil }, true)
	cfg.HalfGemm = true
	return cfg
}

func loadHalf(t testing.TB, b []byte, cfg *gpu.Config, wt payload.DType) *gpu.Model[f32t, f32t] {
	t.Helper()
	art, err := artifacts.FromBytes(b, "half.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := gpu.Load[f32t, f32t](cfg, compute.Options{WeightType: wt}, art)
	if err != nil {
		t.Fatalf("gpu.Load: %v", err)
	}
	if err := m.Init(); err != nil {
		t.Fatalf("m.Init: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func cpuOut(t *testing.T, b []byte, wt payload.DType, x *f32t) f32t {
	t.Helper()
	art, err := artifacts.FromBytes(b, "half.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := cpu.New[f32t, f32t](compute.Options{WeightType: wt}).LoadModel(art)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatalf("m.Init: %v", err)
	}
	var y f32t
	if err := m.InferOne(x, &y); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	return y
}

// relL2 is ‖got − want‖ / ‖want‖.
func relL2(got, want []float32) float64 {
	var num, den float64
	for i := range want {
		d := float64(got[i]) - float64(want[i])
		num += d * d
		den += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(num) / math.Max(math.Sqrt(den), 1e-30)
}

// With 16-bit weights on a device that runs half GEMMs, an MLP, a CNN
// (Conv through im2col), a transformer encoder layer and the PP-OCR
// classifier stay within the half formats' error of the CPU
// backend with the same weight type and of float32 weights, on both fake
// devices, InferOne and InferBatch alike.
func TestHalfWeightsMatchCPU(t *testing.T) {
	// loose is set for the PP-OCR classifier: on random input its
	// two-class softmax moves by 2.8e-3 (float16) and 1e-2 (bfloat16)
	// with the CPU backend's own half weights, so it is held to 1e-2 and
	// 2e-2.
	models := []struct {
		name  string
		b     []byte
		shape []int
		loose bool
	}{
		{"mlp", testmodels.MLP(), []int{4, 784}, false},
		{"cnn", testmodels.CNN(), []int{2, 3, 32, 32}, false},
		{"encoder", testmodels.Encoder(), []int{1, 32, 128}, false},
		{"ppocr", models.PPOCRClassifier, []int{1, 3, 48, 192}, true},
	}
	types := []struct {
		dt         payload.DType
		tol, loose float64
	}{{payload.Float16, 2e-3, 1e-2}, {payload.BF16, 1e-2, 2e-2}}
	for _, mc := range models {
		r := rand.New(rand.NewPCG(7, 8))
		x := randT(r, mc.shape...)
		ref32 := cpuOut(t, mc.b, payload.Float32, &x)
		for _, ty := range types {
			refHalf := cpuOut(t, mc.b, ty.dt, &x)
			t.Run(mc.name+"/"+ty.dt.String(), func(t *testing.T) {
				forModes(t, func(t *testing.T, md mode) {
					m := loadHalf(t, mc.b, halfCfg(md), ty.dt)
					var y f32t
					if err := m.InferOne(&x, &y); err != nil {
						t.Fatalf("m.InferOne: %v", err)
					}
					if !slices.Equal(y.Shape, ref32.Shape) {
						t.Fatalf("shape %v, want %v", y.Shape, ref32.Shape)
					}
					e32, eHalf := relL2(y.Data, ref32.Data), relL2(y.Data, refHalf.Data)
					t.Logf("relative L2 error: %.2g against float32 weights, %.2g against the CPU backend's %s weights (CPU %s against float32: %.2g)",
						e32, eHalf, ty.dt, ty.dt, relL2(refHalf.Data, ref32.Data))
					tol := ty.tol
					if mc.loose {
						tol = ty.loose
					}
					if e32 > tol || eHalf > tol || math.IsNaN(e32) || math.IsNaN(eHalf) {
						t.Fatalf("relative L2 error %.3g (float32 weights), %.3g (CPU %s) > %.3g", e32, eHalf, ty.dt, tol)
					}
					// Row by row, InferBatch gives InferOne's values.
					items := splitRows(x)
					outs := make([]f32t, len(items))
					if err := m.InferBatch(batch.Of(items), outs); err != nil {
						t.Fatalf("m.InferBatch: %v", err)
					}
					per := len(y.Data) / len(items)
					for i := range outs {
						if !slices.Equal(outs[i].Data, y.Data[i*per:(i+1)*per]) {
							t.Fatalf("InferBatch item %d differs from InferOne", i)
						}
					}
				})
			})
		}
	}
}

// splitRows returns x's items along its first dim as batch-1 tensors.
func splitRows(x f32t) []f32t {
	n := x.Shape[0]
	per := len(x.Data) / n
	out := make([]f32t, n)
	for i := range out {
		shape := append([]int{1}, x.Shape[1:]...)
		out[i] = f32t{Shape: shape, Data: x.Data[i*per : (i+1)*per]}
	}
	return out
}

// The lowering: a GEMM step with a constant operand casts the other
// operand and runs on 16-bit A and B, whose weights take half the bytes;
// a product of two computed values stays float32; a configuration
// without HalfGemm (Metal) ignores the weight type.
func TestHalfGemmLowering(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	matmul := gt.OneOp(13, "MatMul", payload.Float32, []ob.Value{gt.In("x0", payload.Float32, 3, 8)},
		[]ob.Tensor{gt.W32("w", r, 8, 5)})
	gemmT := gt.OneOp(13, "Gemm", payload.Float32, []ob.Value{gt.In("x0", payload.Float32, 3, 8)},
		[]ob.Tensor{gt.W32("w", r, 5, 8), gt.W32("c", r, 5)}, ob.AInt("transB", 1))
	two := gt.OneOp(13, "MatMul", payload.Float32, []ob.Value{gt.In("x0", payload.Float32, 3, 8), gt.In("x1", payload.Float32, 8, 5)}, nil)
	conv := gt.OneOp(13, "Conv", payload.Float32, []ob.Value{gt.In("x0", payload.Float32, 1, 4, 5, 5)},
		[]ob.Tensor{gt.W32("w", r, 6, 4, 3, 3), gt.W32("b", r, 6)})
	cases := []struct {
		name      string
		b         []byte
		shapes    [][]int
		half      bool
		wt        payload.DType
		ks        []gpu.KernelID
		ab        []uint32
		constSize int
	}{
		{"matmul f16", matmul, [][]int{{3, 8}}, true, payload.Float16, []gpu.KernelID{gpu.KCast, gpu.KGemm}, []uint32{gpu.TF16}, 8 * 5 * 2},
		{"matmul bf16", matmul, [][]int{{3, 8}}, true, payload.BF16, []gpu.KernelID{gpu.KCast, gpu.KGemm}, []uint32{gpu.TBF16}, 8 * 5 * 2},
		{"matmul f32", matmul, [][]int{{3, 8}}, true, payload.Float32, []gpu.KernelID{gpu.KGemm}, []uint32{gpu.TF32}, 8 * 5 * 4},
		{"matmul no HalfGemm", matmul, [][]int{{3, 8}}, false, payload.Float16, []gpu.KernelID{gpu.KGemm}, []uint32{gpu.TF32}, 8 * 5 * 4},
		{"gemm transB bias", gemmT, [][]int{{3, 8}}, true, payload.Float16, []gpu.KernelID{gpu.KCast, gpu.KGemm}, []uint32{gpu.TF16}, 5*8*2 + 5*4},
		{"two inputs", two, [][]int{{3, 8}, {8, 5}}, true, payload.Float16, []gpu.KernelID{gpu.KGemm}, []uint32{gpu.TF32}, 0},
		{"conv im2col", conv, [][]int{{1, 4, 5, 5}}, true, payload.BF16, []gpu.KernelID{gpu.KIm2Col, gpu.KCast, gpu.KGemm}, []uint32{gpu.TBF16}, 6*4*9*2 + 6*4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			art, err := artifacts.FromBytes(tc.b, "op.onnx")
			if err != nil {
				t.Fatalf("artifacts.FromBytes: %v", err)
			}
			cfg := gt.Config(gt.Open(gt.New), true)
			cfg.HalfGemm = tc.half
			ks, ab, cb, err := gpu.HalfPlan(cfg, tc.wt, art, tc.shapes)
			if err != nil {
				t.Fatalf("gpu.HalfPlan: %v", err)
			}
			if !slices.Equal(ks, tc.ks) || !slices.Equal(ab, tc.ab) || cb != tc.constSize {
				t.Fatalf("kernels %v, ABType %v, %d constant bytes; want %v, %v, %d", ks, ab, cb, tc.ks, tc.ab, tc.constSize)
			}
		})
	}
}

// A weight type other than float32, float16 and bfloat16 is refused at
// load, naming it, with or without HalfGemm; float16 weights beyond its
// range are refused naming the weight, and bfloat16 takes them.
func TestHalfWeightsRefused(t *testing.T) {
	wide := make([]float32, 40)
	wide[7] = 70000
	big := ob.TensorOf("w", []int64{8, 5}, wide)
	b := gt.OneOp(13, "MatMul", payload.Float32, []ob.Value{gt.In("x0", payload.Float32, 3, 8)}, []ob.Tensor{big})
	art, err := artifacts.FromBytes(b, "op.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	cases := []struct {
		name string
		half bool
		wt   payload.DType
		want string // "" for success
	}{
		{"int8", true, payload.Int8, "weight type int8"},
		{"int8 without HalfGemm", false, payload.Int8, "weight type int8"},
		{"float64", true, payload.Float64, "weight type float64"},
		{"f16 beyond range", true, payload.Float16, `weight "w" holds 70000`},
		{"f16 beyond range without HalfGemm", false, payload.Float16, ""},
		{"bf16 wide", true, payload.BF16, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gt.Config(gt.Open(gt.NewRecorder), true)
			cfg.HalfGemm = tc.half
			m, err := gpu.Load[multi, multi](cfg, compute.Options{WeightType: tc.wt}, art)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				m.Close()
				return
			}
			if err == nil {
				m.Close()
				t.Fatalf("LoadModel: got no error, want compute.ErrUnsupported naming %q", tc.want)
			}
			if !errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrUnsupported naming %s", err, tc.want)
			}
		})
	}
}

// Calls allocate nothing with half weights, and the narrowed weights,
// shared by every plan of the model, survive the eviction of plans.
func TestHalfWeightsSteadyState(t *testing.T) {
	forModes(t, func(t *testing.T, md mode) {
		r := rand.New(rand.NewPCG(9, 10))
		b := mlp(r)
		m := loadHalf(t, b, halfCfg(md), payload.Float16)
		x := randT(r, 4, 16)
		var y f32t
		if err := m.InferOne(&x, &y); err != nil {
			t.Fatalf("m.InferOne: %v", err)
		}
		want := slices.Clone(y.Data)
		if n := testing.AllocsPerRun(50, func() {
			if err := m.InferOne(&x, &y); err != nil {
				t.Fatalf("m.InferOne: %v", err)
			}
		}); n != 0 {
			t.Fatalf("InferOne: %v allocations per call", n)
		}
		items := []f32t{x, randT(r, 4, 16)}
		outs := make([]f32t, 2)
		bt := batch.Of(items)
		if err := m.InferBatch(bt, outs); err != nil {
			t.Fatalf("m.InferBatch: %v", err)
		}
		if n := testing.AllocsPerRun(50, func() {
			if err := m.InferBatch(bt, outs); err != nil {
				t.Fatalf("m.InferBatch: %v", err)
			}
		}); n != 0 {
			t.Fatalf("InferBatch: %v allocations per call", n)
		}
		// More batch sizes than the model keeps plans for.
		for n := 1; n <= gpu.MaxPlans+2; n++ {
			xn := randT(r, n, 16)
			var yn f32t
			if err := m.InferOne(&xn, &yn); err != nil {
				t.Fatalf("m.InferOne: %v", err)
			}
		}
		if err := m.InferOne(&x, &y); err != nil {
			t.Fatalf("m.InferOne: %v", err)
		}
		if !slices.Equal(y.Data, want) {
			t.Fatal("after plans were evicted, the output changed")
		}
	})
}

// The single-op cases of MatMul, Gemm and Conv (weights as B or as A,
// transposed, broadcast, grouped, depthwise, 1-D) with 16-bit weights on
// both fake devices stay within the formats' error of float32 weights on
// the CPU backend.
func TestHalfWeightsOpCases(t *testing.T) {
	for _, ty := range []struct {
		dt  payload.DType
		tol float64
	}{{payload.Float16, 2e-3}, {payload.BF16, 1e-2}} {
		for _, tc := range gt.OpCases() {
			if tc.Op != "MatMul" && tc.Op != "Gemm" && tc.Op != "Conv" {
				continue
			}
			t.Run(ty.dt.String()+"/"+tc.Name, func(t *testing.T) {
				forModes(t, func(t *testing.T, md mode) {
					r := rand.New(rand.NewPCG(1, uint64(len(tc.Name))))
					b := gt.OneOp(tc.Opset, tc.Op, tc.Out, tc.Ins, tc.Inits(r), tc.Attrs...)
					art, err := artifacts.FromBytes(b, "op.onnx")
					if err != nil {
						t.Fatalf("artifacts.FromBytes: %v", err)
					}
					gm, err := gpu.Load[multi, multi](halfCfg(md), compute.Options{WeightType: ty.dt}, art)
					if err != nil {
						t.Fatalf("gpu.Load: %v", err)
					}
					defer gm.Close()
					if err := gm.Init(); err != nil {
						t.Fatalf("gm.Init: %v", err)
					}
					cm := gt.LoadCPU(t, b)
					var inp multi
					for k, v := range tc.Ins {
						shape := make([]int, len(v.Shape))
						for j, d := range v.Shape {
							shape[j] = int(d)
						}
						if tc.Shapes != nil {
							shape = tc.Shapes[k]
						}
						inp.Tensors = append(inp.Tensors, gt.RandInput(r, v.Name, v.DType, shape, -3, 10))
					}
					var got, want multi
					if err := cm.InferOne(&inp, &want); err != nil {
						t.Fatalf("cm.InferOne: %v", err)
					}
					if err := gm.InferOne(&inp, &got); err != nil {
						t.Fatalf("gm.InferOne: %v", err)
					}
					gt.CompareOutputs(t, got, want, ty.tol)
				})
			})
		}
	}
}
