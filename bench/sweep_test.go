//go:build ort

package bench

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// sweepTol bounds |lintel − ONNX Runtime| on a sweep case, relative to
// the largest |output| (at least 1): the products sum thousands of terms
// in different orders, and the activations use different polynomials.
const sweepTol = 1e-4

// sweepRow is one timed case.
type sweepRow struct {
	c     sweepCase
	l, o  time.Duration
	ratio float64 // lintel / ONNX Runtime
	diff  float64 // max |lintel − ORT| / max(1, max |ORT|)
	agree bool
}

// TestSweepVsORT times single-op models over a grid of geometries
// (sweepCases: about 120 convolutions, the products, pooling, the
// elementwise ops, Softmax, LayerNormalization and Resize) in lintel
// and in ONNX Runtime, one thread each, interleaved, medians; it checks
// that the outputs agree, logs the 15 configurations where lintel is
// slowest against ONNX Runtime and the median ratio per family, and
// writes every row to sweep.md and sweep.csv here (bench/). It runs
// only with BENCH_SWEEP=1 (make bench-sweep); BENCH_SWEEP_ROUNDS sets
// the rounds (default 7) and BENCH_SWEEP_RUN a substring of the case
// names to run.
func TestSweepVsORT(t *testing.T) {
	if os.Getenv("BENCH_SWEEP") == "" {
		t.Skip("timing run: set BENCH_SWEEP=1 or run make bench-sweep")
	}
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_SWEEP_ROUNDS", 7)
	filter := os.Getenv("BENCH_SWEEP_RUN")
	start := time.Now()
	var rows []sweepRow
	for _, c := range sweepCases() {
		if filter != "" && !strings.Contains(c.name, filter) {
			continue
		}
		// A subtest each, so that each case's models are closed after it.
		t.Run(c.name, func(t *testing.T) { rows = append(rows, sweepOne(t, c, rounds)) })
	}
	if len(rows) == 0 {
		t.Fatalf("no sweep case matches %q", filter)
	}
	var bad []string
	for _, r := range rows {
		if !r.agree {
			bad = append(bad, fmt.Sprintf("%s: max relative |lintel − ONNX Runtime| %.1e, want at most %.0e", r.c.name, r.diff, sweepTol))
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
	load := loadAverage()
	summary := sweepSummary(rows, rounds, time.Since(start), load)
	t.Logf("\n%s", summary)
	if err := os.WriteFile("sweep.md", []byte(sweepMarkdown(rows, summary)), 0o644); err != nil {
		t.Errorf("writing sweep.md: %v", err)
	}
	if err := os.WriteFile("sweep.csv", []byte(sweepCSV(rows)), 0o644); err != nil {
		t.Errorf("writing sweep.csv: %v", err)
	}
}

// sweepOne loads c in both runtimes, compares one call's outputs and
// times them.
func sweepOne(t *testing.T, c sweepCase, rounds int) sweepRow {
	t.Helper()
	row := sweepRow{c: c}
	l := loadLintel(t, c.benchCase, 1)
	l.inferOne(t)
	o := loadORT(t, c.benchCase, l.in.Data, l.out.Shape)
	o.run(t)
	ref := o.out.GetData()
	if len(ref) != len(l.out.Data) {
		t.Fatalf("%s: ONNX Runtime gave %d outputs, lintel %d", c.name, len(ref), len(l.out.Data))
	}
	scale, diff := 1.0, 0.0
	for i, v := range ref {
		scale = max(scale, math.Abs(float64(v)))
		d := math.Abs(float64(v) - float64(l.out.Data[i]))
		if d != d {
			d = math.Inf(1)
		}
		diff = max(diff, d)
	}
	row.diff = diff / scale
	row.agree = row.diff <= sweepTol
	ts := interleave([]func(){func() { l.inferOne(t) }, func() { o.run(t) }}, rounds, 5*time.Millisecond)
	row.l, row.o = ts[0], ts[1]
	row.ratio = float64(ts[0]) / float64(ts[1])
	return row
}

// sweepSummary gives the worst 15 rows and the median ratios, overall
// and per family.
func sweepSummary(rows []sweepRow, rounds int, took time.Duration, load string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d configurations, %d rounds each, in %s; lintel kernels: %s; GOMAXPROCS %d; load average before the summary: %s\n\n",
		len(rows), rounds, took.Round(time.Second), kernelInfo(), runtime.GOMAXPROCS(0), load)
	ratios := func(rs []sweepRow) []float64 {
		out := make([]float64, len(rs))
		for i, r := range rs {
			out[i] = r.ratio
		}
		return out
	}
	fams := map[string][]sweepRow{}
	var order []string
	for _, r := range rows {
		if fams[r.c.family] == nil {
			order = append(order, r.c.family)
		}
		fams[r.c.family] = append(fams[r.c.family], r)
	}
	var fr [][]string
	for _, f := range order {
		rs := ratios(fams[f])
		fr = append(fr, []string{f, fmt.Sprint(len(rs)), fmt.Sprintf("%.2f×", medianF(rs)), fmt.Sprintf("%.2f×", slices.Min(rs)), fmt.Sprintf("%.2f×", slices.Max(rs))})
	}
	all := ratios(rows)
	fr = append(fr, []string{"all", fmt.Sprint(len(all)), fmt.Sprintf("%.2f×", medianF(all)), fmt.Sprintf("%.2f×", slices.Min(all)), fmt.Sprintf("%.2f×", slices.Max(all))})
	b.WriteString("lintel / ONNX Runtime, one thread, by family:\n\n")
	b.WriteString(table([]string{"family", "configs", "median", "best", "worst"}, fr))
	worst := slices.Clone(rows)
	slices.SortFunc(worst, func(a, b sweepRow) int { return -cmpF(a.ratio, b.ratio) })
	worst = worst[:min(15, len(worst))]
	b.WriteString("\nThe 15 configurations where lintel is slowest against ONNX Runtime:\n\n")
	b.WriteString(table(sweepHead, sweepCells(worst)))
	return b.String()
}

var sweepHead = []string{"configuration", "lintel", "ONNX Runtime", "lintel / ORT", "max rel. diff"}

func sweepCells(rows []sweepRow) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		d := fmt.Sprintf("%.1e", r.diff)
		if !r.agree {
			d += " (differs)"
		}
		out[i] = []string{r.c.name, us(r.l), us(r.o), fmt.Sprintf("%.2f×", r.ratio), d}
	}
	return out
}

// sweepMarkdown is sweep.md: the summary, then every row in grid order.
func sweepMarkdown(rows []sweepRow, summary string) string {
	var b strings.Builder
	b.WriteString("# Single-op sweep against ONNX Runtime\n\n")
	b.WriteString("Written by `make bench-sweep` (`BENCH_SWEEP=1 go test -count=1 -tags ort -run TestSweepVsORT -v ./bench`);\n")
	b.WriteString("see docs/benchmarks.md. Each configuration is one node in a model of its own, run on one thread\n")
	b.WriteString("in lintel and in ONNX Runtime (default graph optimisations), alternating, medians.\n\n")
	b.WriteString(summary)
	b.WriteString("\n## Every configuration\n\n")
	b.WriteString(table(sweepHead, sweepCells(rows)))
	return b.String()
}

// sweepCSV is sweep.csv: one line per configuration, times in
// nanoseconds.
func sweepCSV(rows []sweepRow) string {
	var b strings.Builder
	b.WriteString("family,configuration,macs,lintel_ns,ort_ns,ratio,max_rel_diff\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%q,%d,%d,%d,%.4f,%.2e\n", r.c.family, r.c.name, r.c.macs, r.l.Nanoseconds(), r.o.Nanoseconds(), r.ratio, r.diff)
	}
	return b.String()
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// loadAverage returns the first three fields of /proc/loadavg, or "n/a".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], ", ")
}
