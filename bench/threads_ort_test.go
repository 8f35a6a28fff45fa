//go:build ort

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ppocrModel reads a PP-OCRv4 model (det or rec) from the npm prefix.
func ppocrModel(tb testing.TB, which string) []byte {
	tb.Helper()
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@gutenye", "ocr-models", "assets", "ch_PP-OCRv4_"+which+"_infer.onnx"))
	if err != nil {
		tb.Fatalf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
	}
	return b
}

// TestThreadsVsORT times PP-OCRv4 detection (1×3×320×320) and
// recognition (1×3×48×320) and the transformer layer on lintel and ONNX
// Runtime, each on one thread and on two, interleaved, and prints the
// medians and the two-thread speedups as a Markdown table. Set
// BENCH_ROUNDS to change the rounds. It checks that lintel's two
// threads give one thread's bits.
func TestThreadsVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 11)
	cs := []benchCase{
		{name: "ppocrv4_det_320x320", onnx: ppocrModel(t, "det"), in: []int{1, 3, 320, 320}, batch: 1},
		{name: "ppocrv4_rec_48x320", onnx: ppocrModel(t, "rec"), in: []int{1, 3, 48, 320}, batch: 1},
	}
	for _, c := range cases() {
		if c.name == "transformer_layer_s32_d128_b1" {
			cs = append(cs, c)
		}
	}
	var rows [][]string
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			l1, l2 := loadLintel(t, c, 1), loadLintel(t, c, 2)
			l1.inferOne(t)
			l2.inferOne(t)
			for i, v := range l1.out.Data {
				if l2.out.Data[i] != v {
					t.Fatalf("element %d is %v on two threads, %v on one", i, l2.out.Data[i], v)
				}
			}
			o1 := loadORTThreads(t, c, l1.in.Data, l1.out.Shape, 1)
			o2 := loadORTThreads(t, c, l1.in.Data, l1.out.Shape, 2)
			ts := interleave([]func(){
				func() { l1.inferOne(t) }, func() { l2.inferOne(t) },
				func() { o1.run(t) }, func() { o2.run(t) },
			}, rounds, 100*time.Millisecond)
			ratio := func(a, b time.Duration) string { return fmt.Sprintf("%.2f×", float64(a)/float64(b)) }
			rows = append(rows, []string{c.name, us(ts[0]), us(ts[1]), ratio(ts[0], ts[1]), us(ts[2]), us(ts[3]), ratio(ts[2], ts[3]),
				ratio(ts[0], ts[2]), ratio(ts[1], ts[3])})
		})
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"case", "lintel 1T", "lintel 2T", "lintel 1T/2T",
		"ORT 1T", "ORT 2T", "ORT 1T/2T", "lintel/ORT 1T", "lintel/ORT 2T"}, rows))
}
