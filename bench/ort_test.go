//go:build ort

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// ortLib finds ONNX Runtime's shared library: $ONNXRUNTIME_LIB, or the
// npm package that `make ort-deps` installs.
func ortLib() string {
	if p := os.Getenv("ONNXRUNTIME_LIB"); p != "" {
		return p
	}
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return filepath.Join(dir, "node_modules", "onnxruntime-node", "bin", "napi-v6", runtime.GOOS, arch, "libonnxruntime.so.1")
}

// ortRunner is a case loaded in ONNX Runtime on one thread, with its
// input and output tensors bound once.
type ortRunner struct {
	s       *ort.AdvancedSession
	in, out *ort.Tensor[float32]
}

func loadORT(t *testing.T, c benchCase, input []float32, outShape []int) *ortRunner {
	t.Helper()
	return loadORTThreads(t, c, input, outShape, 1)
}

// loadORTThreads is loadORT with threads intra-op threads.
func loadORTThreads(t *testing.T, c benchCase, input []float32, outShape []int, threads int) *ortRunner {
	t.Helper()
	ins, outs, err := ort.GetInputOutputInfoWithONNXData(c.onnx)
	if err != nil {
		t.Fatalf("ort.GetInputOutputInfoWithONNXData: %v", err)
	}
	shape := func(s []int) ort.Shape {
		r := make(ort.Shape, len(s))
		for i, d := range s {
			r[i] = int64(d)
		}
		return r
	}
	r := &ortRunner{}
	if r.in, err = ort.NewTensor(shape(c.in), input); err != nil {
		t.Fatal(err)
	}
	if r.out, err = ort.NewEmptyTensor[float32](shape(outShape)); err != nil {
		t.Fatal(err)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		t.Fatalf("ort.NewSessionOptions: %v", err)
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(threads); err != nil {
		t.Fatalf("opts.SetIntraOpNumThreads: %v", err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		t.Fatalf("opts.SetInterOpNumThreads: %v", err)
	}
	r.s, err = ort.NewAdvancedSessionWithONNXData(c.onnx, []string{ins[0].Name}, []string{outs[0].Name},
		[]ort.Value{r.in}, []ort.Value{r.out}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.s.Destroy()
		r.in.Destroy()
		r.out.Destroy()
	})
	return r
}

func (r *ortRunner) run(t *testing.T) {
	if err := r.s.Run(); err != nil {
		t.Fatalf("r.s.Run: %v", err)
	}
}

// TestVsORT runs every case on one thread in lintel and in ONNX Runtime
// (default graph optimisations), interleaved, and prints medians and
// ratios as a Markdown table. Set BENCH_ROUNDS to change the rounds. It
// checks that both gave the same outputs, within ortTol.
func TestVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 21)
	var rows [][]string
	for _, c := range cases() {
		// One subtest per case, so that -run 'VsORT/cnn' runs one.
		t.Run(c.name, func(t *testing.T) {
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
			ts := interleave([]func(){func() { l.inferOne(t) }, func() { o.run(t) }}, rounds, 20*time.Millisecond)
			rows = append(rows, []string{c.name, us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1])), fmt.Sprintf("%.1e", maxDiff)})
		})
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"case (one thread)", "lintel", "ONNX Runtime", "lintel / ORT", "max |diff|"}, rows))
}

// ortTol bounds |lintel − ONNX Runtime| on one output of the cases, whose
// outputs differ only by the order of float32 sums (bench/RESULTS.md
// records at most 5e-7).
const ortTol = 1e-4

var ortReady bool

// initORT loads ONNX Runtime once per process.
func initORT() error {
	if ortReady {
		return nil
	}
	ort.SetSharedLibraryPath(ortLib())
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("loading ONNX Runtime from %s (run `make ort-deps` or set ONNXRUNTIME_LIB): %w", ortLib(), err)
	}
	ortReady = true
	return nil
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
