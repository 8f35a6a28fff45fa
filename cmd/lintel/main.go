// Command lintel runs ONNX models with lintel from the command line.
//
// Usage:
//
//	lintel <command> [flags]
//
// The commands are:
//
//	inspect  describe a model: producer, opsets, inputs and outputs,
//	         parameters, a histogram of its ops, and every node the
//	         backend in this binary cannot run
//	run      run a model once on inputs from NumPy .npy files or random
//	         data, print a summary of each output and write it as .npy
//	bench    time a model at several batch sizes: p50/p90/p99/max
//	         latency, throughput and allocations per call (-json too)
//	quantize write an 8-bit copy of a float32 model: int8 weights per
//	         channel, activations quantized as it runs (dynamic) or
//	         with ranges calibrated on .npy inputs (static, QDQ)
//	demo     classify the direction of rendered text lines with PP-OCR's
//	         direction classifier, shipped inside the binary
//
// The backend is the one the build tags chose (package backends).
//
// Every command exits 0 on success, 1 when it fails and 2 for a usage
// error. inspect also exits 3 for a valid model that lintel cannot run:
// an op the backend lacks, or something lintel cannot represent, such as
// a string, sequence, map, optional or sparse value, or an opset out of
// range; it names what in one line (-v prints the decoder's whole path).
//
// Run "lintel <command> -h" for a command's flags.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: its name, a one-line summary, and the
// function that parses its own flags from args and runs it, returning the
// process's exit status.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order usage shows them. Each one
// parses its flags with its own flag.FlagSet.
var commands = []command{
	{name: "inspect", summary: "describe a model: inputs, outputs, parameters, ops, what the backend lacks", run: runInspect},
	{name: "run", summary: "run a model once on .npy or random inputs; write its outputs as .npy", run: runRun},
	{name: "bench", summary: "time a model at several batch sizes: latency percentiles, throughput, allocations", run: runBench},
	{name: "quantize", summary: "write an int8 copy of a model: dynamic, or static (QDQ) calibrated on .npy inputs", run: runQuantize},
	{name: "demo", summary: "classify the direction of rendered text lines (PP-OCR classifier)", run: runDemo},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit status: 0 on
// success, 1 when the command failed, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "lintel: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: lintel <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "lintel <command> -h" for a command's flags.`)
}
