package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bench -profile prints per-op-type and per-node tables, and -trace
// writes a Chrome trace-event file with one complete event per node run.
func TestBenchProfileAndTrace(t *testing.T) {
	model := writeModel(t, "two.onnx", twoInputModel())
	trace := filepath.Join(t.TempDir(), "trace.json")
	code, out, errOut := runCmd("bench", model, "-batch", "1,2", "-duration", "20ms", "-profile", "-trace", trace, "-progress", "never")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"profile, batch 1:", "profile, batch 2:", "op type", "share", "per run", "GFLOPS", "node"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	procs, spans := map[int]string{}, 0
	for _, e := range f.TraceEvents {
		switch e.Ph {
		case "M":
			if e.Name == "process_name" {
				procs[e.Pid], _ = e.Args["name"].(string)
			}
		case "X":
			spans++
			if e.Name == "" || e.Cat == "" || e.Dur < 0 || e.Ts < 0 {
				t.Errorf("event %+v: want a name, an op and non-negative times", e)
			}
		default:
			t.Errorf("event phase %q, want M or X", e.Ph)
		}
	}
	if len(procs) != 2 || !strings.Contains(procs[1], "batch 1") || !strings.Contains(procs[2], "batch 2") {
		t.Errorf("processes %v, want one per batch size", procs)
	}
	if spans == 0 {
		t.Error("no node events in the trace")
	}

	code, out, errOut = runCmd("bench", model, "-duration", "10ms", "-json", "-profile")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if p := r.Results[0].Profile; p == nil || p.GraphCalls < 1 || len(p.ByOp) == 0 || len(p.ByNode) == 0 {
		t.Errorf("JSON profile %+v, want graph runs and rows", p)
	}
}
