package quantize

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/npy"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// linear returns a model y = MatMul(x, w) + b with x [-1, 16] → [-1, 8],
// preceded by the nodes pre (which read x and write h) when given.
func linear(opset int64, pre []onnxbuild.Node, extra ...onnxbuild.Tensor) onnxbuild.Model {
	r := testmodels.Rand(3)
	in := "x"
	if len(pre) > 0 {
		in = "h"
	}
	nodes := append(append([]onnxbuild.Node{}, pre...),
		testmodels.Node("MatMul", []string{in, "w"}, "m"),
		testmodels.Node("Add", []string{"m", "b"}, "y"))
	return onnxbuild.Model{Opset: opset, Graph: onnxbuild.Graph{
		Name:         "linear",
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 16)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 8)},
		Initializers: append([]onnxbuild.Tensor{testmodels.Weight(r, "w", 16, 8), testmodels.Weight(r, "b", 8)}, extra...),
		Nodes:        nodes,
	}}
}

// Everything the quantizer does not rewrite survives: metadata, other
// domains' opset imports, the producer, unrelated initializers, value
// types.
func TestModelKeepsTheRest(t *testing.T) {
	extra := onnxbuild.TensorOf("unused_table", []int64{3}, []int64{7, 8, 9})
	m := linear(17, nil, extra)
	m.Producer = "maker"
	m.Metadata = map[string]string{"author": "someone", "licence": "MIT"}
	m.Opsets = map[string]int64{"com.example": 2}
	m.Graph.ValueInfo = []onnxbuild.Value{onnxbuild.Input("m", payload.Float32, -1, 8)}
	data := m.Encode()
	for _, mode := range []Mode{Dynamic, Static} {
		t.Run(mode.String(), func(t *testing.T) {
			r := testmodels.Rand(4)
			o := Options{Mode: mode, Samples: []Sample{{randInput(r, "x", 4, 16)}}}
			q, rep, err := Model(data, o)
			if err != nil {
				t.Fatalf("Model: %v", err)
			}
			art, err := artifacts.FromBytes(q, "q")
			if err != nil {
				t.Fatalf("FromBytes: %v", err)
			}
			g := art.Graph()
			if g.ProducerName != "maker" || g.Metadata["author"] != "someone" || g.Metadata["licence"] != "MIT" {
				t.Errorf("producer %q, metadata %v", g.ProducerName, g.Metadata)
			}
			if g.Opsets["com.example"] != 2 || g.Opset != 17 || rep.OpsetTo != 17 {
				t.Errorf("opsets %v (report %d → %d), want com.example 2 and ai.onnx 17", g.Opsets, rep.OpsetFrom, rep.OpsetTo)
			}
			if c := g.Const("unused_table"); c == nil || !bytes.Equal(c.Raw, extra.Raw) {
				t.Errorf("initializer unused_table lost or changed: %v", c)
			}
			if g.Const("w") != nil {
				t.Errorf("float weight w still in the model")
			}
			if vi := g.Value("m"); vi == nil || vi.DType != payload.Float32 {
				t.Errorf("value m: %v", vi)
			}
			if len(g.Inputs) != 1 || g.Inputs[0].Name != "x" || len(g.Outputs) != 1 || g.Outputs[0].Name != "y" {
				t.Errorf("inputs %v, outputs %v", g.Inputs, g.Outputs)
			}
		})
	}
}

// An opset-9 model whose Clip, Slice and Softmax change form on the way
// to opset 11 and 13 is converted and computes the same.
func TestModelRaisesOpset(t *testing.T) {
	pre := []onnxbuild.Node{
		testmodels.Node("Clip", []string{"x"}, "c", onnxbuild.AFloat("min", -0.5), onnxbuild.AFloat("max", 0.75)),
		testmodels.Node("Slice", []string{"c"}, "s", onnxbuild.AInts("starts", 0), onnxbuild.AInts("ends", 16), onnxbuild.AInts("axes", 1)),
		testmodels.Node("Softmax", []string{"s"}, "h", onnxbuild.AInt("axis", 1)),
	}
	m := linear(9, pre)
	m.Graph.Inputs[0].Shape = []int64{4, 16}
	data := m.Encode()
	r := testmodels.Rand(5)
	in := randInput(r, "x", 4, 16)
	want := runCPU(t, data, in)
	for _, c := range []struct {
		mode  Mode
		opset int64
	}{{Dynamic, 11}, {Static, 13}} {
		t.Run(c.mode.String(), func(t *testing.T) {
			q, rep, err := Model(data, Options{Mode: c.mode, Samples: []Sample{{in}}})
			if err != nil {
				t.Fatalf("Model: %v", err)
			}
			if rep.OpsetFrom != 9 || rep.OpsetTo != c.opset {
				t.Errorf("opset %d → %d, want 9 → %d", rep.OpsetFrom, rep.OpsetTo, c.opset)
			}
			got := runCPU(t, q, in)
			if e := relErr(got, want); !(e < 0.05) {
				t.Errorf("relative error %.3g after conversion, want < 0.05", e)
			}
		})
	}
}

func TestModelRefuses(t *testing.T) {
	// Pad's pads became an input in opset 11; it is not converted.
	pad := linear(9, []onnxbuild.Node{testmodels.Node("Pad", []string{"x"}, "h", onnxbuild.AInts("pads", 0, 0, 0, 0))})
	// Softmax over more than the last axis cannot become opset 13's.
	soft := linear(9, []onnxbuild.Node{
		testmodels.Node("Reshape", []string{"x", "shape"}, "x3"),
		testmodels.Node("Softmax", []string{"x3"}, "s3", onnxbuild.AInt("axis", 1)),
		testmodels.Node("Reshape", []string{"s3", "back"}, "h"),
	}, onnxbuild.TensorOf("shape", []int64{3}, []int64{-1, 4, 4}), onnxbuild.TensorOf("back", []int64{2}, []int64{-1, 16}))
	ext := linear(17, nil)
	ext.Graph.Initializers[0] = onnxbuild.Tensor{Name: "w", DType: payload.Float32, Shape: []int64{16, 8},
		External: []onnxbuild.KV{{Key: "location", Value: "w.bin"}, {Key: "length", Value: "512"}}}
	r := testmodels.Rand(6)
	static := Options{Mode: Static, Samples: []Sample{{randInput(r, "x", 2, 16)}}}
	cases := []struct {
		name string
		data []byte
		o    Options
		want error
	}{
		{"pad from opset 9", pad.Encode(), Options{}, errs.Unsupported},
		{"softmax axis 1 of 3 to opset 13", soft.Encode(), static, errs.Unsupported},
		{"external data", ext.Encode(), Options{}, errs.Unsupported},
		{"empty", nil, Options{}, errs.InvalidArtifact},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Model(c.data, c.o)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
	// The softmax model converts to opset 11 (dynamic mode) unchanged.
	if _, _, err := Model(soft.Encode(), Options{}); err != nil {
		t.Errorf("dynamic quantization of the softmax model: %v", err)
	}
}

// Bad bytes never panic: every truncation and a byte flipped at every
// offset of a small model give a result or an error wrapping a sentinel.
func TestModelMalformed(t *testing.T) {
	lin := linear(17, nil)
	data := lin.Encode()
	sentinels := []error{errs.InvalidArtifact, errs.Unsupported, errs.ShapeMismatch, errs.ExecutionFailed, errs.ResourceUnavailable}
	check := func(b []byte) {
		t.Helper()
		_, _, err := Model(b, Options{})
		if err == nil {
			return
		}
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("error wraps no sentinel: %v", err)
	}
	for n := range len(data) {
		check(data[:n])
	}
	for i := 0; i < len(data); i += 7 {
		b := bytes.Clone(data)
		b[i] ^= 0x5a
		check(b)
	}
}

func TestAddOutputs(t *testing.T) {
	lin := linear(17, nil)
	data := lin.Encode()
	out, err := AddOutputs(data, []string{"m", "y"})
	if err != nil {
		t.Fatalf("AddOutputs: %v", err)
	}
	art, err := artifacts.FromBytes(out, "o")
	if err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	var names []string
	for _, o := range art.Graph().Outputs {
		names = append(names, o.Name)
	}
	if len(names) != 2 || names[0] != "y" || names[1] != "m" {
		t.Errorf("outputs %v, want [y m]", names)
	}
	if _, err := AddOutputs(data, []string{"nowhere"}); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("unknown value: err = %v, want ShapeMismatch", err)
	}
}

func TestPerChannel(t *testing.T) {
	// Two output columns of a [3, 2] weight: one all zero.
	w := []float32{1, 0, -0.5, 0, 0.25, 0}
	q, s := perChannel(w, []int{3, 2}, 1)
	if s[0] != float32(1)/127 || s[1] != 1 {
		t.Errorf("scales %v, want [1/127 1]", s)
	}
	want := []int8{127, 0, -64, 0, 32, 0}
	for i := range want {
		if q[i] != want[i] {
			t.Errorf("q = %v, want %v", q, want)
			break
		}
	}
	if sc, zp := uint8Params(-1, 3); math.Abs(float64(sc)-4.0/255) > 1e-9 || zp != 64 {
		t.Errorf("uint8Params(-1, 3) = %v, %d; want 4/255, 64", sc, zp)
	}
	if sc, zp := uint8Params(0, 0); sc != 1 || zp != 0 {
		t.Errorf("uint8Params(0, 0) = %v, %d; want 1, 0", sc, zp)
	}
}

func TestPercentiles(t *testing.T) {
	// The values 0.5, 1.5, ... 999.5: dropping 1% a side leaves
	// [10.5, 989.5] to a bin's width.
	h := make([]int64, histBins)
	for v := range 1000 {
		h[bin(float32(v)+0.5, 0, 1000)]++
	}
	lo, hi := percentiles(h, 0, 1000, 99)
	if math.Abs(float64(lo)-10.5) > 0.1 || math.Abs(float64(hi)-989.5) > 0.1 {
		t.Errorf("percentiles = %v, %v; want about 10.5, 989.5", lo, hi)
	}
}

func TestReadSamples(t *testing.T) {
	write := func(dir, name string, v ...float32) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		d := payload.Dynamic{DType: payload.Float32, Shape: []int{len(v)}, Data: payload.AsBytes(v)}
		if err := npy.WriteFile(filepath.Join(dir, name+".npy"), d); err != nil {
			t.Fatal(err)
		}
	}
	flat, nested := t.TempDir(), t.TempDir()
	write(flat, "in_0", 1, 2)
	write(flat, "b", 3)
	write(filepath.Join(nested, "s2"), "in_0", 5)
	write(filepath.Join(nested, "s2"), "b", 6)
	write(filepath.Join(nested, "s1"), "in_0", 7)
	write(filepath.Join(nested, "s1"), "b", 8)
	inputs := []string{"in:0", "b"}
	got, err := ReadSamples(flat, inputs)
	if err != nil || len(got) != 1 || got[0][0].Name != "in:0" || got[0][0].Shape[0] != 2 {
		t.Errorf("flat: %v, %v", got, err)
	}
	got, err = ReadSamples(nested, inputs)
	if err != nil || len(got) != 2 || floats(got[0][0].Data)[0] != 7 || floats(got[1][1].Data)[0] != 6 {
		t.Errorf("nested: %v, %v", got, err)
	}
	if _, err := ReadSamples(flat, []string{"missing"}); !errors.Is(err, errs.ResourceUnavailable) {
		t.Errorf("missing input: err = %v, want ResourceUnavailable", err)
	}
	if _, err := ReadSamples(t.TempDir(), inputs); !errors.Is(err, errs.ResourceUnavailable) {
		t.Errorf("empty folder: err = %v, want ResourceUnavailable", err)
	}
}

// Gemm's attributes and kinds of C survive quantization both ways:
// transB (weights stored [N, K]), alpha and beta, a C that is a graph
// input, and transA in static mode.
func TestModelGemmForms(t *testing.T) {
	r := testmodels.Rand(8)
	wt := testmodels.Weight(r, "w", 8, 16) // [N, K] for transB
	wn := testmodels.Weight(r, "w", 16, 8) // [K, N]
	bias := testmodels.Weight(r, "c", 8)
	cases := []struct {
		name   string
		w      onnxbuild.Tensor
		attrs  []onnxbuild.Attr
		cInput bool
		xShape []int64
		modes  []Mode
		wantQ  int
	}{
		{"transB", wt, []onnxbuild.Attr{onnxbuild.AInt("transB", 1)}, false, []int64{4, 16}, []Mode{Dynamic, Static}, 1},
		{"alpha beta", wn, []onnxbuild.Attr{onnxbuild.AFloat("alpha", 0.5), onnxbuild.AFloat("beta", 2)}, false, []int64{4, 16}, []Mode{Dynamic, Static}, 1},
		{"C input", wn, nil, true, []int64{4, 16}, []Mode{Dynamic, Static}, 1},
		{"transA", wn, []onnxbuild.Attr{onnxbuild.AInt("transA", 1)}, false, []int64{16, 4}, []Mode{Static}, 1},
		{"transA dynamic", wn, []onnxbuild.Attr{onnxbuild.AInt("transA", 1)}, false, []int64{16, 4}, []Mode{Dynamic}, 0},
	}
	for _, c := range cases {
		g := onnxbuild.Graph{
			Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, c.xShape...)},
			Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 4, 8)},
			Initializers: []onnxbuild.Tensor{c.w},
			Nodes:        []onnxbuild.Node{testmodels.Node("Gemm", []string{"x", "w", "c"}, "y", c.attrs...)},
		}
		shape := []int{int(c.xShape[0]), int(c.xShape[1])}
		feeds := []payload.Dynamic{randInput(r, "x", shape...)}
		if c.cInput {
			g.Inputs = append(g.Inputs, onnxbuild.Input("c", payload.Float32, 8))
			feeds = append(feeds, randInput(r, "c", 8))
		} else {
			g.Initializers = append(g.Initializers, bias)
		}
		m := onnxbuild.Model{Opset: 17, Graph: g}
		data := m.Encode()
		want := runCPUMulti(t, data, feeds)
		for _, mode := range c.modes {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				q, rep, err := Model(data, Options{Mode: mode, Samples: []Sample{feeds}})
				if c.wantQ == 0 {
					if !errors.Is(err, errs.Unsupported) {
						t.Fatalf("err = %v, want Unsupported (nothing to quantize)", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("Model: %v", err)
				}
				if len(rep.Quantized) != c.wantQ {
					t.Errorf("quantized %v, skipped %v", rep.Quantized, rep.Skipped)
				}
				if e := relErr(runCPUMulti(t, q, feeds), want); !(e < 0.03) {
					t.Errorf("relative error %.3g, want < 0.03", e)
				}
			})
		}
	}
}
