package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/textimg"
	"github.com/lintel-ml/lintel/payload"
)

// demoOptions configure the demo.
type demoOptions struct {
	// runs is how many timed InferOne calls to make.
	runs int
	// threads is compute.Options.Threads.
	threads int
	// pngDir, if not empty, is a folder to write the rendered lines to.
	pngDir string
}

// lineResult is the classifier's answer for one rendered line.
type lineResult struct {
	text    string
	truth   string // "0" or "180"
	width   int    // width of the rendered image, in pixels
	pred    string
	prob    float32
	correct bool
}

// demoReport is what the demo found.
type demoReport struct {
	backend string
	results []lineResult
	// batchMaxDiff is the largest difference between a probability from
	// InferBatch and the same one from InferOne.
	batchMaxDiff float64
	// batchAgrees says InferBatch gave every line the same label.
	batchAgrees bool
	// oneMedian and oneP90 are InferOne latencies; batchPerItem is the
	// time of one InferBatch over all lines divided by their number.
	oneMedian, oneP90, batchPerItem time.Duration
	runs                            int
}

// wrong counts the lines whose orientation the classifier got wrong.
func (r *demoReport) wrong() int {
	n := 0
	for _, l := range r.results {
		if !l.correct {
			n++
		}
	}
	return n
}

type tensor = payload.Tensor[float32]

// demoInput is one rendered, preprocessed line.
type demoInput struct {
	text  string
	truth string
	img   *image.RGBA
	in    tensor
}

// renderDemoInputs renders every demo line upright and upside down and
// preprocesses each for the classifier.
func renderDemoInputs() ([]demoInput, error) {
	var out []demoInput
	for _, l := range demoLines {
		up, err := textimg.Render(l.text, l.style)
		if err != nil {
			return nil, err
		}
		for _, v := range []struct {
			truth string
			img   *image.RGBA
		}{{models.PPOCRClassifierLabels[0], up}, {models.PPOCRClassifierLabels[1], textimg.Rotate180(up)}} {
			in := payload.NewTensor[float32](1, clsC, clsH, clsW)
			if _, err := preprocessCls(v.img, in.Data); err != nil {
				return nil, err
			}
			out = append(out, demoInput{text: l.text, truth: v.truth, img: v.img, in: in})
		}
	}
	return out, nil
}

// classify reads the classifier's [1, 2] output as a label and its
// probability.
func classify(out *tensor) (string, float32, error) {
	if len(out.Shape) != 2 || out.Shape[0] != 1 || out.Shape[1] != 2 || len(out.Data) != 2 {
		return "", 0, errs.New(errs.ShapeMismatch, "demo: classifier output has shape %v, want [1 2]", out.Shape)
	}
	if out.Data[1] > out.Data[0] {
		return models.PPOCRClassifierLabels[1], out.Data[1], nil
	}
	return models.PPOCRClassifierLabels[0], out.Data[0], nil
}

// runClassifierDemo loads the embedded classifier, classifies every
// rendered line with InferOne, checks that one InferBatch over all lines
// agrees, and times both.
func runClassifierDemo(opts demoOptions) (*demoReport, error) {
	inputs, err := renderDemoInputs()
	if err != nil {
		return nil, err
	}
	if opts.pngDir != "" {
		if err := writePNGs(opts.pngDir, inputs); err != nil {
			return nil, err
		}
	}

	art, err := artifacts.FromBytes(models.PPOCRClassifier, models.PPOCRClassifierFile)
	if err != nil {
		return nil, err
	}
	be := backends.New[tensor, tensor](compute.Options{Threads: opts.threads})
	m, err := be.LoadModel(art)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return nil, err
	}

	rep := &demoReport{backend: backends.Name, runs: opts.runs}
	ones := make([]tensor, len(inputs))
	for i := range inputs {
		if err := m.InferOne(&inputs[i].in, &ones[i]); err != nil {
			return nil, fmt.Errorf("line %q (%s): %w", inputs[i].text, inputs[i].truth, err)
		}
		pred, prob, err := classify(&ones[i])
		if err != nil {
			return nil, err
		}
		rep.results = append(rep.results, lineResult{
			text: inputs[i].text, truth: inputs[i].truth, width: inputs[i].img.Bounds().Dx(),
			pred: pred, prob: prob, correct: pred == inputs[i].truth,
		})
	}

	ins := make([]tensor, len(inputs))
	for i := range inputs {
		ins[i] = inputs[i].in
	}
	outs := make([]tensor, len(ins))
	start := time.Now()
	if err := m.InferBatch(batch.Of(ins), outs); err != nil {
		return nil, err
	}
	rep.batchPerItem = time.Since(start) / time.Duration(len(ins))
	rep.batchAgrees = true
	for i := range outs {
		pred, _, err := classify(&outs[i])
		if err != nil {
			return nil, err
		}
		if pred != rep.results[i].pred {
			rep.batchAgrees = false
		}
		for j := range outs[i].Data {
			rep.batchMaxDiff = max(rep.batchMaxDiff, absDiff(outs[i].Data[j], ones[i].Data[j]))
		}
	}

	if opts.runs > 0 {
		lat := make([]time.Duration, opts.runs)
		var out tensor
		for r := range lat {
			in := &inputs[r%len(inputs)].in
			start := time.Now()
			if err := m.InferOne(in, &out); err != nil {
				return nil, err
			}
			lat[r] = time.Since(start)
		}
		slices.Sort(lat)
		rep.oneMedian = lat[len(lat)/2]
		rep.oneP90 = lat[min(len(lat)-1, len(lat)*9/10)]
	}
	return rep, nil
}

func absDiff(a, b float32) float64 {
	d := float64(a) - float64(b)
	if d < 0 {
		return -d
	}
	return d
}

// writePNGs writes each rendered line to dir as NN_<truth>.png.
func writePNGs(dir string, inputs []demoInput) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, in := range inputs {
		name := filepath.Join(dir, fmt.Sprintf("%02d_%s.png", i/2, in.truth))
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		err = png.Encode(f, in.img)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// printReport writes the demo's table and timings.
func printReport(w io.Writer, rep *demoReport) {
	fmt.Fprintf(w, "PP-OCR mobile v2.0 direction classifier (%s, %d bytes) on the %s backend\n\n",
		models.PPOCRClassifierFile, len(models.PPOCRClassifier), rep.backend)
	textW := len("text")
	for _, r := range rep.results {
		textW = max(textW, len(r.text))
	}
	fmt.Fprintf(w, "%-*s  %5s  %5s  %9s  %11s  %s\n", textW, "text", "width", "true", "predicted", "probability", "ok")
	for _, r := range rep.results {
		ok := "yes"
		if !r.correct {
			ok = "NO"
		}
		fmt.Fprintf(w, "%-*s  %5d  %5s  %9s  %11.4f  %s\n", textW, r.text, r.width, r.truth, r.pred, r.prob, ok)
	}
	fmt.Fprintf(w, "\n%d of %d orientations correct\n", len(rep.results)-rep.wrong(), len(rep.results))
	agree := "same labels"
	if !rep.batchAgrees {
		agree = "DIFFERENT labels"
	}
	fmt.Fprintf(w, "InferBatch over all %d lines: %s as InferOne, largest probability difference %.3g\n",
		len(rep.results), agree, rep.batchMaxDiff)
	if rep.runs > 0 {
		fmt.Fprintf(w, "InferOne latency over %d runs: median %v, p90 %v\n", rep.runs, round(rep.oneMedian), round(rep.oneP90))
	}
	fmt.Fprintf(w, "InferBatch time per item: %v\n", round(rep.batchPerItem))
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= 10*time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}

// runDemo is the demo subcommand.
func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := demoOptions{}
	fs.IntVar(&opts.runs, "runs", 50, "number of timed InferOne calls")
	fs.IntVar(&opts.threads, "threads", 1, "threads the model may use")
	fs.StringVar(&opts.pngDir, "png", "", "write the rendered lines as PNG files to this folder")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lintel demo [flags]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Renders English text lines with the Go fonts, upright and turned by 180°,")
		fmt.Fprintln(stderr, "and classifies their direction with PaddleOCR's PP-OCR mobile v2.0")
		fmt.Fprintln(stderr, "classifier, embedded in the binary. Exits 1 if any orientation is wrong.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || opts.runs < 0 || opts.threads < 1 {
		fmt.Fprintln(stderr, "lintel demo: -runs must be ≥ 0 and -threads ≥ 1; no arguments are taken")
		fs.Usage()
		return 2
	}
	rep, err := runClassifierDemo(opts)
	if err != nil {
		fmt.Fprintf(stderr, "lintel demo: %v\n", err)
		return 1
	}
	printReport(stdout, rep)
	if n := rep.wrong(); n > 0 || !rep.batchAgrees {
		fmt.Fprintf(stderr, "lintel demo: %d orientations wrong; InferBatch agrees with InferOne: %v\n", n, rep.batchAgrees)
		return 1
	}
	return 0
}
