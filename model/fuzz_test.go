package model

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// fuzzOps are the ops the fuzz graphs use: what the CPU backend runs, and
// a few it does not.
var fuzzOps = []string{"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Min", "Max", "And", "Or", "Xor", "Equal", "Less",
	"Greater", "LessOrEqual", "GreaterOrEqual", "Where", "Expand", "Sqrt", "Exp", "Log", "Neg", "Abs", "Erf",
	"Reciprocal", "Floor", "Ceil", "Round", "Sin", "Cos", "Sign", "Not", "Relu", "LeakyRelu", "Elu", "Selu",
	"Sigmoid", "Tanh", "Softplus", "Softsign", "HardSigmoid", "HardSwish", "Gelu", "Mish", "PRelu", "Clip", "Celu",
	"Cast", "CastLike", "Softmax", "LogSoftmax", "LayerNormalization", "ReduceMean", "ReduceSum", "ReduceMax",
	"ReduceMin", "ReduceProd", "ReduceL2", "ReduceL1", "ReduceSumSquare", "ReduceLogSumExp", "ArgMax", "ArgMin",
	"Identity", "Dropout", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice",
	"Gather", "GatherElements", "Tile", "Range", "ConstantOfShape", "Shape", "Size", "Constant", "DepthToSpace",
	"SpaceToDepth", "Trilu", "NonZero", "Pad", "Resize", "Upsample", "Gemm", "MatMul", "Conv", "ConvTranspose",
	"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool", "BatchNormalization",
	"InstanceNormalization", "RandomNormalLike", "Unknown"}

var fuzzAttrs = []string{"axis", "axes", "perm", "keepdims", "kernel_shape", "strides", "pads", "dilations", "group",
	"to", "blocksize", "split", "num_outputs", "starts", "ends", "allowzero", "auto_pad", "ceil_mode", "transA",
	"transB", "value", "epsilon", "start", "end", "scales", "output_shape", "output_padding",
	"keep_aspect_ratio_policy", "noop_with_empty_axes", "stash_type", "training_mode", "value_ints", "value_float"}

var fuzzInts = []int64{0, 1, 2, 3, -1, -2, 4, 5, 0, 1, math.MaxInt64, math.MinInt64, 1 << 40, -7}

var fuzzTypes = []payload.DType{payload.Float32, payload.Int64, payload.Bool, payload.Int32, payload.Float16, payload.Uint8, payload.Float64, payload.Undefined}

type fuzzBytes struct {
	b []byte
	i int
}

func (f *fuzzBytes) next() int {
	if f.i >= len(f.b) {
		return 0
	}
	f.i++
	return int(f.b[f.i-1])
}

func (f *fuzzBytes) pick(n int) int { return f.next() % n }

func (f *fuzzBytes) ints() []int64 {
	n := f.pick(6)
	v := make([]int64, n)
	for i := range v {
		v[i] = fuzzInts[f.pick(len(fuzzInts))]
	}
	return v
}

// fuzzGraph builds a small graph from fuzz bytes.
func fuzzGraph(data []byte) *Graph {
	f := &fuzzBytes{b: data}
	g := NewGraph()
	g.Opset = int64(7 + f.pick(15))
	var names []string
	for i, n := 0, 1+f.pick(3); i < n; i++ {
		v := ValueInfo{Name: "in" + strconv.Itoa(i), DType: fuzzTypes[f.pick(len(fuzzTypes))]}
		if r := f.pick(6); r < 5 {
			v.RankKnown = true
			v.Shape = make([]int, r)
			for j := range v.Shape {
				v.Shape[j] = f.pick(8) - 1
			}
		}
		g.Inputs = append(g.Inputs, v)
		names = append(names, v.Name)
	}
	for i, n := 0, f.pick(4); i < n; i++ {
		name := "c" + strconv.Itoa(i)
		if f.pick(2) == 0 {
			g.Initializers[name] = ints(name, f.ints()...)
		} else {
			g.Initializers[name] = NewTensor(name, []int{2}, []float32{float32(f.pick(5)), 0.5})
		}
		if f.pick(4) == 0 {
			g.Initializers[name] = NewTensor(name, []int{}, []int64{int64(f.pick(9)) - 2})
		}
		names = append(names, name)
	}
	var last *Node
	for i, n := 0, 1+f.pick(8); i < n; i++ {
		nd := &Node{Name: "n" + strconv.Itoa(i), OpType: fuzzOps[f.pick(len(fuzzOps))]}
		for j, k := 0, f.pick(5); j < k; j++ {
			if f.pick(6) == 0 {
				nd.Inputs = append(nd.Inputs, "")
			} else {
				nd.Inputs = append(nd.Inputs, names[f.pick(len(names))])
			}
		}
		for j, k := 0, f.pick(4); j < k; j++ {
			a := Attr{Name: fuzzAttrs[f.pick(len(fuzzAttrs))]}
			switch f.pick(6) {
			case 0:
				a.Type, a.I = AttrInt, fuzzInts[f.pick(len(fuzzInts))]
			case 1:
				a.Type, a.Ints = AttrInts, f.ints()
			case 2:
				a.Type, a.F = AttrFloat, float32(f.pick(4))-1
			case 3:
				a.Type, a.S = AttrString, []string{"NOTSET", "SAME_UPPER", "VALID", "not_larger", "x"}[f.pick(5)]
			case 4:
				a.Type, a.T = AttrTensor, ints("", f.ints()...)
			case 5:
				a.Type, a.Floats = AttrFloats, []float32{float32(f.pick(4)), 2}
			}
			nd.Attrs = append(nd.Attrs, a)
		}
		for j, k := 0, 1+f.pick(3); j < k; j++ {
			name := nd.Name + "_" + strconv.Itoa(j)
			nd.Outputs = append(nd.Outputs, name)
			names = append(names, name)
		}
		g.Nodes = append(g.Nodes, nd)
		last = nd
	}
	for _, o := range last.Outputs {
		g.Outputs = append(g.Outputs, ValueInfo{Name: o})
	}
	// Shuffle a little.
	if len(g.Nodes) > 1 && f.pick(2) == 0 {
		g.Nodes[0], g.Nodes[len(g.Nodes)-1] = g.Nodes[len(g.Nodes)-1], g.Nodes[0]
	}
	return g
}

// sameShapeUnary are ops whose output has their input's type and shape.
var sameShapeUnary = map[string]bool{"Relu": true, "Neg": true, "Abs": true, "Exp": true, "Sigmoid": true,
	"Tanh": true, "Sqrt": true, "Identity": true, "Softmax": true, "Floor": true}

// copyEval folds same-shape unary ops by copying their input; the rest
// is Unsupported.
func copyEval(n *Node, opset int64, in []*Tensor, outTypes []payload.DType) ([]*Tensor, error) {
	if sameShapeUnary[n.OpType] && len(in) > 0 && in[0] != nil && len(outTypes) == 1 && outTypes[0] == in[0].DType {
		t := *in[0]
		return []*Tensor{&t}, nil
	}
	return nil, errs.New(errs.Unsupported, "copyEval: %s", n.OpType)
}

// fuzzGraphSeeds are byte strings that fuzzGraph turns into graphs using
// most ops, shapes and attribute kinds.
func fuzzGraphSeeds() [][]byte {
	seeds := [][]byte{
		{},
		{10, 1, 0, 3, 2, 3, 4, 1, 0, 1, 65, 2, 1, 1, 0, 1},
		{3, 2, 1, 4, 1, 2, 3, 4, 1, 5, 2, 0, 7, 1, 0, 2, 3, 4, 5, 6, 7, 8, 9},
		[]byte("reshape-slice-concat-conv-pool-resize"),
		{14, 0, 0, 4, 3, 3, 5, 5, 2, 0, 1, 2, 3, 92, 2, 0, 1, 1, 13, 7, 2, 2, 3, 0, 1},
	}
	for i := 0; i < len(fuzzOps); i += 7 {
		seeds = append(seeds, []byte{byte(i), 1, 0, 2, 4, 4, 1, 0, 2, 3, byte(i), 2, 1, 1, 2, 0, byte(i % 5), 3, 1})
	}
	return seeds
}

// FuzzInferTypes builds small graphs from fuzz bytes and runs graph
// validation (Sort), shape inference and the optimizing passes on them:
// each must either succeed with sane value types or return an error
// wrapping InvalidArtifact (or Unsupported, for an attribute value a
// descriptor knows but lintel does not implement), never panic.
func FuzzInferTypes(f *testing.F) {
	for _, s := range fuzzGraphSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzGraph(data)
		check := func(what string, err error) bool {
			if err == nil {
				return true
			}
			if !errors.Is(err, errs.InvalidArtifact) && !errors.Is(err, errs.Unsupported) {
				t.Fatalf("%s: error %v wraps neither InvalidArtifact nor Unsupported", what, err)
			}
			return false
		}
		c := g.Clone()
		if !check("Sort", Sort(g)) {
			return
		}
		if !check("InferTypes", InferTypes(g)) {
			return
		}
		for name, v := range g.Values {
			if v.RankKnown && len(v.Shape) > maxRank || !v.RankKnown && v.Shape != nil {
				t.Fatalf("value %s: got %+v, want rank at most %d and no shape when the rank is unknown", name, v, maxRank)
			}
		}
		if !check("Fold", Fold(g, copyEval)) {
			return
		}
		check("FoldBatchNorm", FoldBatchNorm(g))
		check("Optimize", Optimize(c, copyEval))
	})
}

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the FuzzInferTypes seed corpus in testdata/fuzz/FuzzInferTypes")

// TestFuzzSeeds checks that testdata/fuzz/FuzzInferTypes holds the seeds,
// and rewrites them when run with -update-fuzz-seeds.
func TestFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzInferTypes")
	if *updateSeeds {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatalf("os.MkdirAll: %v", err)
		}
	}
	for i, data := range fuzzGraphSeeds() {
		body := []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data))
		path := filepath.Join(dir, fmt.Sprintf("seed%02d", i))
		if *updateSeeds {
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatalf("os.WriteFile: %v", err)
			}
			continue
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, body) {
			t.Errorf("seed %s is missing or stale (run go test ./model -run TestFuzzSeeds -update-fuzz-seeds): %v", path, err)
		}
	}
}
