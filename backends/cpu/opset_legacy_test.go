package cpu_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// legacyIn is one float32 graph input of a legacy case.
type legacyIn struct {
	name  string
	shape []int
}

// seqF32 returns 1, 2, ..., n.
func seqF32(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i + 1)
	}
	return v
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// TestOldOpsets runs ops whose attributes or inputs meant something else
// before opset 7 (or whose defaults differed): each either computes what
// its opset specifies, or is refused at load with compute.ErrUnsupported
// naming what it lacks. None may give another op's answer.
func TestOldOpsets(t *testing.T) {
	cases := []struct {
		name  string
		opset int64
		op    string
		attrs []onnxbuild.Attr
		ins   []legacyIn
		inits []onnxbuild.Tensor
		// extra names initializers appended to the node's inputs.
		extra    []string
		outShape []int64
		// want is the output; nil means the model must be refused with
		// an error mentioning refuse.
		want   []float32
		refuse string
	}{
		{"Add broadcast axis", 6, "Add", []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1), onnxbuild.AInt("axis", 1)},
			[]legacyIn{{"a", []int{2, 3, 2}}, {"b", []int{3}}}, nil, nil, []int64{2, 3, 2},
			[]float32{2, 3, 5, 6, 8, 9, 8, 9, 11, 12, 14, 15}, ""},
		{"Add broadcast suffix", 6, "Add", []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1)},
			[]legacyIn{{"a", []int{2, 3}}, {"b", []int{3}}}, nil, nil, []int64{2, 3},
			[]float32{2, 4, 6, 5, 7, 9}, ""},
		{"Mul consumed_inputs", 1, "Mul", []onnxbuild.Attr{onnxbuild.AInts("consumed_inputs", 0, 0)},
			[]legacyIn{{"a", []int{3}}, {"b", []int{3}}}, nil, nil, []int64{3},
			[]float32{1, 4, 9}, ""},
		{"PRelu channel slope", 6, "PRelu", nil,
			[]legacyIn{{"x", []int{1, 2, 2}}}, []onnxbuild.Tensor{onnxbuild.TensorOf("s", []int64{2}, []float32{-1, -2})}, []string{"s"}, []int64{1, 2, 2},
			[]float32{1, 2, 3, 4}, ""},
		{"BatchNormalization is_test 0", 6, "BatchNormalization", nil,
			[]legacyIn{{"x", []int{1, 2, 2}}}, bnParams(), []string{"sc", "b", "m", "v"}, []int64{1, 2, 2},
			nil, "is_test"},
		{"BatchNormalization spatial 0", 7, "BatchNormalization", []onnxbuild.Attr{onnxbuild.AInt("spatial", 0)},
			[]legacyIn{{"x", []int{1, 2, 2}}}, bnElemParams(), []string{"sc", "b", "m", "v"}, []int64{1, 2, 2},
			nil, "spatial"},
		{"Dropout is_test 0", 6, "Dropout", nil,
			[]legacyIn{{"x", []int{3}}}, nil, nil, []int64{3},
			nil, "is_test"},
		{"Dropout is_test 1", 6, "Dropout", []onnxbuild.Attr{onnxbuild.AInt("is_test", 1)},
			[]legacyIn{{"x", []int{3}}}, nil, nil, []int64{3},
			[]float32{1, 2, 3}, ""},
		{"Concat default axis", 3, "Concat", nil,
			[]legacyIn{{"a", []int{2, 2}}, {"b", []int{2, 2}}}, nil, nil, []int64{2, 4},
			[]float32{1, 2, 1, 2, 3, 4, 3, 4}, ""},
		{"Reshape shape attribute", 4, "Reshape", []onnxbuild.Attr{onnxbuild.AInts("shape", 3, 2)},
			[]legacyIn{{"x", []int{2, 3}}}, nil, nil, []int64{3, 2},
			[]float32{1, 2, 3, 4, 5, 6}, ""},
		{"Pad paddings", 1, "Pad", []onnxbuild.Attr{onnxbuild.AInts("paddings", 1, 0)},
			[]legacyIn{{"x", []int{2}}}, nil, nil, []int64{3},
			[]float32{0, 1, 2}, ""},
		{"Upsample-1", 6, "Upsample", []onnxbuild.Attr{onnxbuild.AFloat("width_scale", 2), onnxbuild.AFloat("height_scale", 1)},
			[]legacyIn{{"x", []int{1, 1, 1, 2}}}, nil, nil, []int64{1, 1, 1, 4},
			nil, "width_scale"},
		{"Cast to string name", 5, "Cast", []onnxbuild.Attr{onnxbuild.AString("to", "FLOAT")},
			[]legacyIn{{"x", []int{2}}}, nil, nil, []int64{2},
			[]float32{1, 2}, ""},
		{"GlobalLpPool float p", 1, "GlobalLpPool", []onnxbuild.Attr{onnxbuild.AFloat("p", 1)},
			[]legacyIn{{"x", []int{1, 1, 2}}}, nil, nil, []int64{1, 1, 1},
			[]float32{3}, ""},
		{"LpPool float p", 1, "LpPool", []onnxbuild.Attr{onnxbuild.AFloat("p", 1), onnxbuild.AInts("kernel_shape", 2)},
			[]legacyIn{{"x", []int{1, 1, 2}}}, nil, nil, []int64{1, 1, 1},
			[]float32{3}, ""},
		{"Tile tiles axis", 5, "Tile", nil,
			[]legacyIn{{"x", []int{2}}}, []onnxbuild.Tensor{onnxbuild.Scalar("tiles", int64(2)), onnxbuild.Scalar("axis", int64(0))}, []string{"tiles", "axis"}, []int64{4},
			nil, "tiles and axis"},
		{"Gemm broadcast", 6, "Gemm", []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1)},
			[]legacyIn{{"a", []int{1, 2}}, {"b", []int{2, 2}}, {"c", []int{2}}}, nil, nil, []int64{1, 2},
			[]float32{8, 12}, ""},
		{"Gemm no broadcast", 6, "Gemm", nil,
			[]legacyIn{{"a", []int{1, 2}}, {"b", []int{2, 2}}, {"c", []int{1, 2}}}, nil, nil, []int64{1, 2},
			[]float32{8, 12}, ""},
		{"Greater broadcast axis", 6, "Greater", []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1), onnxbuild.AInt("axis", 1)},
			[]legacyIn{{"a", []int{1, 2, 2}}, {"b", []int{2}}}, nil, nil, []int64{1, 2, 2},
			[]float32{0, 1, 1, 1}, ""},
		{"Add broadcast axis 0", 6, "Add", []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1), onnxbuild.AInt("axis", 0)},
			[]legacyIn{{"a", []int{2, 3}}, {"b", []int{2}}}, nil, nil, []int64{2, 3},
			[]float32{2, 3, 4, 6, 7, 8}, ""},
		{"Add broadcast trailing axis", 6, "Add", []onnxbuild.Attr{onnxbuild.AInt("broadcast", 1), onnxbuild.AInt("axis", 1)},
			[]legacyIn{{"a", []int{2, 3}}, {"b", []int{3}}}, nil, nil, []int64{2, 3},
			[]float32{2, 4, 6, 5, 7, 9}, ""},
		{"PRelu one slope", 6, "PRelu", nil,
			[]legacyIn{{"x", []int{1, 2, 2}}}, []onnxbuild.Tensor{onnxbuild.TensorOf("s", []int64{1}, []float32{-1})}, []string{"s"}, []int64{1, 2, 2},
			[]float32{1, 2, 3, 4}, ""},
		{"BatchNormalization is_test 1", 6, "BatchNormalization", []onnxbuild.Attr{onnxbuild.AInt("is_test", 1)},
			[]legacyIn{{"x", []int{1, 2, 2}}}, bnParams(), []string{"sc", "b", "m", "v"}, []int64{1, 2, 2},
			[]float32{0.999995, 1.99999, 2.999985, 3.99998}, ""},
		{"Split input", 1, "Split", nil,
			[]legacyIn{{"x", []int{3}}}, []onnxbuild.Tensor{onnxbuild.TensorOf("sp", []int64{2}, []int64{1, 2})}, []string{"sp"}, []int64{1},
			[]float32{1}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := onnxbuild.Graph{Name: "g", Initializers: c.inits}
			var names []string
			var feeds []payload.Dynamic
			for i, in := range c.ins {
				shp := make([]int64, len(in.shape))
				for j, d := range in.shape {
					shp[j] = int64(d)
				}
				g.Inputs = append(g.Inputs, onnxbuild.Input(in.name, payload.Float32, shp...))
				names = append(names, in.name)
				data := seqF32(numel(in.shape))
				if i == 1 && c.op == "Concat" {
					data = []float32{1, 2, 3, 4}
				}
				feeds = append(feeds, payload.DynamicOf(in.name, payload.Tensor[float32]{Shape: in.shape, Data: data}))
			}
			names = append(names, c.extra...)
			outs := []string{"y"}
			if c.op == "Split" {
				outs = []string{"y", "z"}
			}
			g.Nodes = []onnxbuild.Node{{Name: "n", Op: c.op, Inputs: names, Outputs: outs, Attrs: c.attrs}}
			outDT := payload.Float32
			if c.op == "Greater" {
				outDT = payload.Bool
			}
			g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", outDT, c.outShape...)}
			m := onnxbuild.Model{Opset: c.opset, Graph: g}
			art, err := artifacts.FromBytes(m.Encode(), c.name)
			var mod *cpu.Model[payload.Multi, payload.Multi]
			if err == nil {
				mod, err = cpu.New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
			}
			if c.want == nil {
				if !errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), c.refuse) {
					t.Fatalf("got %v, want a refusal naming %q", err, c.refuse)
				}
				return
			}
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			defer mod.Close()
			if err := mod.Init(); err != nil {
				t.Fatal(err)
			}
			var out payload.Multi
			if err := mod.InferOne(&payload.Multi{Tensors: feeds}, &out); err != nil {
				t.Fatalf("InferOne: %v", err)
			}
			var got []float32
			if outDT == payload.Bool {
				for _, b := range out.Tensors[0].Data {
					got = append(got, float32(b))
				}
			} else {
				y, err := payload.Typed[float32](out.Tensors[0])
				if err != nil {
					t.Fatal(err)
				}
				got = y.Data
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v %v, want %v", out.Tensors[0].Shape, got, c.want)
			}
			for i := range c.want {
				if math.Abs(float64(got[i]-c.want[i])) > 1e-5 {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

// bnElemParams are bnParams with one value per element of a [2, 2]
// input, as spatial=0 takes them.
func bnElemParams() []onnxbuild.Tensor {
	return []onnxbuild.Tensor{
		onnxbuild.TensorOf("sc", []int64{2, 2}, []float32{1, 1, 1, 1}),
		onnxbuild.TensorOf("b", []int64{2, 2}, []float32{0, 0, 0, 0}),
		onnxbuild.TensorOf("m", []int64{2, 2}, []float32{0, 0, 0, 0}),
		onnxbuild.TensorOf("v", []int64{2, 2}, []float32{1, 1, 1, 1}),
	}
}

// bnParams are BatchNormalization's scale, bias, mean and var for 2 channels.
func bnParams() []onnxbuild.Tensor {
	return []onnxbuild.Tensor{
		onnxbuild.TensorOf("sc", []int64{2}, []float32{1, 1}),
		onnxbuild.TensorOf("b", []int64{2}, []float32{0, 0}),
		onnxbuild.TensorOf("m", []int64{2}, []float32{0, 0}),
		onnxbuild.TensorOf("v", []int64{2}, []float32{1, 1}),
	}
}

// TestOldOpsetBatchNormNotFolded: a BatchNormalization after a Conv at
// opset 6 without is_test trains (the default), so it is refused rather
// than folded into the Conv as an inference one would be.
func TestOldOpsetBatchNormNotFolded(t *testing.T) {
	for _, c := range []struct {
		attrs []onnxbuild.Attr
		ok    bool
	}{{nil, false}, {[]onnxbuild.Attr{onnxbuild.AInt("is_test", 1)}, true}} {
		m := onnxbuild.Model{Opset: 6, Graph: onnxbuild.Graph{
			Name:    "g",
			Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 1, 2, 2)},
			Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 2, 2, 2)},
			Initializers: append(bnParams(),
				onnxbuild.TensorOf("w", []int64{2, 1, 1, 1}, []float32{1, 2})),
			Nodes: []onnxbuild.Node{
				{Name: "conv", Op: "Conv", Inputs: []string{"x", "w"}, Outputs: []string{"c"}},
				{Name: "bn", Op: "BatchNormalization", Inputs: []string{"c", "sc", "b", "m", "v"}, Outputs: []string{"y"}, Attrs: c.attrs},
			},
		}}
		art, err := artifacts.FromBytes(m.Encode(), "bn.onnx")
		if err != nil {
			t.Fatal(err)
		}
		_, err = cpu.New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
		if c.ok && err != nil {
			t.Errorf("is_test=1: %v", err)
		}
		if !c.ok && (!errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), "is_test")) {
			t.Errorf("no is_test: got %v, want a refusal naming is_test", err)
		}
	}
}
