package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestDemoOrientations runs the demo on every line and checks each
// orientation is right with probability above 0.9, and that InferBatch
// gives the same answers as InferOne.
func TestDemoOrientations(t *testing.T) {
	rep, err := runClassifierDemo(demoOptions{runs: 3, threads: 1})
	if err != nil {
		t.Fatalf("runClassifierDemo: %v", err)
	}
	if got, want := len(rep.results), 2*len(demoLines); got != want {
		t.Fatalf("%d results, want %d", got, want)
	}
	for _, r := range rep.results {
		if !r.correct || r.prob <= 0.9 {
			t.Errorf("%q turned %s: predicted %s with probability %.4f", r.text, r.truth, r.pred, r.prob)
		}
	}
	if !rep.batchAgrees || rep.batchMaxDiff > 1e-5 {
		t.Errorf("InferBatch disagrees with InferOne: same labels %v, largest difference %g", rep.batchAgrees, rep.batchMaxDiff)
	}
	if rep.oneMedian <= 0 || rep.oneP90 < rep.oneMedian || rep.batchPerItem <= 0 {
		t.Errorf("timings: median %v, p90 %v, batch per item %v", rep.oneMedian, rep.oneP90, rep.batchPerItem)
	}
}

func TestDemoCommand(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"demo", "-runs", "2", "-png", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"predicted", "Hello, world 2026", "16 of 16 orientations correct", "median", "per item"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
