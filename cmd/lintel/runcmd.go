package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/npy"
	"github.com/lintel-ml/lintel/payload"
)

// runOptions configure the run subcommand.
type runOptions struct {
	model   string
	inputs  listFlag // -i NAME=FILE.npy | NAME=random
	shapes  listFlag // -shape NAME=DIMS
	random  bool     // random data for every input without -i
	outDir  string
	seed    uint64
	threads int
	weights weightsFlag
}

// runResult is what one run produced.
type runResult struct {
	inputs  []payload.Dynamic
	outputs []payload.Dynamic
	elapsed time.Duration
	// written lists the files written to outDir.
	written []string
}

// runModel loads the model, reads or makes its inputs, runs it once and
// writes its outputs as .npy files when an output folder is given.
func runModel(o runOptions) (*runResult, error) {
	art, err := artifacts.Open(o.model)
	if err != nil {
		return nil, err
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: o.threads, WeightType: payload.DType(o.weights)}).LoadModel(art)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return nil, err
	}
	md := m.Metadata()
	specs, err := parseInputSpecs(md.Inputs, o.inputs, o.shapes, o.random)
	if err != nil {
		return nil, err
	}
	ins, err := loadInputs(md.Inputs, specs, rand.New(rand.NewPCG(o.seed, 0x6c696e74656c)))
	if err != nil {
		return nil, err
	}
	var out payload.Multi
	start := time.Now()
	if err := m.InferOne(&payload.Multi{Tensors: ins}, &out); err != nil {
		return nil, err
	}
	r := &runResult{inputs: ins, outputs: out.Tensors, elapsed: time.Since(start)}
	if o.outDir == "" {
		return r, nil
	}
	if err := os.MkdirAll(o.outDir, 0o755); err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, t := range out.Tensors {
		path := filepath.Join(o.outDir, uniqueName(used, t.Name)+".npy")
		if err := npy.WriteFile(path, npyCompatible(t)); err != nil {
			return nil, fmt.Errorf("output %q: %w", t.Name, err)
		}
		r.written = append(r.written, path)
	}
	// Random inputs are saved too, so the run can be repeated from files.
	used = map[string]bool{}
	for _, in := range ins {
		if specs[in.Name].path != "" {
			continue
		}
		dir := filepath.Join(o.outDir, "inputs")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		path := filepath.Join(dir, uniqueName(used, in.Name)+".npy")
		if err := npy.WriteFile(path, npyCompatible(in)); err != nil {
			return nil, fmt.Errorf("input %q: %w", in.Name, err)
		}
		r.written = append(r.written, path)
	}
	return r, nil
}

// npyCompatible converts bfloat16, which NumPy lacks, to float32.
func npyCompatible(d payload.Dynamic) payload.Dynamic {
	if d.DType != payload.BF16 {
		return d
	}
	vals := asFloat64s(d)
	f := make([]float32, len(vals))
	for i, v := range vals {
		f[i] = float32(v)
	}
	d.DType, d.Data = payload.Float32, payload.AsBytes(f)
	return d
}

// uniqueName turns a tensor name into a file name: characters other than
// letters, digits, '.', '-' and '_' become '_', and a repeat gets a
// numeric suffix.
func uniqueName(used map[string]bool, name string) string {
	s := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
	s = strings.TrimLeft(s, ".")
	if s == "" {
		s = "tensor"
	}
	base := s
	for i := 2; used[s]; i++ {
		s = fmt.Sprintf("%s_%d", base, i)
	}
	used[s] = true
	return s
}

// runRun is the run subcommand.
func runRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runOptions
	fs.Var(&o.inputs, "i", "an input: `NAME=FILE.npy` or NAME=random (repeat for each input)")
	fs.Var(&o.shapes, "shape", "shape of a random input, `NAME=DIMS` such as x=1x3x48x192")
	fs.BoolVar(&o.random, "random", false, "random data for every input not given with -i")
	fs.StringVar(&o.outDir, "o", "", "write outputs (and random inputs, under inputs/) as .npy files to this `folder`")
	fs.Uint64Var(&o.seed, "seed", 1, "seed for random inputs")
	fs.IntVar(&o.threads, "threads", 1, "threads the model may use")
	fs.Var(&o.weights, "weights", weightsUsage)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lintel run MODEL.onnx -i NAME=FILE.npy ... [-o OUTDIR]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Runs a model once on inputs read from NumPy .npy files (any of float16/32/64,")
		fmt.Fprintln(stderr, "int8/16/32/64, uint8/16/32/64, bool; format versions 1.0 to 3.0) or random")
		fmt.Fprintln(stderr, "data: floats uniform in [-1, 1), integers in [0, 10). A bfloat16 input reads")
		fmt.Fprintln(stderr, "its raw bits from a uint16 file; bfloat16 outputs are written as float32.")
		fmt.Fprintln(stderr, "A free leading")
		fmt.Fprintln(stderr, "dimension of a random input is 1; give other free dimensions with -shape.")
		fmt.Fprintln(stderr, "Prints each output's shape, min, max, mean and argmax and writes it to")
		fmt.Fprintln(stderr, "OUTDIR/NAME.npy.")
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
	if len(pos) != 1 || o.threads < 1 {
		fmt.Fprintln(stderr, "lintel run: want exactly one model file, and -threads ≥ 1")
		fs.Usage()
		return 2
	}
	o.model = pos[0]
	r, err := runModel(o)
	if err != nil {
		fmt.Fprintf(stderr, "lintel run: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s on %s in %v\n", o.model, backends.Name, round(r.elapsed))
	fmt.Fprintln(stdout, "\ninputs")
	for _, in := range r.inputs {
		fmt.Fprintf(stdout, "  %v\n", summarize(in))
	}
	fmt.Fprintln(stdout, "\noutputs")
	for _, out := range r.outputs {
		fmt.Fprintf(stdout, "  %v\n", summarize(out))
	}
	if len(r.written) > 0 {
		fmt.Fprintln(stdout, "\nwrote")
		for _, p := range r.written {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
	}
	return 0
}
