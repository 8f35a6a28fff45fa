package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/npy"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// identityModel passes an input of type dt and the given shape through.
func identityModel(dt payload.DType, shape []int) onnxbuild.Model {
	s := make([]int64, len(shape))
	for i, d := range shape {
		s[i] = int64(d)
	}
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", dt, s...)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", dt, s...)},
		Nodes:   []onnxbuild.Node{{Op: "Identity", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
}

// Every .npy fixture (format versions 1.0, 2.0 and 3.0, big-endian and
// Fortran order among them) goes through "lintel run" and an Identity
// model; the output file holds the same tensor, in the canonical form
// numpy.save writes.
func TestRunRoundTripsNpyFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "internal", "npy", "testdata", "*.npy"))
	if err != nil || len(files) < 5 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := npy.ReadFile(f, 0)
			if err != nil {
				t.Fatalf("npy.ReadFile: %v", err)
			}
			model := writeModel(t, "id.onnx", identityModel(in.DType, in.Shape))
			dir := t.TempDir()
			code, out, errOut := runCmd("run", model, "-i", "x="+f, "-o", dir)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got, err := os.ReadFile(filepath.Join(dir, "y.npy"))
			if err != nil {
				t.Fatalf("os.ReadFile: %v", err)
			}
			want, err := npy.Encode(in)
			if err != nil {
				t.Fatalf("npy.Encode: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("y.npy differs from the input's canonical encoding\ngot  %q\nwant %q", got, want)
			}
			if !strings.Contains(out, "y "+in.DType.String()) {
				t.Errorf("summary lacks the output:\n%s", out)
			}
		})
	}
}

// twoInputModel computes y = Relu(a) + b and z = ArgMax(y) with a free
// batch dimension.
func twoInputModel() onnxbuild.Model {
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			{Name: "a", DType: payload.Float32, Shape: []int64{-1, 4}},
			{Name: "b", DType: payload.Float32, Shape: []int64{1, 4}},
		},
		Outputs: []onnxbuild.Value{
			{Name: "y", DType: payload.Float32, Shape: []int64{-1, 4}},
			{Name: "scores/argmax:0", DType: payload.Int64, Shape: []int64{-1, 1}},
		},
		Nodes: []onnxbuild.Node{
			{Op: "Relu", Inputs: []string{"a"}, Outputs: []string{"r"}},
			{Op: "Add", Inputs: []string{"r", "b"}, Outputs: []string{"y"}},
			{Op: "ArgMax", Inputs: []string{"y"}, Outputs: []string{"scores/argmax:0"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 1)}},
		},
	}}
}

func TestRunTwoInputs(t *testing.T) {
	model := writeModel(t, "two.onnx", twoInputModel())
	dir := t.TempDir()
	a := filepath.Join(dir, "a.npy")
	if err := npy.WriteFile(a, payload.DynamicOf("", payload.Tensor[float32]{Shape: []int{2, 4}, Data: []float32{-1, 2, -3, 4, 5, -6, 7, -8}})); err != nil {
		t.Fatalf("npy.WriteFile: %v", err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCmd("run", model, "-i", "a="+a, "-i", "b=random", "-seed", "7", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	y, err := npy.ReadFile(filepath.Join(out, "y.npy"), 0)
	if err != nil {
		t.Fatalf("npy.ReadFile: %v", err)
	}
	b, err := npy.ReadFile(filepath.Join(out, "inputs", "b.npy"), 0)
	if err != nil {
		t.Fatalf("npy.ReadFile: %v", err)
	}
	yv, _ := payload.Typed[float32](y)
	bv, _ := payload.Typed[float32](b)
	relu := []float32{0, 2, 0, 4, 5, 0, 7, 0}
	for i := range relu {
		if want := relu[i] + bv.Data[i%4]; yv.Data[i] != want {
			t.Errorf("y[%d] = %g, want %g", i, yv.Data[i], want)
		}
	}
	arg, err := npy.ReadFile(filepath.Join(out, "scores_argmax_0.npy"), 0)
	if err != nil {
		t.Fatalf("npy.ReadFile: %v", err)
	}
	if arg.DType != payload.Int64 || !cmp.Equal(arg.Shape, []int{2, 1}) {
		t.Errorf("argmax output: got %s %v, want int64 [2 1]", arg.DType, arg.Shape)
	}
	for _, want := range []string{"a float32 [2 4]  min -8  max 7", "argmax 6 [1 2]", "scores/argmax:0 int64 [2 1]", "wrote"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestRunErrors(t *testing.T) {
	model := writeModel(t, "two.onnx", twoInputModel())
	dir := t.TempDir()
	i64 := filepath.Join(dir, "i64.npy")
	if err := npy.WriteFile(i64, payload.DynamicOf("", payload.Tensor[int64]{Shape: []int{1, 4}, Data: []int64{1, 2, 3, 4}})); err != nil {
		t.Fatalf("npy.WriteFile: %v", err)
	}
	bad := filepath.Join(dir, "bad.npy")
	if err := os.WriteFile(bad, []byte("\x93NUMPY\x01\x00\x05\x00{'a':"), 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no model", []string{"run"}, 2, "exactly one model"},
		{"missing input", []string{"run", model, "-i", "a=random"}, 1, `no -i for input b (float32 [1, 4])`},
		{"unknown input", []string{"run", model, "-i", "c=random", "-random"}, 1, "one of the model's inputs"},
		{"twice", []string{"run", model, "-i", "a=random", "-i", "a=random", "-random"}, 1, "given twice"},
		{"wrong dtype", []string{"run", model, "-i", "b=" + i64, "-random"}, 1, `input "b" is float32`},
		{"bad npy", []string{"run", model, "-i", "b=" + bad, "-random"}, 1, "bad.npy"},
		{"bad shape", []string{"run", model, "-random", "-shape", "a=2x5"}, 1, "shape mismatch"},
		{"shape syntax", []string{"run", model, "-random", "-shape", "a=2xq"}, 1, `"q"`},
		{"model missing", []string{"run", filepath.Join(dir, "none.onnx"), "-random"}, 1, "none.onnx"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCmd(c.args...)
			if code != c.code || !strings.Contains(errOut, c.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, c.code, c.msg)
			}
		})
	}
}

func TestParseInterleaved(t *testing.T) {
	fs := newTestFlagSet()
	pos, err := parseInterleaved(fs.fs, []string{"-a", "1", "m.onnx", "-b", "x", "--", "-c"})
	if err != nil {
		t.Fatalf("parseInterleaved: %v", err)
	}
	if !cmp.Equal(pos, []string{"m.onnx", "-c"}) || *fs.a != 1 || *fs.b != "x" {
		t.Errorf("got pos %q, a %d, b %q; want [m.onnx -c], 1, x", pos, *fs.a, *fs.b)
	}
}
