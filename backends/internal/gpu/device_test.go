package gpu_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// deviceT returns a tensor of shape whose data lies in the fake
// Recorder's memory, as a CUDA backend's device tensor does, holding vals
// (or zeros).
func deviceT(t *testing.T, dev interface{ DeviceBytes(int) []byte }, vals []float32, shape ...int) f32t {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	b := dev.DeviceBytes(4 * n)
	data := unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n)
	copy(data, vals)
	return f32t{Shape: shape, Data: data, Place: memclass.Device(0)}
}

// A Recorder records a pass once per set of item plans and arena, and
// replays it after; it keeps the recent ones, so alternating shapes or
// batches replay, and a larger arena records again.
func TestRecorderReplays(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	gm, dev, rec := loadTensorFake(t, mlp(r), modes[1])
	x3, x5 := randT(r, 3, 16), randT(r, 5, 16)
	var y f32t
	bt := func(xs ...f32t) func() error {
		return func() error { return gm.InferBatch(batch.Of(xs), make([]f32t, len(xs))) }
	}
	steps := []struct {
		name    string
		run     func() error
		records int
	}{
		{"largest batch first", bt(x5, x5, x5), 1},
		{"one item", func() error { return gm.InferOne(&x3, &y) }, 1},
		{"same shape", func() error { return gm.InferOne(&x3, &y) }, 0},
		{"new shape", func() error { return gm.InferOne(&x5, &y) }, 1},
		{"back to the first shape", func() error { return gm.InferOne(&x3, &y) }, 0},
		{"batch", bt(x3, x5), 1},
		{"same batch", bt(x3, x5), 0},
		{"one item again", func() error { return gm.InferOne(&x3, &y) }, 0},
		{"fifth combination", bt(x3, x3), 1},
		{"sixth combination", bt(x5, x3), 1},
		{"least recently used, evicted", func() error { return gm.InferOne(&x5, &y) }, 1},
		{"recently used, kept", func() error { return gm.InferOne(&x3, &y) }, 0},
		{"larger arena", bt(x5, x5, x5, x5), 1},
		{"first shape, new arena", func() error { return gm.InferOne(&x3, &y) }, 1},
	}
	for _, st := range steps {
		before, runs := rec.Records, rec.Runs
		if err := st.run(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := rec.Records - before; got != st.records {
			t.Errorf("%s: %d recordings, want %d", st.name, got, st.records)
		}
		if rec.Runs != runs+1 {
			t.Errorf("%s: %d replays, want 1", st.name, rec.Runs-runs)
		}
	}
	gm.Close()
	if dev.Live != 0 || rec.Stages != 0 {
		t.Errorf("after Close: %d buffers, %d stages live", dev.Live, rec.Stages)
	}
}

// Payloads in the Recorder's memory move device to device: the input is
// read from its device address, the output written into the output
// payload's device memory; the results match host payloads, and a steady
// call allocates nothing.
func TestDevicePayloads(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	gm, _, rec := loadTensorFake(t, mlp(r), modes[1])
	x := randT(r, 3, 16)
	var want f32t
	if err := gm.InferOne(&x, &want); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	dx := deviceT(t, rec, x.Data, 3, 16)
	dy := deviceT(t, rec, nil, 4, 4) // room for 16 values, more than 12
	if err := gm.InferOne(&dx, &dy); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	if dy.Place != memclass.Device(0) || len(dy.Shape) != 2 || dy.Shape[0] != 3 || dy.Shape[1] != 4 || len(dy.Data) != 12 {
		t.Fatalf("device output: place %v shape %v, %d values", dy.Place, dy.Shape, len(dy.Data))
	}
	for i := range want.Data {
		if dy.Data[i] != want.Data[i] {
			t.Fatalf("device output differs from host output at %d: %v, %v", i, dy.Data[i], want.Data[i])
		}
	}
	// Host input, device output and the reverse, in one batch.
	outs := []f32t{deviceT(t, rec, nil, 3, 4), {}}
	if err := gm.InferBatch(batch.Of([]f32t{x, dx}), outs); err != nil {
		t.Fatalf("gm.InferBatch: %v", err)
	}
	for i := range want.Data {
		if outs[0].Data[i] != want.Data[i] || outs[1].Data[i] != want.Data[i] {
			t.Fatalf("batch outputs differ at %d", i)
		}
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := gm.InferOne(&dx, &dy); err != nil {
			t.Fatalf("gm.InferOne: %v", err)
		}
	}); n != 0 {
		t.Fatalf("device payloads: %v allocations per call", n)
	}
}

// A payload that claims device memory it is not in, a device output too
// small, and device payloads on a device whose memory the host sees, are
// refused with ErrShapeMismatch naming the tensor.
func TestDevicePayloadErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 17))
	b := mlp(r)
	gm, _, rec := loadTensorFake(t, b, modes[1])
	host := randT(r, 2, 16)
	fake := f32t{Shape: host.Shape, Data: host.Data, Place: memclass.Device(0)}
	var y f32t
	err := gm.InferOne(&fake, &y)
	if !errors.Is(err, compute.ErrShapeMismatch) || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("host bytes as device input: %v", err)
	}
	small := deviceT(t, rec, nil, 2, 3)
	err = gm.InferOne(&host, &small)
	if !errors.Is(err, compute.ErrShapeMismatch) || !strings.Contains(err.Error(), `"y"`) {
		t.Errorf("small device output: %v", err)
	}
	shared, _, _ := loadTensorFake(t, b, modes[0])
	dx := deviceT(t, rec, host.Data, 2, 16)
	if err := shared.InferOne(&dx, &y); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("device input on a host-visible device: %v", err)
	}
}

// payload.Multi carries device tensors too: the input by its Place, the
// output by the tensor at its position before the call.
func TestDevicePayloadsMulti(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 19))
	b := mlp(r)
	rec := gt.NewRecorder()
	gm := gt.LoadOn(t, b, gt.Config(func() (gpu.Device, error) { return rec, nil }, false))
	x := randT(r, 2, 16)
	var want multi
	if err := gm.InferOne(&multi{Tensors: []payload.Dynamic{payload.DynamicOf("x", x)}}, &want); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	in := multi{Tensors: []payload.Dynamic{{Name: "x", DType: payload.Float32, Shape: []int{2, 16}, Data: rec.DeviceBytes(4 * 32), Place: memclass.Device(0)}}}
	copy(in.Tensors[0].Data, payload.AsBytes(x.Data))
	out := multi{Tensors: []payload.Dynamic{{Data: rec.DeviceBytes(64), Place: memclass.Device(0)}}}
	if err := gm.InferOne(&in, &out); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	got := out.Tensors[0]
	if got.Name != "y" || got.Place != memclass.Device(0) || len(got.Data) != 32 || !slices.Equal(got.Shape, []int{2, 4}) {
		t.Fatalf("output %s %v %v, %d bytes", got.Name, got.Place, got.Shape, len(got.Data))
	}
	if !slices.Equal(got.Data, want.Tensors[0].Data) {
		t.Fatal("device output differs from the host output")
	}
}
