package cpu_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// The pools the graph generator draws from.
var (
	graphOps   = cpu.SupportedOps()
	graphTypes = []payload.DType{payload.Float32, payload.Int64, payload.Bool, payload.Int32, payload.Float64, payload.Float16, payload.Uint8}
	graphInts  = []int64{0, 1, 2, 3, -1, -2, 4, 1, 0, 2, math.MaxInt64, math.MinInt64, 1 << 40, -5}
	graphAttrs = []string{"axis", "axes", "perm", "keepdims", "kernel_shape", "strides", "pads", "dilations", "group",
		"to", "blocksize", "split", "num_outputs", "starts", "ends", "allowzero", "auto_pad", "ceil_mode", "transA",
		"transB", "alpha", "beta", "value", "epsilon", "mode", "scales", "sizes", "output_shape", "output_padding",
		"coordinate_transformation_mode", "nearest_mode", "exclusive", "reverse", "select_last_index", "upper",
		"noop_with_empty_axes", "min", "max", "seed", "dtype", "p", "approximate", "fmod", "direction", "detect_negative"}
	graphStrings = []string{"NOTSET", "SAME_UPPER", "VALID", "linear", "nearest", "cubic", "asymmetric", "half_pixel",
		"align_corners", "floor", "round_prefer_floor", "constant", "reflect", "edge", "tanh", "none", "LEFT", "x"}
)

// graphBytes hands out fuzz bytes as small choices.
type graphBytes struct {
	b []byte
	i int
}

func (g *graphBytes) pick(n int) int {
	if g.i >= len(g.b) || n <= 0 {
		return 0
	}
	g.i++
	return int(g.b[g.i-1]) % n
}

func (g *graphBytes) ints() []int64 {
	v := make([]int64, g.pick(6))
	for i := range v {
		v[i] = graphInts[g.pick(len(graphInts))]
	}
	return v
}

// fuzzModel builds a small model of CPU-backend ops from fuzz bytes.
func fuzzModel(data []byte) []byte {
	f := &graphBytes{b: data}
	gr := onnxbuild.Graph{Name: "fuzz"}
	var names []string
	var firstType payload.DType
	for i, n := 0, 1+f.pick(2); i < n; i++ {
		v := onnxbuild.Value{Name: "in" + strconv.Itoa(i), DType: graphTypes[f.pick(len(graphTypes))]}
		if i == 0 {
			firstType = v.DType
		}
		v.Shape = make([]int64, f.pick(5))
		for j := range v.Shape {
			v.Shape[j] = int64(f.pick(5) - 1) // -1 is free
		}
		gr.Inputs = append(gr.Inputs, v)
		names = append(names, v.Name)
	}
	for i, n := 0, f.pick(4); i < n; i++ {
		name := "c" + strconv.Itoa(i)
		var t onnxbuild.Tensor
		switch f.pick(3) {
		case 0:
			v := f.ints()
			t = onnxbuild.TensorOf(name, []int64{int64(len(v))}, v)
		case 1:
			t = onnxbuild.TensorOf(name, []int64{2}, []float32{float32(f.pick(5)) - 1, 0.5})
		default:
			t = onnxbuild.Scalar(name, int64(f.pick(9))-2)
		}
		gr.Initializers = append(gr.Initializers, t)
		names = append(names, name)
	}
	var last []string
	for i, n := 0, 1+f.pick(6); i < n; i++ {
		nd := onnxbuild.Node{Name: "n" + strconv.Itoa(i), Op: graphOps[f.pick(len(graphOps))]}
		for j, k := 0, 1+f.pick(4); j < k; j++ {
			if f.pick(8) == 7 { // not 0: exhausted bytes give 0
				nd.Inputs = append(nd.Inputs, "")
			} else {
				nd.Inputs = append(nd.Inputs, names[f.pick(len(names))])
			}
		}
		for j, k := 0, f.pick(4); j < k; j++ {
			name := graphAttrs[f.pick(len(graphAttrs))]
			var a onnxbuild.Attr
			switch f.pick(6) {
			case 0:
				a = onnxbuild.AInt(name, graphInts[f.pick(len(graphInts))])
			case 1:
				a = onnxbuild.AInts(name, f.ints()...)
			case 2:
				a = onnxbuild.AFloat(name, float32(f.pick(5))-1.5)
			case 3:
				a = onnxbuild.AString(name, graphStrings[f.pick(len(graphStrings))])
			case 4:
				v := f.ints()
				a = onnxbuild.ATensor(name, onnxbuild.TensorOf("", []int64{int64(len(v))}, v))
			default:
				a = onnxbuild.AFloats(name, float32(f.pick(4)), 2)
			}
			nd.Attrs = append(nd.Attrs, a)
		}
		nd.Outputs = nil
		for j, k := 0, 1+f.pick(2); j < k; j++ {
			nd.Outputs = append(nd.Outputs, nd.Name+"_"+strconv.Itoa(j))
		}
		names = append(names, nd.Outputs...)
		gr.Nodes = append(gr.Nodes, nd)
		last = nd.Outputs
	}
	for _, o := range last {
		dt := firstType
		if k := f.pick(len(graphTypes) + 1); k > 0 {
			dt = graphTypes[k-1]
		}
		gr.Outputs = append(gr.Outputs, onnxbuild.Value{Name: o, DType: dt, NoShape: true})
	}
	m := onnxbuild.Model{Opset: int64(11 + f.pick(11)), Graph: gr}
	return m.Encode()
}

// FuzzGraph builds small graphs of the CPU backend's ops from fuzz bytes,
// then loads and runs them with free input dimensions of size free%5:
// every failure must be an error matching a compute sentinel, never a
// panic (caught or not).
func FuzzGraph(f *testing.F) {
	for _, s := range graphSeeds() {
		f.Add(s, uint8(seedFree))
	}
	be := cpu.New[multi, multi](compute.Options{Threads: 1, MaxTensorBytes: 1 << 24})
	lim := artifacts.Limits{MaxTensorElems: 1 << 16, MaxInitializerBytes: 1 << 22}
	f.Fuzz(func(t *testing.T, data []byte, free uint8) {
		runFuzzModel(t, be, fuzzModel(data), int(free%5), lim)
	})
}

// graphSeeds are fuzz strings for FuzzGraph, each one picking an op from
// a spread of the supported ones.
func graphSeeds() [][]byte {
	var seeds [][]byte
	for i := 0; i < len(graphOps); i += 3 {
		// One float32 input of shape [2 2 2], no constants, one node with
		// the input twice, opset 17.
		seeds = append(seeds, []byte{0, 0, 3, 3, 3, 3, 0, 0, byte(i), 1, 1, 0, 1, 0, 0, 0, 0, 6})
	}
	return seeds
}
