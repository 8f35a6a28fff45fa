package quantize

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// randInput returns a float32 input of the given shape, uniform in [-1, 1).
func randInput(r *rand.Rand, name string, shape ...int) payload.Dynamic {
	v := make([]float32, payload.NumElems(shape))
	for i := range v {
		v[i] = 2*r.Float32() - 1
	}
	return payload.Dynamic{Name: name, DType: payload.Float32, Shape: shape, Data: payload.AsBytes(v)}
}

// runCPU runs the model once on lintel's CPU backend and returns its
// first output.
func runCPU(t *testing.T, data []byte, in payload.Dynamic) []float32 {
	t.Helper()
	return runCPUMulti(t, data, []payload.Dynamic{in})
}

// runCPUMulti runs the model once on the inputs on lintel's CPU backend
// and returns its first output.
func runCPUMulti(t *testing.T, data []byte, ins []payload.Dynamic) []float32 {
	t.Helper()
	art, err := artifacts.FromBytes(data, "m")
	if err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	m, err := cpu.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatalf("Init: %v", err)
	}
	var out payload.Multi
	if err := m.InferOne(&payload.Multi{Tensors: ins}, &out); err != nil {
		t.Fatalf("InferOne: %v", err)
	}
	return floats(out.Tensors[0].Data)
}

// relErr returns ‖got−want‖/‖want‖.
func relErr(got, want []float32) float64 {
	var num, den float64
	for i := range want {
		d := float64(got[i] - want[i])
		num += d * d
		den += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(num / den)
}

func TestModelRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name  string
		data  []byte
		shape []int
		ops   int
		tol   float64
	}{
		{"mlp", testmodels.MLP(), []int{4, 784}, 3, 0.05},
		{"cnn", testmodels.CNN(), []int{2, 3, 32, 32}, 3, 0.05},
		{"gemm", testmodels.Gemm(), []int{8, 256}, 1, 0.05},
		{"ppocr_cls", models.PPOCRClassifier, []int{1, 3, 48, 192}, 54, 0.1},
	}
	for _, c := range cases {
		in := randInput(r, "x", c.shape...)
		want := runCPU(t, c.data, in)
		for _, mode := range []Mode{Dynamic, Static} {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				o := Options{Mode: mode}
				if mode == Static {
					for range 4 {
						o.Samples = append(o.Samples, Sample{randInput(r, "x", c.shape...)})
					}
					o.Samples = append(o.Samples, Sample{in})
				}
				q, rep, err := Model(c.data, o)
				if err != nil {
					t.Fatalf("Model: %v", err)
				}
				if len(rep.Quantized) != c.ops {
					t.Errorf("quantized %d nodes, want %d (skipped %v)", len(rep.Quantized), c.ops, rep.Skipped)
				}
				got := runCPU(t, q, in)
				if e := relErr(got, want); !(e < c.tol) {
					t.Errorf("relative error %.4g, want < %g", e, c.tol)
				} else {
					t.Logf("relative error %.4g, %d → %d bytes", e, len(c.data), len(q))
				}
			})
		}
	}
}

func TestModelErrors(t *testing.T) {
	mlp := testmodels.MLP()
	cases := []struct {
		name string
		data []byte
		o    Options
		want error
	}{
		{"garbage", []byte("not a model"), Options{}, errs.InvalidArtifact},
		{"truncated", mlp[:len(mlp)/2], Options{}, errs.InvalidArtifact},
		{"no samples", mlp, Options{Mode: Static}, errs.Unsupported},
		{"bad mode", mlp, Options{Mode: 9}, errs.Unsupported},
		{"bad percentile", mlp, Options{Mode: Static, Method: Percentile, Percentile: 20, Samples: []Sample{{}}}, errs.Unsupported},
		{"nothing to quantize", mlp, Options{Ops: []string{"Conv"}}, errs.Unsupported},
		{"missing input", mlp, Options{Mode: Static, Samples: []Sample{{}}}, errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Model(c.data, c.o)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
}
