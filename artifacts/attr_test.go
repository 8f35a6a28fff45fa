package artifacts

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// subgraphBytes is a small self-contained graph: z = Custom().
func subgraphBytes(name string) pb {
	n := pb(nil).str(2, "z").str(4, "Custom").str(7, "com.example")
	return pb(nil).bytes(1, n).str(2, name).bytes(12, valueInfo("z", 1))
}

func tensorBytes(name string, vals ...float32) pb {
	t := onnxbuild.TensorOf(name, []int64{int64(len(vals))}, vals)
	return t.Encode()
}

func TestAttributes(t *testing.T) {
	packedFloats := packF32(1.5, -2)
	cases := []struct {
		name string
		attr pb
		want model.Attr
	}{
		{"float", pb(nil).str(1, "a").float(2, 0.5).varint(20, 1), model.Attr{Name: "a", Type: model.AttrFloat, F: 0.5}},
		{"int", pb(nil).str(1, "a").varint(3, math.MaxUint64).varint(20, 2), model.Attr{Name: "a", Type: model.AttrInt, I: -1}},
		{"string", pb(nil).str(1, "a").str(4, "same").varint(20, 3), model.Attr{Name: "a", Type: model.AttrString, S: "same"}},
		{"floats packed", pb(nil).str(1, "a").bytes(7, packedFloats).varint(20, 6), model.Attr{Name: "a", Type: model.AttrFloats, Floats: []float32{1.5, -2}}},
		{"floats unpacked", pb(nil).str(1, "a").float(7, 1.5).float(7, -2).varint(20, 6), model.Attr{Name: "a", Type: model.AttrFloats, Floats: []float32{1.5, -2}}},
		{"ints packed", pb(nil).str(1, "a").bytes(8, []byte{1, 0x7f, 0x80, 0x01}).varint(20, 7), model.Attr{Name: "a", Type: model.AttrInts, Ints: []int64{1, 127, 128}}},
		{"ints unpacked", pb(nil).str(1, "a").varint(8, 4).varint(8, math.MaxUint64-1).varint(20, 7), model.Attr{Name: "a", Type: model.AttrInts, Ints: []int64{4, -2}}},
		{"ints empty", pb(nil).str(1, "a").varint(20, 7), model.Attr{Name: "a", Type: model.AttrInts}},
		{"strings", pb(nil).str(1, "a").str(9, "x").str(9, "").varint(20, 8), model.Attr{Name: "a", Type: model.AttrStrings, Strings: []string{"x", ""}}},
		{"untyped float", pb(nil).str(1, "a").float(2, 2), model.Attr{Name: "a", Type: model.AttrFloat, F: 2}},
		{"untyped int", pb(nil).str(1, "a").varint(3, 3), model.Attr{Name: "a", Type: model.AttrInt, I: 3}},
		{"untyped string", pb(nil).str(1, "a").str(4, "s"), model.Attr{Name: "a", Type: model.AttrString, S: "s"}},
		{"untyped ints", pb(nil).str(1, "a").varint(8, 3), model.Attr{Name: "a", Type: model.AttrInts, Ints: []int64{3}}},
		{"untyped floats", pb(nil).str(1, "a").float(7, 3), model.Attr{Name: "a", Type: model.AttrFloats, Floats: []float32{3}}},
		{"untyped strings", pb(nil).str(1, "a").str(9, "s"), model.Attr{Name: "a", Type: model.AttrStrings, Strings: []string{"s"}}},
		{"type zero", pb(nil).str(1, "a").varint(3, 3).varint(20, 0), model.Attr{Name: "a", Type: model.AttrInt, I: 3}},
		{"ref", pb(nil).str(1, "a").str(21, "outer").str(13, "doc"), model.Attr{Name: "a", RefAttrName: "outer"}},
		{"unknown field", pb(nil).str(1, "a").varint(3, 3).varint(20, 2).varint(999, 1), model.Attr{Name: "a", Type: model.AttrInt, I: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := mustLoad(t, rawModel(13, customNode(c.attr))).Graph()
			got := g.Nodes[0].Attrs
			if diff := cmp.Diff([]model.Attr{c.want}, got); diff != "" {
				t.Errorf("attrs (-want +got):\n%s", diff)
			}
		})
	}
}

// tensorTypeBytes is a TypeProto of a float tensor of shape dims.
func tensorTypeBytes(dims ...int64) pb {
	var shape pb
	for _, d := range dims {
		shape = shape.bytes(1, pb(nil).varint(1, uint64(d)))
	}
	return pb(nil).bytes(1, pb(nil).varint(1, uint64(payload.Float32)).bytes(2, shape))
}

func TestTypeAttributes(t *testing.T) {
	seq := pb(nil).bytes(4, pb(nil).bytes(1, tensorTypeBytes(5)))
	cases := []struct {
		name string
		attr pb
		want model.ValueInfo
	}{
		{"tensor", pb(nil).str(1, "type").bytes(14, tensorTypeBytes(2, 3)).varint(20, 13), model.ValueInfo{DType: payload.Float32, Shape: []int{2, 3}, RankKnown: true}},
		{"untyped tensor", pb(nil).str(1, "type").bytes(14, pb(nil).bytes(1, pb(nil).varint(1, uint64(payload.Int64)))), model.ValueInfo{DType: payload.Int64}},
		{"sequence", pb(nil).str(1, "type").bytes(14, seq).varint(20, 13), model.ValueInfo{DType: payload.Float32, Shape: []int{5}, RankKnown: true, Kind: model.KindSequence}},
		{"optional", pb(nil).str(1, "type").bytes(14, pb(nil).bytes(9, pb(nil).bytes(1, tensorTypeBytes()))).varint(20, 13), model.ValueInfo{DType: payload.Float32, Shape: []int{}, RankKnown: true, Kind: model.KindOptional}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := mustLoad(t, rawModel(13, customNode(c.attr))).Graph().Nodes[0]
			got, err := n.TypeAttr("type")
			if err != nil {
				t.Fatalf("TypeAttr: %v", err)
			}
			if a := n.Attr("type"); a.Type != model.AttrTypeProto {
				t.Errorf("type = %d, want %d", a.Type, model.AttrTypeProto)
			}
			if diff := cmp.Diff(c.want, *got); diff != "" {
				t.Errorf("type (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTensorAndGraphAttributes(t *testing.T) {
	attrs := []pb{
		pb(nil).str(1, "t").bytes(5, tensorBytes("tv", 1, 2)).varint(20, 4),
		pb(nil).str(1, "tu").bytes(5, tensorBytes("", 3)),
		pb(nil).str(1, "ts").bytes(10, tensorBytes("a", 4)).bytes(10, tensorBytes("b", 5, 6)).varint(20, 9),
		pb(nil).str(1, "g").bytes(6, subgraphBytes("body")).varint(20, 5),
		pb(nil).str(1, "gs").bytes(11, subgraphBytes("then")).bytes(11, subgraphBytes("else")).varint(20, 10),
		pb(nil).str(1, "gu").bytes(6, subgraphBytes("u")),
	}
	m := pb(nil).varint(1, 8).bytes(7, customNode(attrs...)).
		bytes(8, pb(nil).varint(2, 17)).bytes(8, pb(nil).str(1, "com.example").varint(2, 2))
	g := mustLoad(t, m).Graph()
	n := g.Nodes[0]
	vals := func(tn *model.Tensor) []float32 {
		v, err := model.View[float32](tn)
		if err != nil {
			t.Fatalf("model.View: %v", err)
		}
		return v
	}
	if a := n.Attr("t"); a.Type != model.AttrTensor || a.T.Name != "tv" || !cmp.Equal(vals(a.T), []float32{1, 2}) {
		t.Errorf("t = %+v", a)
	}
	if a := n.Attr("tu"); a.Type != model.AttrTensor || !cmp.Equal(vals(a.T), []float32{3}) {
		t.Errorf("tu = %+v", a)
	}
	if a := n.Attr("ts"); a.Type != model.AttrTensors || len(a.Tensors) != 2 || !cmp.Equal(vals(a.Tensors[1]), []float32{5, 6}) {
		t.Errorf("ts = %+v", a)
	}
	for _, c := range []struct {
		name  string
		typ   model.AttrType
		names []string
	}{{"g", model.AttrGraph, []string{"body"}}, {"gs", model.AttrGraphs, []string{"then", "else"}}, {"gu", model.AttrGraph, []string{"u"}}} {
		a := n.Attr(c.name)
		graphs := a.Graphs
		if a.G != nil {
			graphs = []*model.Graph{a.G}
		}
		if a.Type != c.typ || len(graphs) != len(c.names) {
			t.Fatalf("%s = %+v", c.name, a)
		}
		for i, sg := range graphs {
			if sg.Name != c.names[i] || len(sg.Nodes) != 1 || sg.Opset != 17 || sg.Opsets["com.example"] != 2 ||
				len(sg.Outputs) != 1 || sg.Outputs[0].DType != payload.Float32 {
				t.Errorf("%s[%d] = %+v", c.name, i, sg)
			}
		}
	}
}

func TestAttributeErrors(t *testing.T) {
	cases := []struct {
		name  string
		attrs []pb
		kind  error
		parts []string
	}{
		{"no name", []pb{pb(nil).varint(3, 1)}, errInvalid, []string{"attribute[0]", "no name"}},
		{"no value", []pb{pb(nil).str(1, "a")}, errInvalid, []string{`attribute "a"`, "neither a type nor a value"}},
		{"two values", []pb{pb(nil).str(1, "a").varint(3, 1).float(2, 1)}, errInvalid, []string{"several values"}},
		{"twice", []pb{pb(nil).str(1, "a").varint(3, 1), pb(nil).str(1, "a").varint(3, 2)}, errInvalid, []string{"given twice"}},
		{"unknown type", []pb{pb(nil).str(1, "a").varint(20, 99)}, errInvalid, []string{"type 99"}},
		{"sparse type", []pb{pb(nil).str(1, "a").varint(20, 11)}, errUnsupported, []string{"sparse"}},
		{"sparse value", []pb{pb(nil).str(1, "a").bytes(22, nil)}, errUnsupported, []string{"sparse"}},
		{"type proto", []pb{pb(nil).str(1, "a").bytes(14, nil)}, errInvalid, []string{`attribute "a".tp`, "sets no type"}},
		{"type protos", []pb{pb(nil).str(1, "a").bytes(15, nil)}, errUnsupported, []string{"type_protos attributes"}},
		{"type protos type", []pb{pb(nil).str(1, "a").varint(20, 14)}, errUnsupported, []string{"type_protos attributes"}},
		{"map type", []pb{pb(nil).str(1, "a").bytes(14, pb(nil).bytes(5, nil))}, errUnsupported, []string{"map type attribute"}},
		{"unknown type kind", []pb{pb(nil).str(1, "a").bytes(14, pb(nil).bytes(99, nil))}, errUnsupported, []string{"kind of type"}},
		{"sequence of maps", []pb{pb(nil).str(1, "a").bytes(14, pb(nil).bytes(4, pb(nil).bytes(1, pb(nil).bytes(5, nil))))}, errUnsupported, []string{"sequence type attribute"}},
		{"bad elem type", []pb{pb(nil).str(1, "a").bytes(14, pb(nil).bytes(1, pb(nil).varint(1, 300)))}, errInvalid, []string{`attribute "a".tp.tensor_type`, "elem_type 300"}},
		{"truncated type", []pb{pb(nil).str(1, "a").bytes(14, []byte{0x0a, 0x05, 0x08})}, errInvalid, []string{`attribute "a".tp`}},
		{"tp wire type", []pb{pb(nil).str(1, "a").varint(14, 1)}, errInvalid, []string{"field tp has wire type varint, want bytes"}},
		{"wire type", []pb{pb(nil).str(1, "pads").varint(8, 1).str(3, "x")}, errInvalid, []string{`graph.node[0] "custom".attribute "pads"`, "field i has wire type bytes, want varint"}},
		{"float wire type", []pb{pb(nil).str(1, "a").varint(2, 1)}, errInvalid, []string{"field f has wire type varint, want fixed32"}},
		{"floats length", []pb{pb(nil).str(1, "a").bytes(7, []byte{1, 2, 3})}, errInvalid, []string{"floats"}},
		{"truncated ints", []pb{pb(nil).str(1, "pads").bytes(8, []byte{0x80})}, errInvalid, []string{`attribute "pads"`, "truncated varint"}},
		{"bad tensor", []pb{pb(nil).str(1, "t").bytes(5, pb(nil).varint(2, 1).varint(1, 4))}, errInvalid, []string{`attribute "t".t`, "no data"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromBytes(rawModel(13, customNode(c.attrs...)), "a.onnx")
			wantErr(t, err, c.kind, append(c.parts, "a.onnx")...)
		})
	}
}

func TestSubgraphDepth(t *testing.T) {
	g := subgraphBytes("leaf")
	for i := 0; i < 3; i++ {
		n := pb(nil).str(2, "z").str(4, "Custom").str(7, "com.example").bytes(5, pb(nil).str(1, "body").bytes(6, g))
		g = pb(nil).bytes(1, n).bytes(12, valueInfo("z", 1))
	}
	data := rawModel(13, customNode(pb(nil).str(1, "body").bytes(6, g)))
	// Four levels of subgraphs.
	if _, err := FromBytes(data, "d.onnx", WithLimits(Limits{MaxDepth: 4})); err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	_, err := FromBytes(data, "d.onnx", WithLimits(Limits{MaxDepth: 3}))
	wantErr(t, err, errInvalid, "MaxDepth", `attribute "body".g.node[0].attribute "body".g`)
}
