package artifacts_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"google.golang.org/protobuf/encoding/protowire"
)

// field appends a length-delimited field.
func field(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// varint appends a varint field.
func varint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func TestDecodeSequence(t *testing.T) {
	a := onnxbuild.TensorOf("", []int64{2}, []float32{1, 2})
	b := onnxbuild.TensorOf("", []int64{1}, []float32{3})
	seq := field(field(varint(field(nil, 1, []byte("s")), 2, 1), 3, a.Encode()), 3, b.Encode())
	items, err := artifacts.DecodeSequence(seq, "s.pb")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || !slices.Equal(items[0].Shape, []int{2}) || !slices.Equal(items[1].Shape, []int{1}) {
		t.Fatalf("got %d items, want 2 of shapes [2] and [1]", len(items))
	}
	empty, err := artifacts.DecodeSequence(varint(nil, 2, 1), "e.pb")
	if err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("empty sequence: got %v, %v; want an empty slice", empty, err)
	}
	if _, err := artifacts.DecodeSequence(varint(nil, 2, 4), "m.pb"); !errors.Is(err, compute.ErrUnsupported) {
		t.Errorf("sequence of maps: got %v, want ErrUnsupported", err)
	}
	if _, err := artifacts.DecodeSequence([]byte{0xff}, "bad.pb"); !errors.Is(err, compute.ErrInvalidArtifact) {
		t.Errorf("garbage: got %v, want ErrInvalidArtifact", err)
	}

	cases := []struct {
		name  string
		b     []byte
		isT   bool
		nSeq  int // -1: no sequence
		isErr bool
	}{
		{"none", varint(nil, 2, 1), false, -1, false},
		{"tensor", field(varint(nil, 2, 1), 3, a.Encode()), true, -1, false},
		{"sequence", field(varint(nil, 2, 3), 5, seq), false, 2, false},
		{"map", field(nil, 6, nil), false, -1, true},
	}
	for _, c := range cases {
		tt, its, err := artifacts.DecodeOptional(c.b, c.name)
		if c.isErr {
			if !errors.Is(err, compute.ErrUnsupported) {
				t.Errorf("%s: got %v, want ErrUnsupported", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		gotSeq := -1
		if its != nil {
			gotSeq = len(its)
		}
		if (tt != nil) != c.isT || gotSeq != c.nSeq {
			t.Errorf("%s: got tensor %v and sequence of %d, want tensor %v and %d", c.name, tt != nil, gotSeq, c.isT, c.nSeq)
		}
	}
}

func TestDecodeContainerTypes(t *testing.T) {
	g := onnxbuild.Graph{
		Inputs: []onnxbuild.Value{
			{Name: "s", DType: payload.Float32, Shape: []int64{2, -1}, Kind: "tensor sequence"},
			{Name: "o", DType: payload.Int64, NoShape: true, Kind: "optional tensor"},
			{Name: "os", DType: payload.Float32, NoShape: true, Kind: "optional tensor sequence"},
		},
		Outputs: []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true, Kind: "tensor sequence"}},
		Nodes:   []onnxbuild.Node{{Op: "Identity", Inputs: []string{"s"}, Outputs: []string{"y"}}},
	}
	m := onnxbuild.Model{Opset: 18, Graph: g}
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind model.ValueKind
		dt   payload.DType
	}{{model.KindSequence, payload.Float32}, {model.KindOptional, payload.Int64}, {model.KindOptionalSequence, payload.Float32}}
	for i, w := range want {
		in := art.Graph().Inputs[i]
		if in.Kind != w.kind || in.DType != w.dt {
			t.Errorf("input %q: got a %s of %s, want a %s of %s", in.Name, in.Kind, in.DType, w.kind, w.dt)
		}
	}
	if s := art.Graph().Inputs[0]; !slices.Equal(s.Shape, []int{2, -1}) {
		t.Errorf("sequence element shape: got %v, want [2 -1]", s.Shape)
	}
	g.Inputs = []onnxbuild.Value{{Name: "s", Kind: "map"}}
	m = onnxbuild.Model{Opset: 18, Graph: g}
	if _, err := artifacts.FromBytes(m.Encode(), "m.onnx"); !errors.Is(err, compute.ErrUnsupported) {
		t.Errorf("map input: got %v, want ErrUnsupported", err)
	}
}
