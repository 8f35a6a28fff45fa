package cuda

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// gemmSpy is the shared layer's fake device in CUDA's mode, checking
// every gemm_f32 launch the planner emits against its cuBLAS mapping.
type gemmSpy struct {
	*gputest.Recorder
	t       *testing.T
	seen    map[string]bool
	blas    int // launches mapped to cuBLAS
	kernels int // launches left on the gemm kernel
}

func (s *gemmSpy) Dispatch(k core.KernelID, args []byte, bufs []core.Binding, groups, threads [3]uint32) {
	if k == core.KGemm && !s.seen[string(args)] {
		s.seen[string(args)] = true
		var a core.GemmArgs
		if _, err := binary.Decode(args, binary.LittleEndian, &a); err != nil {
			s.t.Fatal(err)
		}
		if checkMapping(s.t, &a) {
			s.blas++
		} else {
			s.kernels++
		}
	}
	s.Recorder.Dispatch(k, args, bufs, groups, threads)
}

// span returns how many elements an operand with these strides reads.
func span(a *core.GemmArgs, strides []int32, rows, cols int, sr, sc int32) int {
	shape := a.BShape[:a.BRank]
	last := 0
	for b := range max(int(a.Batch), 1) {
		last = max(last, int(batchOffset(shape, strides, int64(b))))
	}
	return last + (rows-1)*int(sr) + (cols-1)*int(sc) + 1
}

// checkMapping compares the cuBLAS reading of a launch with the launch on
// random operands, and reports whether cuBLAS takes it.
func checkMapping(t *testing.T, a *core.GemmArgs) bool {
	p, ok := planGemm(a)
	if !ok {
		t.Logf("left on the kernel: %+v", *a)
		return false
	}
	m, n, k := int(a.M), int(a.N), int(a.K)
	if int64(m)*int64(n)*int64(k)*int64(max(a.Batch, 1)) > 1<<22 {
		return true // too slow to check here; the mapping is the same code
	}
	r := rand.New(rand.NewPCG(uint64(m), uint64(n*k)))
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		return v
	}
	x := fill(span(a, a.BSA[:a.BRank], m, k, a.SAM, a.SAK))
	w := fill(span(a, a.BSB[:a.BRank], k, n, a.SBK, a.SBN))
	c := fill(max((m-1)*int(a.SCM)+(n-1)*int(a.SCN)+1, 1))
	want := refGemm(a, x, w, c)
	got := make([]float32, len(want))
	if p.bias != nil {
		simCopy(p.bias, c, got)
	}
	for _, call := range p.calls {
		simBlas(call, w, x, got)
	}
	if e := relL2(got, want); e > 1e-5 || math.IsNaN(e) {
		t.Errorf("cuBLAS mapping of %+v: relative L2 error %.3g", *a, e)
	}
	return true
}

// Every matrix product the planner emits for the test models and the
// single-op cases, with the CUDA configuration (im2col convolutions), has
// a cuBLAS reading that computes what the gemm kernel computes; the
// models' products all run on cuBLAS.
func TestPlannerGemmsMapToBlas(t *testing.T) {
	var spy *gemmSpy
	cfg := gputest.Config(func() (core.Device, error) {
		spy = &gemmSpy{Recorder: gputest.NewRecorder(), t: t, seen: map[string]bool{}}
		return spy, nil
	}, true)
	for _, c := range modelCases() {
		t.Run(c.name, func(t *testing.T) {
			art, err := artifacts.FromBytes(c.onnx, c.name)
			if err != nil {
				t.Fatalf("artifacts.FromBytes: %v", err)
			}
			m, err := core.Load[f32, f32](cfg, compute.Options{}, art)
			if err != nil {
				t.Fatalf("core.Load: %v", err)
			}
			defer m.Close()
			if err := m.Init(); err != nil {
				t.Fatalf("m.Init: %v", err)
			}
			spy.t = t
			in := f32{Shape: c.shape, Data: make([]float32, payload.NumElems(c.shape))}
			var out f32
			if err := m.InferOne(&in, &out); err != nil {
				t.Fatalf("m.InferOne: %v", err)
			}
			if spy.blas == 0 || spy.kernels != 0 {
				t.Errorf("%d distinct products on cuBLAS, %d on the kernel", spy.blas, spy.kernels)
			}
		})
	}
	for _, c := range gputest.OpCases() {
		if c.Op != "MatMul" && c.Op != "Gemm" && c.Op != "Conv" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 1))
			b := gputest.OneOp(c.Opset, c.Op, c.Out, c.Ins, c.Inits(r), c.Attrs...)
			m := gputest.LoadOn(t, b, cfg)
			spy.t = t
			var in, out payload.Multi
			for k, v := range c.Ins {
				shape := make([]int, len(v.Shape))
				for j, d := range v.Shape {
					shape[j] = int(d)
				}
				if c.Shapes != nil {
					shape = c.Shapes[k]
				}
				in.Tensors = append(in.Tensors, gputest.RandInput(r, v.Name, v.DType, shape, 0, 1))
			}
			if err := m.InferOne(&in, &out); err != nil {
				t.Fatalf("m.InferOne: %v", err)
			}
		})
	}
}
