package cpu_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/payload"
)

var sentinels = []error{
	compute.ErrInvalidArtifact, compute.ErrUnsupported, compute.ErrShapeMismatch,
	compute.ErrExecutionFailed, compute.ErrResourceUnavailable, compute.ErrNotInitialized, compute.ErrClosed,
}

// isSentinel reports whether err matches a compute sentinel and is not a
// panic the backend caught (an "internal error", which is a bug).
func isSentinel(err error) bool {
	if strings.Contains(err.Error(), "internal error") {
		return false
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// TestDamagedModels loads and runs truncated and bit-flipped copies of a
// real model: every failure must be an error matching a sentinel, never a
// panic, and memory must stay bounded.
func TestDamagedModels(t *testing.T) {
	orig := models.PPOCRClassifier
	r := rand.New(rand.NewPCG(11, 12))
	n := 300
	if testing.Short() {
		n = 60
	}
	in := f32{Shape: []int{1, 3, 48, 192}, Data: randSlice(r, 3*48*192, 1)}
	var out payload.Tensor[float32]
	loaded, ran := 0, 0
	for i := range n {
		data := append([]byte(nil), orig...)
		switch i % 3 {
		case 0:
			data = data[:r.IntN(len(data))]
		default:
			for range 1 + r.IntN(8) {
				data[r.IntN(len(data))] ^= byte(1 << r.IntN(8))
			}
		}
		art, err := artifacts.FromBytes(data, "damaged.onnx")
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("copy %d: decode error matches no sentinel: %v", i, err)
			}
			continue
		}
		m, err := cpu.New[f32, f32](compute.Options{MaxTensorBytes: 64 << 20}).LoadModel(art)
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("copy %d: load error matches no sentinel: %v", i, err)
			}
			continue
		}
		loaded++
		if err := m.Init(); err != nil {
			t.Fatal(err)
		}
		if err := m.InferOne(&in, &out); err != nil {
			if !isSentinel(err) {
				t.Fatalf("copy %d: inference error matches no sentinel: %v", i, err)
			}
			if errors.Is(err, compute.ErrExecutionFailed) {
				t.Errorf("copy %d: a kernel failed instead of refusing the input: %v", i, err)
			}
		} else {
			ran++
		}
		m.Close()
		checkMemory(t, fmt.Sprintf("copy %d", i))
	}
	t.Logf("%d copies: %d loaded, %d ran", n, loaded, ran)
}

// checkMemory fails the test once the process has taken more than 2 GiB
// from the operating system. The runtime's Sys never shrinks, so it bounds
// the peak, not just the heap at the moment of the call.
func checkMemory(t *testing.T, what string) {
	t.Helper()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.Sys > 2<<30 {
		t.Fatalf("%s: the process holds %d MiB", what, ms.Sys>>20)
	}
}

// TestWrongPayloads gives the real model payloads of the wrong rank,
// dimensions, element type and length: each is refused with
// ErrShapeMismatch, naming the input, and the model still runs afterwards.
func TestWrongPayloads(t *testing.T) {
	art, err := artifacts.FromBytes(models.PPOCRClassifier, "ppocr.onnx")
	if err != nil {
		t.Fatal(err)
	}
	input := art.Graph().Inputs[0].Name
	good := make([]float32, 3*48*192)
	typed, err := cpu.New[f32, f32](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	defer typed.Close()
	multi, err := cpu.New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	defer multi.Close()
	if err := typed.Init(); err != nil {
		t.Fatal(err)
	}
	if err := multi.Init(); err != nil {
		t.Fatal(err)
	}
	var out f32
	var mout payload.Multi
	odd := payload.AsBytes(make([]float32, len(good)+1))[1:][:4*len(good)]
	cases := []struct {
		name string
		in   f32
		dyn  *payload.Dynamic // a payload.Multi input instead of in
		want []string
	}{
		{name: "rank", in: f32{Shape: []int{3, 48, 192}, Data: good}, want: []string{"rank 3"}},
		{name: "rank 5", in: f32{Shape: []int{1, 1, 3, 48, 192}, Data: good}, want: []string{"rank 5"}},
		{name: "scalar", in: f32{Shape: []int{}, Data: good[:1]}, want: []string{"rank 0"}},
		{name: "channels", in: f32{Shape: []int{1, 4, 48, 192}, Data: make([]float32, 4*48*192)}, want: []string{"[1 4 48 192]"}},
		{name: "short data", in: f32{Shape: []int{1, 3, 48, 192}, Data: good[:100]}, want: []string{"data holds 100"}},
		{name: "long data", in: f32{Shape: []int{1, 3, 48, 192}, Data: append(good[:len(good):len(good)], 1)}, want: []string{"data holds"}},
		{name: "nil data", in: f32{Shape: []int{1, 3, 48, 192}}, want: []string{"data holds 0"}},
		{name: "negative dim", in: f32{Shape: []int{-1, 3, 48, 192}, Data: good}, want: []string{"invalid shape"}},
		{name: "huge dims", in: f32{Shape: []int{1 << 40, 3, 48, 192}, Data: good}, want: []string{"[1099511627776 3 48 192]"}},
		{name: "overflowing batch", in: f32{Shape: []int{1 << 60, 3, 48, 192}, Data: good}, want: []string{"invalid shape"}},
		{name: "element type", dyn: &payload.Dynamic{Name: input, DType: payload.Int64, Shape: []int{1, 3, 48, 192}, Data: make([]byte, 8*len(good))}, want: []string{"int64"}},
		{name: "dynamic length", dyn: &payload.Dynamic{Name: input, DType: payload.Float32, Shape: []int{1, 3, 48, 192}, Data: make([]byte, 7)}, want: []string{"data holds"}},
		{name: "misaligned", dyn: &payload.Dynamic{Name: input, DType: payload.Float32, Shape: []int{1, 3, 48, 192}, Data: odd}, want: []string{"aligned"}},
		{name: "wrong name", dyn: &payload.Dynamic{Name: "nope", DType: payload.Float32, Shape: []int{1, 3, 48, 192}, Data: payload.AsBytes(good)}, want: nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.dyn != nil {
				err = multi.InferOne(&payload.Multi{Tensors: []payload.Dynamic{*c.dyn}}, &mout)
			} else {
				err = typed.InferOne(&c.in, &out)
			}
			if !errors.Is(err, compute.ErrShapeMismatch) {
				t.Fatalf("got %v, want ErrShapeMismatch", err)
			}
			for _, part := range append([]string{strconv.Quote(input)}, c.want...) {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not mention %s", err, part)
				}
			}
			checkMemory(t, c.name)
		})
	}
	if err := typed.InferOne(nil, &out); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("nil input: %v", err)
	}
	if err := typed.InferOne(&f32{Shape: []int{1, 3, 48, 192}, Data: good}, nil); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("nil output: %v", err)
	}
	if err := multi.InferOne(&payload.Multi{}, &mout); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Errorf("empty Multi: %v", err)
	}
	// Height and width are free in this model; an image too small for its
	// convolutions and pooling is refused, naming the node.
	for _, hw := range [][2]int{{1, 1}, {0, 192}, {48, 0}, {2, 3}} {
		in := f32{Shape: []int{1, 3, hw[0], hw[1]}, Data: good[:3*hw[0]*hw[1]]}
		if err := typed.InferOne(&in, &out); err != nil && (!isSentinel(err) || errors.Is(err, compute.ErrExecutionFailed)) {
			t.Errorf("shape %v: %v", in.Shape, err)
		}
	}
	// The refusals left nothing behind: good payloads still run.
	if err := typed.InferOne(&f32{Shape: []int{1, 3, 48, 192}, Data: good}, &out); err != nil {
		t.Fatal(err)
	}
	if err := multi.InferOne(&payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf(input, f32{Shape: []int{2, 3, 48, 192}, Data: append(good, good...)})}}, &mout); err != nil {
		t.Fatal(err)
	}
}
