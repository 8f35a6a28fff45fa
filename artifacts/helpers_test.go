package artifacts

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
	"google.golang.org/protobuf/encoding/protowire"
)

// pb builds protobuf messages field by field, for cases onnxbuild does
// not write.
type pb []byte

func (p pb) varint(n protowire.Number, v uint64) pb {
	b := protowire.AppendTag(p, n, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func (p pb) bytes(n protowire.Number, v []byte) pb {
	b := protowire.AppendTag(p, n, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func (p pb) str(n protowire.Number, s string) pb { return p.bytes(n, []byte(s)) }

func (p pb) fixed32(n protowire.Number, v uint32) pb {
	b := protowire.AppendTag(p, n, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, v)
}

func (p pb) float(n protowire.Number, f float32) pb { return p.fixed32(n, math.Float32bits(f)) }

// packF32 returns the packed encoding of float values.
func packF32(v ...float32) []byte {
	var b []byte
	for _, f := range v {
		b = protowire.AppendFixed32(b, math.Float32bits(f))
	}
	return b
}

// valueInfo encodes a ValueInfoProto of a float32 tensor.
func valueInfo(name string, dims ...int64) pb {
	var shape pb
	for _, d := range dims {
		shape = shape.bytes(1, pb(nil).varint(1, uint64(d)))
	}
	tt := pb(nil).varint(1, uint64(payload.Float32)).bytes(2, shape)
	return pb(nil).str(1, name).bytes(2, pb(nil).bytes(1, tt))
}

// rawModel encodes a model around graph fields with the given opset.
func rawModel(opset int64, graph pb) []byte {
	return pb(nil).varint(1, 8).bytes(7, graph).bytes(8, pb(nil).varint(2, uint64(opset)))
}

// customNode encodes a graph with one node of a custom domain that has
// the given encoded attributes and outputs y.
func customNode(attrs ...pb) pb {
	n := pb(nil).str(2, "y").str(3, "custom").str(4, "Custom").str(7, "com.example")
	for _, a := range attrs {
		n = n.bytes(5, a)
	}
	return pb(nil).bytes(1, n).str(2, "g").bytes(12, valueInfo("y", 2))
}

// baseModel is a small valid model: y = Add(x, w), x of shape [batch, 3].
func baseModel() onnxbuild.Model {
	return onnxbuild.Model{
		Opset: 13,
		Graph: onnxbuild.Graph{
			Name:         "g",
			Inputs:       []onnxbuild.Value{{Name: "x", DType: payload.Float32, Shape: []int64{-1, 3}, DimParams: []string{"batch"}}},
			Outputs:      []onnxbuild.Value{{Name: "y", DType: payload.Float32, Shape: []int64{-1, 3}, DimParams: []string{"batch"}}},
			Nodes:        []onnxbuild.Node{{Name: "add", Op: "Add", Inputs: []string{"x", "w"}, Outputs: []string{"y"}}},
			Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{3}, []float32{1, 2, 3})},
		},
	}
}

var sentinels = []error{
	errs.InvalidArtifact, errs.Unsupported, errs.ShapeMismatch, errs.ExecutionFailed,
	errs.ResourceUnavailable, errs.NotInitialized, errs.Closed,
}

// isSentinel reports whether err wraps one of the compute sentinels.
func isSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// mustLoad decodes data or fails the test.
func mustLoad(t *testing.T, data []byte, opts ...Option) *Artifact {
	t.Helper()
	a, err := FromBytes(data, "test.onnx", opts...)
	if err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	return a
}

// wantErr checks that err wraps kind and mentions every string in parts.
func wantErr(t *testing.T, err, kind error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", kind)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %q does not wrap %v", err, kind)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

var (
	errInvalid     = errs.InvalidArtifact
	errUnsupported = errs.Unsupported
)

func (p pb) append(q pb) pb { return append(p, q...) }
