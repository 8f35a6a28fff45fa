package main

import (
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/npy"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/internal/textimg"
	"github.com/lintel-ml/lintel/payload"
)

// writeBytes writes data to a file in a fresh folder and returns its path.
func writeBytes(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	return path
}

// writeNpy writes a float32 tensor as dir/name.npy.
func writeNpy(t *testing.T, dir, name string, shape []int, data []float32) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("os.MkdirAll: %v", err)
	}
	d := payload.Dynamic{DType: payload.Float32, Shape: shape, Data: payload.AsBytes(data)}
	if err := npy.WriteFile(filepath.Join(dir, name+".npy"), d); err != nil {
		t.Fatalf("npy.WriteFile: %v", err)
	}
}

func TestQuantizeUsage(t *testing.T) {
	mlp := writeBytes(t, "mlp.onnx", testmodels.MLP())
	out := filepath.Join(t.TempDir(), "q.onnx")
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"no model", []string{"-o", out}, 2},
		{"no output", []string{mlp}, 2},
		{"bad mode", []string{mlp, "-o", out, "-mode", "fast"}, 2},
		{"static without calib", []string{mlp, "-o", out, "-mode", "static"}, 2},
		{"calib in dynamic mode", []string{mlp, "-o", out, "-calib", "x"}, 2},
		{"bad method", []string{mlp, "-o", out, "-mode", "static", "-calib", "x", "-calib-method", "kl"}, 2},
		{"missing model", []string{filepath.Join(t.TempDir(), "none.onnx"), "-o", out}, 1},
		{"not a model", []string{writeBytes(t, "bad.onnx", []byte("nonsense")), "-o", out}, 1},
		{"missing calibration folder", []string{mlp, "-o", out, "-mode", "static", "-calib", filepath.Join(t.TempDir(), "none")}, 1},
		{"empty calibration folder", []string{mlp, "-o", out, "-mode", "static", "-calib", t.TempDir()}, 1},
		{"bad percentile", []string{mlp, "-o", out, "-mode", "static", "-calib", t.TempDir(), "-calib-method", "percentile", "-percentile", "5"}, 2},
		{"help", []string{"-h"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCmd(append([]string{"quantize"}, c.args...)...)
			if code != c.want {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.want, errOut)
			}
		})
	}
}

// The command quantizes the MLP both ways (static from a flat folder and
// from one subfolder per sample, by min/max and by percentile), and the
// results load and hold the ops each mode emits.
func TestQuantizeCommand(t *testing.T) {
	mlp := writeBytes(t, "mlp.onnx", testmodels.MLP())
	flat, perSample := t.TempDir(), t.TempDir()
	r := testmodels.Rand(7)
	for i := range 3 {
		x := testmodels.Uniform(r, 2*784, 1)
		writeNpy(t, filepath.Join(perSample, fmt.Sprintf("s%d", i)), "x", []int{2, 784}, x)
		if i == 0 {
			writeNpy(t, flat, "x", []int{2, 784}, x)
		}
	}
	cases := []struct {
		name string
		args []string
		ops  []string
	}{
		{"dynamic", nil, []string{"DynamicQuantizeLinear", "MatMulInteger"}},
		{"static flat", []string{"-mode", "static", "-calib", flat}, []string{"QuantizeLinear", "DequantizeLinear", "Gemm"}},
		{"static per sample", []string{"-mode", "static", "-calib", perSample, "-calib-method", "percentile", "-percentile", "99.9"}, []string{"QuantizeLinear"}},
		{"ops and verbose", []string{"-ops", "MatMul,Conv", "-exclude", "none", "-v"}, []string{"MatMulInteger"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "q.onnx")
			code, stdout, errOut := runCmd(append([]string{"quantize", mlp, "-o", out}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, errOut)
			}
			if !strings.Contains(stdout, "3 nodes quantized") || strings.Contains(strings.Join(c.args, " "), "-v") != strings.Contains(stdout, "  quantized  ") {
				t.Errorf("summary lacks the count:\n%s", stdout)
			}
			art, err := artifacts.Open(out)
			if err != nil {
				t.Fatalf("artifacts.Open: %v", err)
			}
			have := map[string]bool{}
			for _, n := range art.Graph().Nodes {
				have[n.OpType] = true
			}
			for _, op := range c.ops {
				if !have[op] {
					t.Errorf("quantized model has no %s", op)
				}
			}
			// Static mode keeps the float product in its QDQ units (a
			// Gemm where a MatMul's bias Add joins it).
			if float := have["MatMul"] || have["Gemm"]; float != (c.args != nil && c.args[0] == "-mode") {
				t.Errorf("float MatMul or Gemm present: %v, want only in static mode", float)
			}
		})
	}
}

// calibrationLines are text lines, other than the demo's, rendered
// upright and turned to calibrate the classifier.
var calibrationLines = []string{"Station 12 departures", "Ref. 77-4410 paid", "open 9:00 to 17:30", "Chapter 3: Results"}

// The PP-OCR classifier quantized both ways (static calibrated on other
// rendered lines) gives the float32 model's top-1 on every demo line.
func TestQuantizedClassifierDemoLines(t *testing.T) {
	model := writeBytes(t, "cls.onnx", models.PPOCRClassifier)
	calib := t.TempDir()
	for i, text := range calibrationLines {
		st := demoLines[i%len(demoLines)].style
		up, err := textimg.Render(text, st)
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		for j, img := range []*image.RGBA{up, textimg.Rotate180(up)} {
			x := make([]float32, clsInputLen)
			if _, err := preprocessCls(img, x); err != nil {
				t.Fatalf("preprocessCls: %v", err)
			}
			writeNpy(t, filepath.Join(calib, fmt.Sprintf("line%d_%d", i, j)), "x", []int{1, clsC, clsH, clsW}, x)
		}
	}
	inputs, err := renderDemoInputs()
	if err != nil {
		t.Fatalf("renderDemoInputs: %v", err)
	}
	float := classifyAll(t, model, inputs)
	for _, c := range []struct{ mode, method string }{{"dynamic", "minmax"}, {"static", "minmax"}, {"static", "percentile"}} {
		mode := c.mode
		t.Run(mode+"/"+c.method, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "q.onnx")
			o := quantizeOptions{model: model, out: out, mode: mode, method: c.method, percentile: 99.99, threads: 1}
			if mode == "static" {
				o.calib = calib
			}
			if _, _, _, err := quantizeModel(o); err != nil {
				t.Fatalf("quantizeModel: %v", err)
			}
			q := classifyAll(t, out, inputs)
			var worst float64
			for i, in := range inputs {
				if argmax2(q[i]) != argmax2(float[i]) {
					t.Errorf("%q turned %s: quantized top-1 %d, float %d (%v vs %v)", in.text, in.truth, argmax2(q[i]), argmax2(float[i]), q[i], float[i])
				}
				worst = max(worst, math.Abs(float64(q[i][0]-float[i][0])))
			}
			t.Logf("%s %s: top-1 as float32 on %d lines; largest probability difference %.2g", mode, c.method, len(inputs), worst)
		})
	}
}

// classifyAll runs the classifier file on every input and returns the
// two probabilities of each.
func classifyAll(t *testing.T, path string, inputs []demoInput) [][2]float32 {
	t.Helper()
	art, err := artifacts.Open(path)
	if err != nil {
		t.Fatalf("artifacts.Open: %v", err)
	}
	m, err := backends.New[tensor, tensor](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatalf("Init: %v", err)
	}
	out := make([][2]float32, len(inputs))
	for i := range inputs {
		var y tensor
		if err := m.InferOne(&inputs[i].in, &y); err != nil {
			t.Fatalf("InferOne: %v", err)
		}
		out[i] = [2]float32{y.Data[0], y.Data[1]}
	}
	return out
}

func argmax2(p [2]float32) int {
	if p[1] > p[0] {
		return 1
	}
	return 0
}
