package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
)

// TestOpenMemory measures what a loaded model costs when artifacts.Open
// maps the file and when it reads it into the heap (WithoutMapping):
// each mode runs in a process of its own, which opens the model at
// BENCH_MEM_MODEL, loads it on the CPU backend, drops the artifact,
// collects garbage and reports Go's heap and the process's resident
// memory (anonymous and file-backed, from /proc/self/status).
//
//	BENCH_MEM_MODEL=model.onnx go test -count=1 -run TestOpenMemory -v ./bench
func TestOpenMemory(t *testing.T) {
	path := os.Getenv("BENCH_MEM_MODEL")
	if path == "" {
		t.Skip("set BENCH_MEM_MODEL to a model file")
	}
	if mode := os.Getenv("BENCH_MEM_CHILD"); mode != "" {
		memChild(t, path, mode == "mapped")
		return
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]string{}
	for _, mode := range []string{"read into the heap", "mapped"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOpenMemory$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "BENCH_MEM_CHILD="+map[bool]string{true: "mapped", false: "heap"}[mode == "mapped"])
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		i := strings.Index(string(out), "MEM ")
		if i < 0 {
			t.Fatalf("%s: no measurement in\n%s", mode, out)
		}
		f := strings.Fields(strings.SplitN(string(out[i:]), "\n", 2)[0])[1:]
		rows = append(rows, append([]string{mode}, f...))
	}
	t.Logf("%s, %.1f MB; after Open, LoadModel and Init, the artifact dropped and garbage collected:\n%s", path, float64(st.Size())/1e6,
		table([]string{"Open", "Go heap in use", "RSS", "RssAnon", "RssFile"}, rows))
}

// memChild is one measurement, printed as a MEM line.
func memChild(t *testing.T, path string, mapped bool) {
	var opts []artifacts.Option
	if !mapped {
		opts = append(opts, artifacts.WithoutMapping())
	}
	art, err := artifacts.Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := backends.New[f32, f32](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	art = nil
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	status := procStatus()
	fmt.Printf("MEM %.1fMB %s %s %s\n", float64(ms.HeapInuse)/1e6, status["VmRSS"], status["RssAnon"], status["RssFile"])
	runtime.KeepAlive(m)
}

// procStatus returns the memory lines of /proc/self/status, in MB.
func procStatus() map[string]string {
	out := map[string]string{"VmRSS": "n/a", "RssAnon": "n/a", "RssFile": "n/a"}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if _, want := out[k]; ok && want {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			out[k] = fmt.Sprintf("%.1fMB", kb/1e3)
		}
	}
	return out
}
