package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// median returns the median of ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// timeRound runs f reps times and returns the time per call.
func timeRound(f func(), reps int) time.Duration {
	t0 := time.Now()
	for range reps {
		f()
	}
	return time.Since(t0) / time.Duration(reps)
}

// interleave runs every runner for rounds rounds of about target each,
// alternating between runners every round, and returns each runner's
// median time per call.
func interleave(runners []func(), rounds int, target time.Duration) []time.Duration {
	reps := make([]int, len(runners))
	for i, f := range runners {
		f()
		d := timeRound(f, 3)
		reps[i] = max(1, int(target/max(d, time.Microsecond)))
	}
	times := make([][]time.Duration, len(runners))
	for range rounds {
		for i, f := range runners {
			times[i] = append(times[i], timeRound(f, reps[i]))
		}
	}
	out := make([]time.Duration, len(runners))
	for i := range runners {
		out[i] = median(times[i])
	}
	return out
}

// table formats rows as a Markdown table.
func table(head []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range head {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}

// us formats a duration in microseconds.
func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3) }

// TestThreadsSpeedup times, in one run, the MLP at batch 64 on one and
// two threads, interleaved, and logs the medians and the speedup
// (make bench-compare prints them). Timings on shared machines are too
// noisy to assert on, so what it checks is that the two-thread model,
// after hundreds of calls through its helper goroutine, still gives the
// same bits as the one-thread model and allocates nothing per call.
func TestThreadsSpeedup(t *testing.T) {
	if testing.Short() {
		t.Skip("timing run")
	}
	c := cases()[1]
	one, two := loadLintel(t, c, 1), loadLintel(t, c, 2)
	ts := interleave([]func(){func() { one.inferOne(t) }, func() { two.inferOne(t) }}, 15, 20*time.Millisecond)
	t.Logf("\n%s", table([]string{"case", "Threads=1", "Threads=2", "speedup"}, [][]string{{c.name, us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1]))}}))

	if got, want := len(two.out.Data), len(one.out.Data); got != want || want == 0 {
		t.Fatalf("%s: %d outputs on two threads, want %d (as on one, not 0)", c.name, got, want)
	}
	for i, want := range one.out.Data {
		if got := two.out.Data[i]; got != want {
			t.Fatalf("%s after the timed calls: element %d is %v on two threads, want %v (one thread)", c.name, i, got, want)
		}
	}
	if got := testing.AllocsPerRun(10, func() { two.inferOne(t) }); got != 0 {
		t.Errorf("%s on two threads after the timed calls: got %v allocations per call, want 0", c.name, got)
	}
}
