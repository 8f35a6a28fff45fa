package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// benchOptions configure the bench subcommand.
type benchOptions struct {
	model    string
	batches  intList
	threads  int
	weights  weightsFlag
	duration time.Duration
	inputs   listFlag
	shapes   listFlag
	seed     uint64
	// allocRuns is how many calls the allocation count is averaged over.
	allocRuns int
	progress  *progressBar
	// profile records node times (compute.Options.Profile); trace names
	// the Chrome trace file to write, "" for none.
	profile bool
	trace   string
}

// benchReport is the result of a benchmark. Its JSON form is the output
// of "lintel bench -json".
type benchReport struct {
	Model      string        `json:"model"`
	SHA256     string        `json:"sha256"`
	Backend    string        `json:"backend"`
	Threads    int           `json:"threads"`
	Weights    string        `json:"weights"` // f32, f16 or bf16 (-weights)
	GoVersion  string        `json:"go_version"`
	GOOS       string        `json:"goos"`
	GOARCH     string        `json:"goarch"`
	CPUs       int           `json:"cpus"`
	DurationNs int64         `json:"duration_ns"` // target time per batch size
	Inputs     []valueDesc   `json:"inputs"`      // one item's inputs
	Results    []benchResult `json:"results"`
}

// benchResult is one batch size's measurements. Latencies are of one call:
// InferOne for batch 1, InferBatch of Batch items otherwise.
type benchResult struct {
	Batch         int     `json:"batch"`
	Calls         int     `json:"calls"`
	P50Ns         int64   `json:"p50_ns"`
	P90Ns         int64   `json:"p90_ns"`
	P99Ns         int64   `json:"p99_ns"`
	MaxNs         int64   `json:"max_ns"`
	MeanNs        int64   `json:"mean_ns"`
	ItemsPerSec   float64 `json:"items_per_sec"`
	AllocsPerCall float64 `json:"allocs_per_call"`
	BytesPerCall  float64 `json:"bytes_per_call"`
	// Profile is the per-op and per-node time of the timed calls, with
	// -profile or -trace.
	Profile *profileReport `json:"profile,omitempty"`
	// raw is what the model recorded, for -trace.
	raw compute.Profile
}

// benchModel loads the model and times it at every batch size.
func benchModel(o benchOptions) (*benchReport, error) {
	art, err := artifacts.Open(o.model)
	if err != nil {
		return nil, err
	}
	profiling := o.profile || o.trace != ""
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: o.threads, WeightType: payload.DType(o.weights), Profile: profiling}).LoadModel(art)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return nil, err
	}
	if _, ok := any(m).(compute.Profiler); profiling && !ok {
		return nil, fmt.Errorf("the %s backend does not record profiles", backends.Name)
	}
	md := m.Metadata()
	specs, err := parseInputSpecs(md.Inputs, o.inputs, o.shapes, true)
	if err != nil {
		return nil, err
	}
	ins, err := loadInputs(md.Inputs, specs, rand.New(rand.NewPCG(o.seed, 0x6c696e74656c)))
	if err != nil {
		return nil, err
	}
	digest := art.Digest()
	rep := &benchReport{
		Model: o.model, SHA256: fmt.Sprintf("%x", digest), Backend: backends.Name, Threads: o.threads, Weights: o.weights.String(),
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(),
		DurationNs: int64(o.duration),
	}
	for _, in := range ins {
		rep.Inputs = append(rep.Inputs, valueDesc{Name: in.Name, DType: in.DType.String(), Shape: in.Shape})
	}
	item := payload.Multi{Tensors: ins}
	for bi, n := range o.batches {
		r, err := benchBatch(m, item, n, o, func(frac float64) {
			o.progress.update((float64(bi)+frac)/float64(len(o.batches)), fmt.Sprintf("batch %d", n))
		})
		if err != nil {
			o.progress.finish()
			return nil, fmt.Errorf("batch %d: %w", n, err)
		}
		rep.Results = append(rep.Results, r)
	}
	o.progress.finish()
	return rep, nil
}

// benchBatch times calls of n items for o.duration (at least one call),
// after one warm-up call that grows the model's buffers, then counts the
// allocations of o.allocRuns more calls.
func benchBatch(m *backends.Model[payload.Multi, payload.Multi], item payload.Multi, n int, o benchOptions, progress func(float64)) (benchResult, error) {
	items := make([]payload.Multi, n)
	for i := range items {
		items[i] = item
	}
	outs := make([]payload.Multi, n)
	in := batch.Of(items)
	call := func() error {
		if n == 1 {
			return m.InferOne(&items[0], &outs[0])
		}
		return m.InferBatch(in, outs)
	}
	if err := call(); err != nil {
		return benchResult{}, err
	}
	prof, _ := any(m).(compute.Profiler)
	if prof != nil {
		prof.ResetProfile()
	}
	var lat []time.Duration
	var total time.Duration
	for len(lat) == 0 || total < o.duration {
		start := time.Now()
		if err := call(); err != nil {
			return benchResult{}, err
		}
		d := time.Since(start)
		lat = append(lat, d)
		total += d
		progress(float64(total) / float64(max(o.duration, 1)))
	}

	var recorded compute.Profile
	if prof != nil {
		recorded = prof.Profile()
	}

	// Count allocations as testing.AllocsPerRun does: one processor, so
	// the process's other goroutines (the progress bar, the runtime) add
	// as little as they can to the count.
	var before, after runtime.MemStats
	procs := runtime.GOMAXPROCS(1)
	runtime.ReadMemStats(&before)
	for range o.allocRuns {
		if err := call(); err != nil {
			runtime.GOMAXPROCS(procs)
			return benchResult{}, err
		}
	}
	runtime.ReadMemStats(&after)
	runtime.GOMAXPROCS(procs)

	slices.Sort(lat)
	r := benchResult{
		Batch: n, Calls: len(lat),
		P50Ns: int64(percentile(lat, 50)), P90Ns: int64(percentile(lat, 90)), P99Ns: int64(percentile(lat, 99)),
		MaxNs: int64(lat[len(lat)-1]), MeanNs: int64(total) / int64(len(lat)),
		ItemsPerSec: float64(n*len(lat)) / total.Seconds(),
	}
	if o.profile || o.trace != "" {
		r.Profile, r.raw = summarizeProfile(recorded), recorded
	}
	if o.allocRuns > 0 {
		r.AllocsPerCall = float64(after.Mallocs-before.Mallocs) / float64(o.allocRuns)
		r.BytesPerCall = float64(after.TotalAlloc-before.TotalAlloc) / float64(o.allocRuns)
	}
	return r, nil
}

// percentile returns the nearest-rank p-th percentile of sorted, which
// must not be empty.
func percentile(sorted []time.Duration, p int) time.Duration {
	k := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[min(max(k, 1), len(sorted))-1]
}

// printBench writes the report as a table.
func printBench(w io.Writer, r *benchReport) {
	fmt.Fprintf(w, "%s on %s, %d thread(s), %s weights, %s %s/%s, %d CPUs\n", r.Model, r.Backend, r.Threads, r.Weights, r.GoVersion, r.GOOS, r.GOARCH, r.CPUs)
	for _, in := range r.Inputs {
		fmt.Fprintf(w, "item input %s %s %v\n", in.Name, in.DType, in.Shape)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%6s %7s %10s %10s %10s %10s %12s %12s %12s\n", "batch", "calls", "p50", "p90", "p99", "max", "items/s", "allocs/call", "bytes/call")
	for _, x := range r.Results {
		fmt.Fprintf(w, "%6d %7d %10v %10v %10v %10v %12.1f %12.1f %12.0f\n", x.Batch, x.Calls,
			round(time.Duration(x.P50Ns)), round(time.Duration(x.P90Ns)), round(time.Duration(x.P99Ns)), round(time.Duration(x.MaxNs)),
			x.ItemsPerSec, x.AllocsPerCall, x.BytesPerCall)
	}
	for _, x := range r.Results {
		if x.Profile != nil {
			printProfile(w, x.Batch, x.Profile)
		}
	}
}

// writeTraceFile writes the trace of every batch size's timed calls.
func writeTraceFile(path, model string, rep *benchReport) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	var runs []traceRun
	for _, x := range rep.Results {
		runs = append(runs, traceRun{label: fmt.Sprintf("%s batch %d", filepath.Base(model), x.Batch), p: x.raw})
	}
	return writeTrace(f, runs)
}

// runBench is the bench subcommand.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := benchOptions{batches: intList{1}}
	fs.Var(&o.batches, "batch", "comma-separated `sizes` of the batches to time, such as 1,8,64")
	fs.IntVar(&o.threads, "threads", 1, "threads the model may use")
	fs.Var(&o.weights, "weights", weightsUsage)
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "time spent on each batch size")
	fs.Var(&o.inputs, "i", "an input of one item: `NAME=FILE.npy` or NAME=random (default random)")
	fs.Var(&o.shapes, "shape", "shape of one item's random input, `NAME=DIMS` such as x=1x3x48x192")
	fs.Uint64Var(&o.seed, "seed", 1, "seed for random inputs")
	fs.IntVar(&o.allocRuns, "allocruns", 10, "calls the allocation count is averaged over")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	fs.BoolVar(&o.profile, "profile", false, "record each node's time and print per-op-type and per-node tables (time, share, runs, GFLOPS)")
	fs.StringVar(&o.trace, "trace", "", "write a Chrome trace-event `FILE.json` of the timed calls' nodes (opens in ui.perfetto.dev, or Chromium DevTools' Performance panel)")
	progress := fs.String("progress", "auto", "draw a progress bar on stderr: auto (when a terminal), always or never")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lintel bench MODEL.onnx [-batch 1,8,64] [-threads 1] [-duration 5s] [-json]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Times a model on the backend in this binary. For each batch size it warms up")
		fmt.Fprintln(stderr, "with one call, then calls InferOne (batch 1) or InferBatch (n copies of one")
		fmt.Fprintln(stderr, "item) for -duration and reports the p50, p90, p99 and max latency of a call,")
		fmt.Fprintln(stderr, "the throughput in items per second, and the heap allocations per call.")
		fmt.Fprintln(stderr, "One item's inputs are random unless given with -i; a free leading dimension")
		fmt.Fprintln(stderr, "is 1, other free dimensions need -shape.")
		fmt.Fprintln(stderr, "With -profile or -trace the model records each node's time (two clock reads")
		fmt.Fprintln(stderr, "per node per call, included in the latencies); -trace keeps the first")
		fmt.Fprintln(stderr, "32768 node runs of each batch size.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(pos) != 1 || o.threads < 1 || o.duration < 0 || o.allocRuns < 0 {
		fmt.Fprintln(stderr, "lintel bench: want exactly one model file, -threads ≥ 1, -duration ≥ 0 and -allocruns ≥ 0")
		fs.Usage()
		return 2
	}
	switch *progress {
	case "auto":
		o.progress = newProgressBar(stderr, isTerminal(stderr))
	case "always":
		o.progress = newProgressBar(stderr, true)
	case "never":
	default:
		fmt.Fprintf(stderr, "lintel bench: -progress %q: want auto, always or never\n", *progress)
		return 2
	}
	o.model = pos[0]
	rep, err := benchModel(o)
	if err != nil {
		fmt.Fprintf(stderr, "lintel bench: %v\n", err)
		return 1
	}
	if o.trace != "" {
		if err := writeTraceFile(o.trace, o.model, rep); err != nil {
			fmt.Fprintf(stderr, "lintel bench: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "lintel bench: %v\n", err)
			return 1
		}
		return 0
	}
	printBench(stdout, rep)
	return 0
}
