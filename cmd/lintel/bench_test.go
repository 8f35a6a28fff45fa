package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestBenchTable(t *testing.T) {
	model := writeModel(t, "two.onnx", twoInputModel())
	code, out, errOut := runCmd("bench", model, "--batch", "1,4", "--duration", "30ms", "--progress", "always")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"p50", "p90", "p99", "max", "items/s", "allocs/call", "item input a float32 [1 4]", "item input b float32 [1 4]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f) != 9 || f[0] != "4" {
		t.Errorf("last row %q, want 9 columns for batch 4", lines[len(lines)-1])
	}
	if !strings.Contains(errOut, "\r[") || !strings.Contains(errOut, "% batch") {
		t.Errorf("no progress bar on stderr: %q", errOut)
	}
}

func TestBenchJSON(t *testing.T) {
	model := writeModel(t, "two.onnx", twoInputModel())
	code, out, errOut := runCmd("bench", model, "-batch", "1,3", "-duration", "20ms", "-json", "-weights", "bf16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("stderr not empty (progress bar off a terminal?): %q", errOut)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("json.Unmarshal: %v:\n%s", err, out)
	}
	if len(r.Results) != 2 || r.Results[1].Batch != 3 || r.Backend != "cpu" || r.Weights != "bf16" {
		t.Fatalf("report: got %+v, want 2 results, the second at batch 3, backend cpu, weights bf16", r)
	}
	for _, x := range r.Results {
		if x.Calls < 1 || x.P50Ns <= 0 || x.P50Ns > x.P90Ns || x.P90Ns > x.P99Ns || x.P99Ns > x.MaxNs || x.ItemsPerSec <= 0 {
			t.Errorf("implausible result %+v: want calls ≥ 1, 0 < p50 ≤ p90 ≤ p99 ≤ max and items/s > 0", x)
		}
		// The CPU backend allocates nothing per call in steady state
		// (ADR 4), payload.Multi outputs included. The count is the
		// process's, so other goroutines (the runtime, parallel tests)
		// can add a fraction; a whole allocation per call is a failure.
		if x.AllocsPerCall >= 1 {
			t.Errorf("batch %d: %g allocations per call", x.Batch, x.AllocsPerCall)
		}
	}
}

func TestBenchUsage(t *testing.T) {
	model := writeModel(t, "two.onnx", twoInputModel())
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bench"}, 2, "exactly one model"},
		{[]string{"bench", model, "-batch", "0"}, 2, "positive integer"},
		{[]string{"bench", model, "-batch", "1,x"}, 2, "positive integer"},
		{[]string{"bench", model, "-progress", "sometimes"}, 2, "auto, always or never"},
		{[]string{"bench", model, "-shape", "a=1x5", "-duration", "1ms"}, 1, "shape mismatch"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

func TestPercentile(t *testing.T) {
	lat := make([]time.Duration, 100)
	for i := range lat {
		lat[i] = time.Duration(i + 1)
	}
	cases := []struct {
		lat  []time.Duration
		p    int
		want time.Duration
	}{
		{lat, 50, 50}, {lat, 90, 90}, {lat, 99, 99}, {lat, 100, 100},
		{lat[:1], 50, 1}, {lat[:1], 99, 1},
		{lat[:10], 50, 5}, {lat[:10], 90, 9}, {lat[:10], 99, 10},
	}
	for _, c := range cases {
		if got := percentile(c.lat, c.p); got != c.want {
			t.Errorf("p%d of %d values: %v, want %v", c.p, len(c.lat), got, c.want)
		}
	}
}
