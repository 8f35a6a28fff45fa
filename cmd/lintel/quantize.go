package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/quantize"
)

// quantizeOptions configure the quantize subcommand.
type quantizeOptions struct {
	model, out string
	mode       string
	calib      string
	method     string
	percentile float64
	ops        string
	exclude    listFlag
	threads    int
	verbose    bool
}

// quantizeModel reads the model, quantizes it as o says and writes the
// result.
func quantizeModel(o quantizeOptions) (*quantize.Report, int, int, error) {
	data, err := os.ReadFile(o.model)
	if err != nil {
		return nil, 0, 0, err
	}
	qo := quantize.Options{Exclude: o.exclude, Percentile: o.percentile, Threads: o.threads}
	if o.ops != "" {
		qo.Ops = strings.Split(o.ops, ",")
	}
	if o.method == "percentile" {
		qo.Method = quantize.Percentile
	}
	if o.mode == "static" {
		qo.Mode = quantize.Static
		art, err := artifacts.FromBytes(data, o.model)
		if err != nil {
			return nil, 0, 0, err
		}
		var names []string
		for _, in := range art.Graph().Inputs {
			names = append(names, in.Name)
		}
		if qo.Samples, err = quantize.ReadSamples(o.calib, names); err != nil {
			return nil, 0, 0, err
		}
	}
	q, rep, err := quantize.Model(data, qo)
	if err != nil {
		return rep, 0, 0, err
	}
	if err := os.WriteFile(o.out, q, 0o644); err != nil {
		return rep, 0, 0, err
	}
	return rep, len(data), len(q), nil
}

// runQuantize is the quantize subcommand.
func runQuantize(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("quantize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o quantizeOptions
	fs.StringVar(&o.out, "o", "", "write the quantized model to this `file` (required)")
	fs.StringVar(&o.mode, "mode", "dynamic", "`dynamic` (int8 weights, activations quantized as the model runs) or static (QDQ, calibrated)")
	fs.StringVar(&o.calib, "calib", "", "static mode: `folder` of calibration inputs, NAME.npy per input, or one subfolder of them per sample")
	fs.StringVar(&o.method, "calib-method", "minmax", "static mode: activation ranges by `minmax` or percentile")
	fs.Float64Var(&o.percentile, "percentile", 99.99, "with -calib-method percentile: keep this `percent` of the values in range")
	fs.StringVar(&o.ops, "ops", "", "comma-separated op `types` to quantize (default MatMul,Gemm,Conv)")
	fs.Var(&o.exclude, "exclude", "a `node` name to leave in float32 (repeat for several)")
	fs.IntVar(&o.threads, "threads", 1, "threads the calibration runs may use")
	fs.BoolVar(&o.verbose, "v", false, "list every node quantized and skipped")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lintel quantize MODEL.onnx -o OUT.onnx [-mode dynamic|static -calib DIR]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Writes an 8-bit copy of a float32 model in standard ONNX ops. The weights of")
		fmt.Fprintln(stderr, "MatMul, Gemm and Conv become int8, symmetric per output channel. Dynamic mode")
		fmt.Fprintln(stderr, "quantizes their activations as the model runs (DynamicQuantizeLinear,")
		fmt.Fprintln(stderr, "MatMulInteger, ConvInteger); static mode puts QuantizeLinear/DequantizeLinear")
		fmt.Fprintln(stderr, "pairs on their inputs and outputs, uint8 activations with ranges measured by")
		fmt.Fprintln(stderr, "running the float model on the calibration inputs, int32 biases. See")
		fmt.Fprintln(stderr, "docs/quantize.md.")
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
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "lintel quantize: %s\n", msg)
		fs.Usage()
		return 2
	}
	switch {
	case len(pos) != 1:
		return usageErr("want exactly one model file")
	case o.out == "":
		return usageErr("want -o OUT.onnx")
	case o.mode != "dynamic" && o.mode != "static":
		return usageErr(fmt.Sprintf("-mode %q: want dynamic or static", o.mode))
	case o.mode == "static" && o.calib == "":
		return usageErr("static mode needs -calib DIR")
	case o.mode == "dynamic" && o.calib != "":
		return usageErr("-calib is for static mode")
	case o.method != "minmax" && o.method != "percentile":
		return usageErr(fmt.Sprintf("-calib-method %q: want minmax or percentile", o.method))
	case !(o.percentile > 50 && o.percentile <= 100):
		return usageErr(fmt.Sprintf("-percentile %v: want a percent in (50, 100]", o.percentile))
	case o.threads < 1:
		return usageErr("want -threads ≥ 1")
	}
	o.model = pos[0]
	rep, before, after, err := quantizeModel(o)
	if err != nil {
		fmt.Fprintf(stderr, "lintel quantize: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s, %d nodes quantized, %d left in float32", o.out, o.mode, len(rep.Quantized), len(rep.Skipped))
	if rep.OpsetTo != rep.OpsetFrom {
		fmt.Fprintf(stdout, ", opset %d raised to %d", rep.OpsetFrom, rep.OpsetTo)
	}
	fmt.Fprintf(stdout, "; %d → %d bytes\n", before, after)
	if o.verbose {
		for _, n := range rep.Quantized {
			fmt.Fprintf(stdout, "  quantized  %s\n", n)
		}
		for _, n := range rep.Skipped {
			fmt.Fprintf(stdout, "  skipped    %s\n", n)
		}
	}
	return 0
}
