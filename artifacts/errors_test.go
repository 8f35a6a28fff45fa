package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// TestTruncations cuts a small model at every byte offset: each prefix
// must decode or fail with a sentinel error, never panic.
func TestTruncations(t *testing.T) {
	m := baseModel()
	m.Metadata = map[string]string{"k": "v"}
	m.Graph.Initializers = append(m.Graph.Initializers, onnxbuild.Tensor{Name: "i", DType: payload.Int64, Shape: []int64{2}, Raw: make([]byte, 16), Typed: true})
	m.Graph.Nodes[0].Attrs = []onnxbuild.Attr{onnxbuild.AInts("pads", 1, 2), onnxbuild.AFloat("alpha", 0.5)}
	data := m.Encode()
	if _, err := FromBytes(data, "t.onnx"); err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	failed := 0
	for i := 0; i < len(data); i++ {
		_, err := FromBytes(data[:i:i], "t.onnx")
		if err == nil {
			continue
		}
		failed++
		if !isSentinel(err) || !strings.Contains(err.Error(), "t.onnx") {
			t.Errorf("cut at %d: %v", i, err)
		}
	}
	if failed < len(data)/2 {
		t.Errorf("only %d of %d truncations failed", failed, len(data))
	}
}

func TestMalformed(t *testing.T) {
	good := customNode(pb(nil).str(1, "a").varint(3, 1))
	cases := []struct {
		name  string
		data  []byte
		kind  error
		parts []string
	}{
		{"empty", nil, errInvalid, []string{"no opset_import"}},
		{"no graph", pb(nil).bytes(8, pb(nil).varint(2, 13)), errInvalid, []string{"no graph"}},
		{"graph twice", append(rawModel(13, good), pb(nil).bytes(7, good)...), errInvalid, []string{"graph given twice"}},
		{"graph wire type", pb(nil).varint(7, 1), errInvalid, []string{"field graph has wire type varint, want bytes"}},
		{"ir_version wire type", pb(nil).str(1, "x"), errInvalid, []string{"field ir_version has wire type bytes"}},
		{"bad tag", []byte{0x00}, errInvalid, []string{"field tag"}},
		{"truncated tag", []byte{0x80}, errInvalid, []string{"truncated field tag"}},
		{"truncated length", []byte{0x3a, 0x05, 0x01}, errInvalid, []string{"truncated length-delimited field graph"}},
		{"overflowing varint", append([]byte{0x08}, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), errInvalid, []string{"varint"}},
		{"end group", []byte{0x0c}, errInvalid, []string{"field ir_version has wire type end-group"}},
		{"unknown group", append(rawModel(13, good), 0xf3, 0x01, 0x08, 0x01, 0xf4, 0x01), nil, nil},
		{"unterminated group", append(rawModel(13, good), 0xf3, 0x01, 0x08, 0x01), errInvalid, []string{"field 30"}},
		{"no opset", pb(nil).bytes(7, good), errInvalid, []string{"no opset_import"}},
		{"only another domain", pb(nil).bytes(7, good).bytes(8, pb(nil).str(1, "com.example").varint(2, 1)), nil, nil},
		{"default node without its opset", pb(nil).bytes(7, pb(nil).bytes(1, pb(nil).str(1, "x").str(2, "y").str(3, "n1").str(4, "Relu"))).
			bytes(8, pb(nil).str(1, "com.example").varint(2, 1)), errInvalid, []string{`graph.node[0] "n1"`, "node Relu of the default ONNX domain", "does not import"}},
		{"opset twice", append(rawModel(13, good), pb(nil).bytes(8, pb(nil).str(1, "ai.onnx").varint(2, 13))...), errInvalid, []string{"opset_import[1]", "imported twice"}},
		{"opset no version", pb(nil).bytes(7, good).bytes(8, pb(nil).str(1, "")), errInvalid, []string{"opset version 0"}},
		{"node no op", rawModel(13, pb(nil).bytes(1, pb(nil).str(2, "y").str(3, "n1"))), errInvalid, []string{`graph.node[0] "n1"`, "no op_type"}},
		{"node input wire type", rawModel(13, pb(nil).bytes(1, pb(nil).varint(1, 3))), errInvalid, []string{"graph.node[0]", "field input"}},
		{"sparse initializer", rawModel(13, good.bytes(15, nil)), errUnsupported, []string{"sparse"}},
		{"input without type", rawModel(13, good.bytes(11, pb(nil).str(1, "x"))), errInvalid, []string{`graph.input[0] "x"`, "no type"}},
		{"input without name", rawModel(13, good.bytes(11, nil)), errInvalid, []string{"graph.input[0]", "no name"}},
		{"sequence input", rawModel(13, good.bytes(11, pb(nil).str(1, "s").bytes(2, pb(nil).bytes(4, nil)))), errUnsupported, []string{"sequence"}},
		{"map output", rawModel(13, good.bytes(12, pb(nil).str(1, "m").bytes(2, pb(nil).bytes(5, nil)))), errUnsupported, []string{"map"}},
		{"input with an empty type", rawModel(13, good.bytes(11, pb(nil).str(1, "x").bytes(2, nil))), errInvalid, []string{`graph.input[0] "x"`, "no type"}},
		{"input of a newer kind of type", rawModel(13, good.bytes(11, pb(nil).str(1, "x").bytes(2, pb(nil).bytes(40, nil)))), errUnsupported, []string{`graph.input[0] "x"`, "unknown type"}},
		{"sequence value_info", rawModel(13, good.bytes(13, pb(nil).str(1, "s").bytes(2, pb(nil).bytes(4, nil)))), nil, nil},
		{"string input", rawModel(13, good.bytes(11, pb(nil).str(1, "s").bytes(2, pb(nil).bytes(1, pb(nil).varint(1, 8))))), nil, nil},
		{"input no elem type", rawModel(13, good.bytes(11, pb(nil).str(1, "s").bytes(2, pb(nil).bytes(1, nil)))), errInvalid, []string{"no element type"}},
		{"elem type range", rawModel(13, good.bytes(11, pb(nil).str(1, "s").bytes(2, pb(nil).bytes(1, pb(nil).varint(1, 300))))), errInvalid, []string{"elem_type 300"}},
		{"dim wire type", rawModel(13, good.bytes(11, pb(nil).str(1, "s").bytes(2, pb(nil).bytes(1, pb(nil).varint(1, 1).bytes(2, pb(nil).bytes(1, pb(nil).str(1, "x"))))))), errInvalid, []string{`graph.input[0] "s".type.tensor_type.shape.dim[0]`, "dim_value"}},
		{"initializer no name", rawModel(13, good.bytes(5, pb(nil).varint(2, 1).bytes(9, make([]byte, 4)))), errInvalid, []string{"initializer[0]", "no name"}},
		{"initializer twice", rawModel(13, good.bytes(5, tensorBytes("w", 1)).bytes(5, tensorBytes("w", 1))), errInvalid, []string{`initializer[1] "w"`, "twice"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromBytes(c.data, "bad.onnx")
			if c.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, c.kind, append(c.parts, "bad.onnx")...)
		})
	}
}

func TestTensorErrors(t *testing.T) {
	init := func(fields pb) []byte { return rawModel(13, customNode().bytes(5, pb(nil).str(8, "w").append(fields))) }
	cases := []struct {
		name   string
		fields pb
		kind   error
		parts  []string
	}{
		{"no data type", pb(nil).bytes(9, nil), errInvalid, []string{`initializer[0] "w"`, "no data_type"}},
		{"string without string_data", pb(nil).varint(2, 8), errInvalid, []string{"string_data has 0 values"}},
		{"string_data of a float tensor", pb(nil).varint(2, 1).str(6, "x"), errInvalid, []string{"string_data given for a tensor of element type 1"}},
		{"unknown element type", pb(nil).varint(2, 27).bytes(9, []byte{1}), errUnsupported, []string{"element type 27"}},
		{"segment", pb(nil).varint(2, 1).bytes(3, nil), errUnsupported, []string{"segment"}},
		{"raw too short", pb(nil).varint(1, 2).varint(2, 1).bytes(9, []byte{1, 2, 3, 4}), errInvalid, []string{"raw_data has 4 bytes", "needs 8"}},
		{"raw too long", pb(nil).varint(2, 1).bytes(9, make([]byte, 8)), errInvalid, []string{"raw_data has 8 bytes"}},
		{"no data", pb(nil).varint(1, 2).varint(2, 1), errInvalid, []string{"no data"}},
		{"two sources", pb(nil).varint(2, 1).bytes(9, make([]byte, 4)).float(4, 1), errInvalid, []string{"both raw_data and float_data"}},
		{"wrong typed field", pb(nil).varint(2, 1).varint(7, 1), errInvalid, []string{"int64_data given for a float32 tensor"}},
		{"too few values", pb(nil).varint(1, 3).varint(2, 7).varint(7, 1), errInvalid, []string{"int64_data has 1 values", "needs 3"}},
		{"bad packed", pb(nil).varint(2, 1).bytes(4, []byte{1, 2, 3}), errInvalid, []string{"float_data"}},
		{"truncated packed varint", pb(nil).varint(2, 7).bytes(7, []byte{0x80}), errInvalid, []string{"truncated varint"}},
		{"negative dim", pb(nil).varint(1, 1<<63).varint(2, 1), errInvalid, []string{"dimension"}},
		{"dims wire type", pb(nil).float(1, 1).varint(2, 1), errInvalid, []string{"field dims has wire type fixed32, want varint"}},
		{"huge dims", pb(nil).varint(1, 1<<40).varint(1, 1<<40).varint(2, 1).bytes(9, nil), errInvalid, []string{"MaxTensorElems"}},
		{"location", pb(nil).varint(2, 1).varint(14, 2), errInvalid, []string{"data_location 2"}},
		{"external and raw", pb(nil).varint(2, 1).varint(14, 1).bytes(9, make([]byte, 4)), errInvalid, []string{"external data and raw_data"}},
		{"external refused", pb(nil).varint(2, 1).varint(14, 1).bytes(13, pb(nil).str(1, "location").str(2, "w.bin")), errInvalid, []string{"WithExternalData"}},
		{"external no location", pb(nil).varint(2, 1).varint(14, 1), errInvalid, []string{"without a location"}},
		{"external bad offset", pb(nil).varint(2, 1).varint(14, 1).bytes(13, pb(nil).str(1, "offset").str(2, "-1")), errInvalid, []string{"offset"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromBytes(init(c.fields), "bad.onnx")
			wantErr(t, err, c.kind, append(c.parts, "bad.onnx")...)
		})
	}
}

func TestLimits(t *testing.T) {
	m := baseModel()
	m.Graph.Initializers = append(m.Graph.Initializers, onnxbuild.TensorOf("big", []int64{2, 2, 2}, make([]float32, 8)))
	m.Graph.Nodes = append(m.Graph.Nodes, onnxbuild.Node{Op: "Custom", Domain: "com.example", Outputs: []string{"z"}})
	data := m.Encode()
	if _, err := FromBytes(data, "l.onnx"); err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	cases := []struct {
		name string
		lim  Limits
		part string
	}{
		{"file", Limits{MaxFileBytes: int64(len(data)) - 1}, "MaxFileBytes"},
		{"nodes", Limits{MaxNodes: 1}, "MaxNodes"},
		{"rank", Limits{MaxRank: 2}, "MaxRank"},
		{"elems", Limits{MaxTensorElems: 7}, "MaxTensorElems"},
		{"initializer bytes", Limits{MaxInitializerBytes: 12 + 31}, "MaxInitializerBytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromBytes(data, "l.onnx", WithLimits(c.lim))
			wantErr(t, err, errInvalid, c.part, "l.onnx")
		})
	}
	// At the limits, the file loads.
	ok := Limits{MaxFileBytes: int64(len(data)), MaxNodes: 2, MaxRank: 3, MaxTensorElems: 8, MaxInitializerBytes: 12 + 32}
	if _, err := FromBytes(data, "l.onnx", WithLimits(ok)); err != nil {
		t.Errorf("FromBytes: %v", err)
	}
	// Rank of declared shapes is bounded too.
	m = baseModel()
	m.Graph.Inputs[0].Shape = []int64{-1, 1, 1, 3}
	m.Graph.Outputs[0].Shape = nil
	m.Graph.Outputs[0].NoShape = true
	_, err := FromBytes(m.Encode(), "l.onnx", WithLimits(Limits{MaxRank: 3}))
	wantErr(t, err, errInvalid, "MaxRank", `graph.input[0] "x".type.tensor_type.shape`)
	if d := DefaultLimits(); d.MaxRank != 16 || d.MaxDepth != 8 || d.MaxNodes != 1<<20 || d.MaxFileBytes != 4<<30 {
		t.Errorf("DefaultLimits() = %+v", d)
	}
}

func TestDigest(t *testing.T) {
	m := baseModel()
	data := m.Encode()
	sum := sha256.Sum256(data)
	a := mustLoad(t, data, WithDigest(hex.EncodeToString(sum[:])))
	if a.Digest() != sum {
		t.Errorf("Digest() = %x, want %x", a.Digest(), sum)
	}
	mustLoad(t, data, WithDigest(strings.ToUpper(hex.EncodeToString(sum[:]))))
	other := sha256.Sum256([]byte("other"))
	_, err := FromBytes(data, "d.onnx", WithDigest(hex.EncodeToString(other[:])))
	wantErr(t, err, errInvalid, "SHA-256", "d.onnx")
	_, err = FromBytes(data, "d.onnx", WithDigest("xyz"))
	wantErr(t, err, errInvalid, "WithDigest")
}

// TestGraphErrorsNameTheFile checks that errors from sorting and type
// inference carry the artifact's label.
func TestGraphErrorsNameTheFile(t *testing.T) {
	m := baseModel()
	m.Graph.Nodes[0].Inputs = []string{"x", "nope"}
	_, err := FromBytes(m.Encode(), "g.onnx")
	wantErr(t, err, errInvalid, "g.onnx", "nope")
}

// A subgraph output whose TypeProto is empty has no type, as if the
// field were absent: it decodes, and inference fills it in.
func TestSubgraphOutputEmptyType(t *testing.T) {
	branch := func(v float32) onnxbuild.Graph {
		return onnxbuild.Graph{
			Outputs: []onnxbuild.Value{{Name: "t", Kind: "untyped"}},
			Nodes: []onnxbuild.Node{{Op: "Constant", Outputs: []string{"t"},
				Attrs: []onnxbuild.Attr{onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{1}, []float32{v}))}}},
		}
	}
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("c", payload.Bool)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1)},
		Nodes: []onnxbuild.Node{{Name: "choose", Op: "If", Inputs: []string{"c"}, Outputs: []string{"y"},
			Attrs: []onnxbuild.Attr{onnxbuild.AGraph("then_branch", branch(1)), onnxbuild.AGraph("else_branch", branch(2))}}},
	}}
	art, err := FromBytes(m.Encode(), "if.onnx")
	if err != nil {
		t.Fatalf("FromBytes: %v, want no error", err)
	}
	sub := art.Graph().Nodes[0].Attr("then_branch").G
	if got := sub.Outputs[0]; got.Name != "t" || got.DType != payload.Float32 || !got.RankKnown || len(got.Shape) != 1 || got.Shape[0] != 1 {
		t.Errorf("then_branch output: got %+v, want \"t\" inferred float32 [1]", got)
	}
}

// A subgraph output whose TypeProto holds only a kind of type lintel
// does not know decodes untyped, for inference to fill in; in the model's
// graph the same is refused (TestMalformed).
func TestSubgraphOutputNewerType(t *testing.T) {
	branch := pb(nil).bytes(1, pb(nil).str(1, "x").str(2, "t").str(4, "Identity")).
		bytes(12, pb(nil).str(1, "t").bytes(2, pb(nil).bytes(40, nil)))
	attr := func(name string) pb { return pb(nil).str(1, name).varint(20, 5).bytes(6, branch) }
	node := pb(nil).str(1, "c").str(2, "y").str(4, "If").bytes(5, attr("then_branch")).bytes(5, attr("else_branch"))
	boolIn := pb(nil).str(1, "c").bytes(2, pb(nil).bytes(1, pb(nil).varint(1, uint64(payload.Bool)).bytes(2, nil)))
	graph := pb(nil).bytes(1, node).str(2, "g").bytes(11, boolIn).bytes(11, valueInfo("x", 1)).bytes(12, valueInfo("y", 1))
	art, err := FromBytes(rawModel(13, graph), "if.onnx")
	if err != nil {
		t.Fatalf("FromBytes: %v, want no error", err)
	}
	sub := art.Graph().Nodes[0].Attr("then_branch").G
	if got := sub.Outputs[0]; got.Name != "t" || got.DType != payload.Float32 || !got.RankKnown {
		t.Errorf("then_branch output: got %+v, want \"t\" inferred float32 [1]", got)
	}
}

// A decoder error's Brief names the nearest node and what in it is wrong,
// without the file's name or the steps between subgraphs.
func TestErrorBrief(t *testing.T) {
	seqBranch := onnxbuild.Graph{Outputs: []onnxbuild.Value{{Name: "t", Kind: "sequence"}}}
	cases := []struct {
		name string
		m    onnxbuild.Model
		want string
	}{
		{"subgraph output", onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
			Inputs:  []onnxbuild.Value{onnxbuild.Input("c", payload.Bool)},
			Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1)},
			Nodes: []onnxbuild.Node{{Name: "choose", Op: "If", Inputs: []string{"c"}, Outputs: []string{"y"},
				Attrs: []onnxbuild.Attr{onnxbuild.AGraph("then_branch", seqBranch)}}},
		}}, `node "choose".attribute "then_branch".output "t": sequence type: lintel runs tensors only`},
		{"graph input", onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
			Inputs:  []onnxbuild.Value{{Name: "x", Kind: "optional"}},
			Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1)},
			Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
		}}, `input "x": optional type: lintel runs tensors only`},
		{"opset", onnxbuild.Model{Opset: 99, Graph: onnxbuild.Graph{
			Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1)},
			Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1)},
			Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
		}}, fmt.Sprintf("default-domain opset 99: lintel runs opsets %d to %d", MinOpset, MaxOpset)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromBytes(c.m.Encode(), "dir/model.onnx")
			if err == nil {
				t.Fatal("FromBytes: no error, want one")
			}
			if got := errs.Brief(err); got != c.want {
				t.Errorf("Brief: got %q, want %q", got, c.want)
			}
			if !strings.Contains(err.Error(), "dir/model.onnx") {
				t.Errorf("Error() = %q, want it to name the file", err)
			}
		})
	}
}
