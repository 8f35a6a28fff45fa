package artifacts

import (
	"bytes"
	"math"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

func TestRoundTripModel(t *testing.T) {
	m := baseModel()
	m.Opsets = map[string]int64{"com.example": 3}
	m.Metadata = map[string]string{"author": "lintel", "task": "add"}
	m.Producer = "prod"
	m.IRVersion = 9
	m.Graph.ValueInfo = []onnxbuild.Value{{Name: "v", DType: payload.Int64, NoShape: true}}
	a := mustLoad(t, m.Encode())
	g := a.Graph()
	if a.Label() != "test.onnx" || a.Format() != FormatONNX || a.Size() != len(m.Encode()) {
		t.Errorf("label %q format %v size %d", a.Label(), a.Format(), a.Size())
	}
	if g.Opset != 13 || g.IRVersion != 9 || g.ProducerName != "prod" || g.Name != "g" {
		t.Errorf("opset %d ir %d producer %q name %q", g.Opset, g.IRVersion, g.ProducerName, g.Name)
	}
	if diff := cmp.Diff(map[string]int64{"": 13, "com.example": 3}, g.Opsets); diff != "" {
		t.Errorf("opsets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(m.Metadata, g.Metadata); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	wantX := model.ValueInfo{Name: "x", DType: payload.Float32, Shape: []int{-1, 3}, RankKnown: true, DimParams: []string{"batch", ""}}
	if diff := cmp.Diff([]model.ValueInfo{wantX}, g.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if len(g.Outputs) != 1 || g.Outputs[0].Name != "y" {
		t.Errorf("outputs %+v", g.Outputs)
	}
	if v := g.Value("v"); v == nil || v.DType != payload.Int64 || v.RankKnown || v.Shape != nil {
		t.Errorf("value_info v = %+v", v)
	}
	if v := g.Value("x"); v == nil || v.DType != payload.Float32 {
		t.Errorf("value x = %+v", v)
	}
	if len(g.Nodes) != 1 || g.Nodes[0].OpType != "Add" || g.Nodes[0].Name != "add" ||
		!cmp.Equal(g.Nodes[0].Inputs, []string{"x", "w"}) || !cmp.Equal(g.Nodes[0].Outputs, []string{"y"}) {
		t.Errorf("nodes %+v", g.Nodes)
	}
	w, err := model.View[float32](g.Const("w"))
	if err != nil || !cmp.Equal(w, []float32{1, 2, 3}) {
		t.Errorf("w = %v, %v", w, err)
	}
}

func TestModelFields(t *testing.T) {
	graph := customNode(pb(nil).str(1, "a").varint(3, 1).varint(20, 2)).str(10, "graph doc")
	data := pb(nil).varint(1, 7).str(2, "p").str(3, "1.2").str(4, "org.example").varint(5, 42).str(6, "doc").
		bytes(7, graph).bytes(8, pb(nil).str(1, "ai.onnx").varint(2, 11)).
		bytes(25, pb(nil).str(1, "fn")).varint(1000, 5)
	g := mustLoad(t, data).Graph()
	if g.IRVersion != 7 || g.ProducerName != "p" || g.ProducerVersion != "1.2" || g.Domain != "org.example" ||
		g.ModelVersion != 42 || g.Doc != "doc" || g.Opset != 11 {
		t.Errorf("model fields: %+v", g)
	}
	n := g.Nodes[0]
	if n.Domain != "com.example" || n.Name != "custom" {
		t.Errorf("node %+v", n)
	}
}

// dtypeCase builds a tensor of every element type from float64 values.
type dtypeCase struct {
	name string
	t    onnxbuild.Tensor
}

func dtypeTensor[E payload.Elem](vals []E) onnxbuild.Tensor {
	return onnxbuild.TensorOf("c", []int64{int64(len(vals))}, vals)
}

func TestRoundTripDTypes(t *testing.T) {
	cases := []dtypeCase{
		{"float32", dtypeTensor([]float32{1.5, -2, float32(math.Inf(1)), 3e-7})},
		{"float64", dtypeTensor([]float64{1.5, -2, math.Pi})},
		{"float16", dtypeTensor([]float16.Float16{float16.Fromfloat32(1), float16.Fromfloat32(-0.5)})},
		{"bfloat16", dtypeTensor([]payload.BFloat16{payload.BFloat16From(1), payload.BFloat16From(-3)})},
		{"int8", dtypeTensor([]int8{-128, -1, 0, 127})},
		{"uint8", dtypeTensor([]uint8{0, 1, 255})},
		{"int16", dtypeTensor([]int16{-32768, -1, 32767})},
		{"uint16", dtypeTensor([]uint16{0, 65535})},
		{"int32", dtypeTensor([]int32{math.MinInt32, -1, math.MaxInt32})},
		{"int64", dtypeTensor([]int64{math.MinInt64, -1, math.MaxInt64})},
		{"uint32", dtypeTensor([]uint32{0, math.MaxUint32})},
		{"uint64", dtypeTensor([]uint64{0, math.MaxUint64})},
		{"bool", dtypeTensor([]bool{true, false, true})},
		{"scalar", onnxbuild.Scalar("c", float32(7))},
		{"empty", onnxbuild.TensorOf("c", []int64{0, 3}, []int32{})},
		{"complex64", onnxbuild.Tensor{Name: "c", DType: payload.Complex64, Shape: []int64{1}, Raw: []byte{1, 2, 3, 4, 5, 6, 7, 8}}},
	}
	for _, c := range cases {
		for _, typed := range []bool{false, true} {
			name := c.name + "/raw"
			if typed {
				name = c.name + "/typed"
			}
			t.Run(name, func(t *testing.T) {
				m := baseModel()
				tt := c.t
				tt.Typed = typed
				m.Graph.Initializers = append(m.Graph.Initializers, tt)
				got := mustLoad(t, m.Encode()).Graph().Const("c")
				if got == nil {
					t.Fatal("no initializer c")
				}
				if got.DType != tt.DType {
					t.Errorf("dtype %v, want %v", got.DType, tt.DType)
				}
				wantShape := make([]int, len(tt.Shape))
				for i, d := range tt.Shape {
					wantShape[i] = int(d)
				}
				if len(got.Shape) != len(wantShape) || (len(wantShape) > 0 && !cmp.Equal(got.Shape, wantShape)) {
					t.Errorf("shape %v, want %v", got.Shape, wantShape)
				}
				if !bytes.Equal(got.Raw, tt.Raw) {
					t.Errorf("raw %v, want %v", got.Raw, tt.Raw)
				}
				if err := got.Check(); err != nil {
					t.Errorf("got.Check: %v", err)
				}
				if len(got.Raw) > 0 && uintptr(unsafe.Pointer(&got.Raw[0]))%uintptr(got.DType.Size()) != 0 {
					t.Error("raw bytes misaligned")
				}
			})
		}
	}
}

// TestUnpackedTypedFields checks that repeated scalars written one by one
// (not packed) decode like packed ones.
func TestUnpackedTypedFields(t *testing.T) {
	tensor := pb(nil).varint(1, 2).varint(1, 1).varint(2, uint64(payload.Int64)).str(8, "c").
		varint(7, 5).varint(7, math.MaxUint64) // -1
	floats := pb(nil).varint(1, 2).varint(2, uint64(payload.Float32)).str(8, "f").
		float(4, 1.5).bytes(4, packF32(0)) // one unpacked, one packed chunk
	complex := pb(nil).varint(1, 1).varint(2, uint64(payload.Complex64)).str(8, "z").bytes(4, packF32(1, 2))
	graph := customNode().bytes(5, tensor).bytes(5, floats).bytes(5, complex)
	g := mustLoad(t, rawModel(13, graph)).Graph()
	if z := g.Const("z"); !bytes.Equal(z.Raw, packF32(1, 2)) {
		t.Errorf("complex64 float_data = %v", z.Raw)
	}
	ints, err := g.Const("c").Int64s()
	if err != nil || !cmp.Equal(ints, []int64{5, -1}) {
		t.Errorf("int64_data = %v, %v", ints, err)
	}
	fs, err := model.View[float32](g.Const("f"))
	if err != nil || !cmp.Equal(fs, []float32{1.5, 0}) {
		t.Errorf("float_data = %v, %v", fs, err)
	}
}

func TestRawDataAliasing(t *testing.T) {
	base := baseModel()
	base.Graph.Initializers = []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{3}, []float32{1, 2, 3}),
		onnxbuild.TensorOf("d", []int64{2}, []float64{4, 5})}
	enc := base.Encode()
	seen := map[bool]bool{}
	for pad := 0; pad < 8; pad++ {
		// An unknown field in front shifts every offset by 3+pad bytes.
		data := model.AlignedBytes(append(pb(nil).bytes(99, make([]byte, pad)), enc...))
		g := mustLoad(t, data).Graph()
		for _, name := range []string{"w", "d"} {
			c := g.Const(name)
			p := uintptr(unsafe.Pointer(&c.Raw[0]))
			start := uintptr(unsafe.Pointer(&data[0]))
			inFile := p >= start && p < start+uintptr(len(data))
			off := bytes.Index(data, c.Raw)
			aligned := uintptr(unsafe.Pointer(&data[off]))%uintptr(c.DType.Size()) == 0
			if inFile != aligned {
				t.Errorf("pad %d %s: aliases file %v, start aligned %v", pad, name, inFile, aligned)
			}
			if p%uintptr(c.DType.Size()) != 0 {
				t.Errorf("pad %d %s: misaligned", pad, name)
			}
			seen[inFile] = true
		}
		w, err := model.View[float32](g.Const("w"))
		if err != nil || !cmp.Equal(w, []float32{1, 2, 3}) {
			t.Errorf("pad %d: w = %v, %v", pad, w, err)
		}
	}
	if !seen[true] || !seen[false] {
		t.Errorf("want both aliased and copied cases, saw %v", seen)
	}
}

func TestInputsWithInitializers(t *testing.T) {
	m := baseModel()
	m.Graph.Inputs = append(m.Graph.Inputs, onnxbuild.Input("w", payload.Float32, 3))
	g := mustLoad(t, m.Encode()).Graph()
	if len(g.Inputs) != 1 || g.Inputs[0].Name != "x" {
		t.Errorf("inputs %+v, want only x", g.Inputs)
	}
	if g.Const("w") == nil {
		t.Error("w is no longer an initializer")
	}
	if v := g.Value("w"); v == nil || !cmp.Equal(v.Shape, []int{3}) {
		t.Errorf("value w = %+v", v)
	}
}

func TestDimParams(t *testing.T) {
	m := baseModel()
	m.Graph.Inputs = []onnxbuild.Value{
		{Name: "x", DType: payload.Float32, Shape: []int64{-1, -1, 3}, DimParams: []string{"batch", "seq"}},
		{Name: "s", DType: payload.Int64, Shape: []int64{}},
		{Name: "u", DType: payload.Int64, NoShape: true},
	}
	m.Graph.Outputs = []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}}
	g := mustLoad(t, m.Encode()).Graph()
	want := []model.ValueInfo{
		{Name: "x", DType: payload.Float32, Shape: []int{-1, -1, 3}, RankKnown: true, DimParams: []string{"batch", "seq", ""}},
		{Name: "s", DType: payload.Int64, Shape: []int{}, RankKnown: true},
		{Name: "u", DType: payload.Int64},
	}
	if diff := cmp.Diff(want, g.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	// A dimension with neither value nor parameter, and a negative value,
	// are unknown.
	shape := pb(nil).bytes(1, nil).bytes(1, pb(nil).varint(1, math.MaxUint64)).bytes(1, pb(nil).varint(1, 5))
	vi := pb(nil).str(1, "y").bytes(2, pb(nil).bytes(1, pb(nil).varint(1, 1).bytes(2, shape)))
	graph := pb(nil).bytes(1, pb(nil).str(2, "y").str(4, "Custom").str(7, "x.y")).bytes(12, vi)
	g = mustLoad(t, rawModel(13, graph)).Graph()
	if got := g.Outputs[0]; !cmp.Equal(got.Shape, []int{-1, -1, 5}) || got.DimParams != nil {
		t.Errorf("output y = %+v", got)
	}
}

// TestOnlyOtherDomains decodes a model that imports no default-domain
// opset, such as an ai.onnx.ml model: it decodes with Opset 0, and
// backends refuse its nodes by their domain.
func TestOnlyOtherDomains(t *testing.T) {
	data := pb(nil).varint(1, 8).bytes(7, customNode()).bytes(8, pb(nil).str(1, "com.example").varint(2, 3))
	g := mustLoad(t, data).Graph()
	if g.Opset != 0 || len(g.Nodes) != 1 || g.Nodes[0].Domain != "com.example" {
		t.Errorf("got opset %d and nodes %v, want opset 0 and one com.example node", g.Opset, g.Nodes)
	}
	if diff := cmp.Diff(map[string]int64{"com.example": 3}, g.Opsets); diff != "" {
		t.Errorf("opsets (-want +got):\n%s", diff)
	}
}

func TestOpsets(t *testing.T) {
	for _, c := range []struct {
		opset int64
		ok    bool
	}{{1, true}, {6, true}, {7, true}, {13, true}, {21, true}, {28, true}, {29, false}} {
		m := baseModel()
		m.Opset = c.opset
		if c.opset < 7 {
			// Add broadcasts only when asked to before opset 7.
			m.Graph.Nodes[0].Attrs = []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1)}
		}
		_, err := FromBytes(m.Encode(), "m.onnx")
		if c.ok && err != nil {
			t.Errorf("opset %d: %v", c.opset, err)
		}
		if !c.ok {
			wantErr(t, err, errUnsupported, "opset", "m.onnx")
		}
	}
}
