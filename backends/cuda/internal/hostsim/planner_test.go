//go:build cuda && cgo

package hostsim

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

type f32t = payload.Tensor[float32]

// simDevice is a gpu.Device whose memory the host sees (as Metal's) and
// whose launches run kernels.cu in the host simulation, each with the
// packed parameter buffer the CUDA driver would get: the bindings'
// addresses, then the planner's arguments struct.
type simDevice struct {
	mem     [][]byte
	pending []simLaunch
	params  []byte
}

type simLaunch struct {
	k       gpu.KernelID
	args    []byte
	bufs    []gpu.Binding
	groups  [3]uint32
	threads [3]uint32
}

func (d *simDevice) Name() string { return "hostsim" }

func (d *simDevice) Compile(ks []gpu.KernelID) error {
	for _, k := range ks {
		if ParamSize(gpu.KernelNames[k]) < 0 {
			return fmt.Errorf("hostsim: no kernel %s", gpu.KernelNames[k])
		}
	}
	return nil
}

func (d *simDevice) Alloc(n int) (gpu.BufID, []byte, error) {
	b := make([]byte, n)
	d.mem = append(d.mem, b)
	return gpu.BufID(len(d.mem)), b, nil
}

func (d *simDevice) Wrap([]byte) (gpu.BufID, bool) { return 0, false }

func (d *simDevice) Release(b gpu.BufID) { d.mem[b-1] = nil }

func (d *simDevice) Upload(dst gpu.Binding, src []byte) error {
	copy(d.mem[dst.Buf-1][dst.Off:], src)
	return nil
}

func (d *simDevice) Begin() error {
	d.pending = d.pending[:0]
	return nil
}

func (d *simDevice) Dispatch(k gpu.KernelID, args []byte, bufs []gpu.Binding, groups, threads [3]uint32) {
	d.pending = append(d.pending, simLaunch{k, args, append([]gpu.Binding(nil), bufs...), groups, threads})
}

func (d *simDevice) End() error {
	for _, l := range d.pending {
		var pin runtime.Pinner
		p := d.params[:0]
		for _, b := range l.bufs {
			m := d.mem[b.Buf-1]
			pin.Pin(&m[0])
			p = binary.LittleEndian.AppendUint64(p, uint64(uintptr(unsafe.Pointer(&m[0]))+uintptr(b.Off)))
		}
		p = append(p, l.args...)
		d.params = p
		err := Launch(gpu.KernelNames[l.k], l.groups, l.threads, 0, p)
		pin.Unpin()
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *simDevice) Close() {}

// TestPlannerOpCases runs the shared planner's op cases (gputest) on the
// CUDA kernels in the host simulation and compares with the CPU backend:
// real plans, real argument structs and launch geometry, the CUDA source.
// Conv runs both directly and as im2col plus gemm_f32.
func TestPlannerOpCases(t *testing.T) {
	for _, im2col := range []bool{false, true} {
		t.Run(fmt.Sprint("im2col=", im2col), func(t *testing.T) {
			open := func() (gpu.Device, error) { return &simDevice{}, nil }
			gputest.RunOpCases(t, gputest.Config(open, im2col), 1e-5)
		})
	}
}

// TestPlannerHalfWeights runs a CNN (Conv through im2col, then Gemm)
// planned with 16-bit weights (cast_any to T_F16 or T_BF16, gemm_f32
// reading ab_type) on the CUDA kernels in the host simulation, against
// the CPU backend with the same weight type and with float32 weights.
// (The MLP runs on the fake device: here it takes half a minute.)
func TestPlannerHalfWeights(t *testing.T) {
	models := []struct {
		name  string
		b     []byte
		shape []int
	}{
		{"cnn", testmodels.CNN(), []int{1, 3, 32, 32}},
	}
	for _, mc := range models {
		for _, ty := range []struct {
			dt  payload.DType
			tol float64
		}{{payload.Float16, 2e-3}, {payload.BF16, 1e-2}} {
			t.Run(mc.name+"/"+ty.dt.String(), func(t *testing.T) {
				art, err := artifacts.FromBytes(mc.b, mc.name+".onnx")
				if err != nil {
					t.Fatalf("artifacts.FromBytes: %v", err)
				}
				cfg := gputest.Config(func() (gpu.Device, error) { return &simDevice{}, nil }, true)
				cfg.HalfGemm = true
				m, err := gpu.Load[f32t, f32t](cfg, compute.Options{WeightType: ty.dt}, art)
				if err != nil {
					t.Fatalf("gpu.Load: %v", err)
				}
				defer m.Close()
				if err := m.Init(); err != nil {
					t.Fatalf("m.Init: %v", err)
				}
				r := newRand(1800)
				x := f32t{Shape: mc.shape, Data: randF32(r, payload.NumElems(mc.shape), -1, 1)}
				var y f32t
				if err := m.InferOne(&x, &y); err != nil {
					t.Fatalf("m.InferOne: %v", err)
				}
				for _, wt := range []payload.DType{payload.Float32, ty.dt} {
					c, err := cpu.New[f32t, f32t](compute.Options{WeightType: wt}).LoadModel(art)
					if err == nil {
						err = c.Init()
					}
					if err != nil {
						t.Fatal(err)
					}
					var want f32t
					if err := c.InferOne(&x, &want); err != nil {
						t.Fatalf("c.InferOne: %v", err)
					}
					c.Close()
					var num, den float64
					for i := range want.Data {
						d := float64(y.Data[i]) - float64(want.Data[i])
						num += d * d
						den += float64(want.Data[i]) * float64(want.Data[i])
					}
					if e := math.Sqrt(num / den); e > ty.tol || e != e {
						t.Fatalf("relative L2 error %.3g against the CPU backend with %s weights, want at most %.3g", e, wt, ty.tol)
					} else {
						t.Logf("relative L2 error %.2g against the CPU backend with %s weights", e, wt)
					}
				}
			})
		}
	}
}
