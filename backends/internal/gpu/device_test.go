package gpu_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
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
// replays it after; a new shape, a new batch or a larger arena records
// again.
func TestRecorderReplays(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	gm, dev, rec := loadTensorFake(t, mlp(r), modes[1])
	x3, x5 := randT(r, 3, 16), randT(r, 5, 16)
	var y f32t
	steps := []struct {
		name    string
		run     func() error
		records int
	}{
		{"first call", func() error { return gm.InferOne(&x3, &y) }, 1},
		{"same shape", func() error { return gm.InferOne(&x3, &y) }, 0},
		{"new shape", func() error { return gm.InferOne(&x5, &y) }, 1},
		{"back to the first shape", func() error { return gm.InferOne(&x3, &y) }, 1},
		{"batch", func() error { return gm.InferBatch(batch.Of([]f32t{x3, x5}), make([]f32t, 2)) }, 1},
		{"same batch", func() error { return gm.InferBatch(batch.Of([]f32t{x3, x5}), make([]f32t, 2)) }, 0},
		{"one item again", func() error { return gm.InferOne(&x3, &y) }, 1},
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
		t.Fatal(err)
	}
	dx := deviceT(t, rec, x.Data, 3, 16)
	dy := deviceT(t, rec, nil, 4, 4) // room for 16 values, more than 12
	if err := gm.InferOne(&dx, &dy); err != nil {
		t.Fatal(err)
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
		t.Fatal(err)
	}
	for i := range want.Data {
		if outs[0].Data[i] != want.Data[i] || outs[1].Data[i] != want.Data[i] {
			t.Fatalf("batch outputs differ at %d", i)
		}
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := gm.InferOne(&dx, &dy); err != nil {
			t.Fatal(err)
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
