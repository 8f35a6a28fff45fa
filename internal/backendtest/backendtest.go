// Package backendtest lets the tests of a package that runs models on the
// backend the build tags chose skip as a whole where that backend cannot
// run: a -tags cuda build tested on a machine without the driver or a GPU.
//
// Rules: a package opts in with one TestMain calling Main. The CPU backend
// always runs, so default builds run every test. With REQUIRE_CUDA=1 in
// the environment nothing is skipped: a backend that cannot run fails the
// package instead, so a run on a GPU machine cannot pass by skipping.
// Only compute.ErrResourceUnavailable skips; any other load error is left
// to the tests to report. A probe model that cannot be built is a fault of
// this package, never a reason to skip: Main fails the package with it.
package backendtest

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// Main runs the package's tests, or none where the chosen backend cannot
// run, and returns the exit code for os.Exit.
func Main(m *testing.M) int {
	if err := Available(); err != nil {
		if errors.Is(err, ErrProbe) {
			fmt.Fprintf(os.Stderr, "backendtest: cannot tell whether the %s backend runs: %v\n", backends.Name, err)
			return 1
		}
		if os.Getenv("REQUIRE_CUDA") == "1" {
			fmt.Fprintf(os.Stderr, "REQUIRE_CUDA=1 but the %s backend cannot run: %v\n", backends.Name, err)
			return 1
		}
		fmt.Printf("skipping every test: the %s backend cannot run here: %v\n", backends.Name, err)
		return 0
	}
	return m.Run()
}

// ErrProbe marks an error of Available's probe model itself, which says
// nothing about the backend.
var ErrProbe = errors.New("backendtest: the probe model cannot be built")

// Available loads and runs a one-node model on the chosen backend and
// returns the error when the backend lacks a resource (a driver, a
// device) to run it; nil otherwise. When the probe model itself does not
// decode it returns an error matching ErrProbe, with the reason, rather
// than call the backend available.
func Available() error {
	return probe(reluProbe())
}

// reluProbe is the probe model: y = Relu(x) for x of shape [1, 4].
func reluProbe() []byte {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 4)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 4)},
		Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	return m.Encode()
}

// probe is Available with the probe model's bytes given.
func probe(file []byte) error {
	type T = payload.Tensor[float32]
	art, err := artifacts.FromBytes(file, "probe.onnx")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrProbe, err)
	}
	mdl, err := backends.New[T, T](compute.Options{}).LoadModel(art)
	if err == nil {
		defer mdl.Close()
		if err = mdl.Init(); err == nil {
			in, out := T{Shape: []int{1, 4}, Data: make([]float32, 4)}, T{}
			err = mdl.InferOne(&in, &out)
		}
	}
	if errors.Is(err, compute.ErrResourceUnavailable) {
		return err
	}
	return nil
}
