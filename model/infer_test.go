package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// sh is an expected output type: a dtype and dims, or nil dims for an
// unknown rank.
type sh struct {
	dt   payload.DType
	dims []int
}

func (s sh) String() string {
	if s.dims == nil {
		return fmt.Sprintf("%s[?]", s.dt)
	}
	return fmt.Sprintf("%s%v", s.dt, s.dims)
}

func d(dims ...int) []int { return append([]int{}, dims...) }

type inferCase struct {
	name   string
	opset  int64
	in     []ValueInfo
	consts []*Tensor
	node   *Node
	want   []sh
	err    string // substring of an expected InvalidArtifact error
}

func runInfer(t *testing.T, cases []inferCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opset := c.opset
			if opset == 0 {
				opset = 17
			}
			c.node.Name = "n"
			g := graph(opset, c.in, c.consts, c.node)
			if err := Sort(g); err != nil {
				t.Fatal(err)
			}
			err := InferTypes(g)
			if c.err != "" {
				wantKind(t, err, errs.InvalidArtifact)
				if !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), `"n"`) {
					t.Fatalf("error %q: want it to mention %q and the node", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range c.want {
				v := g.Values[c.node.Outputs[i]]
				if v == nil {
					t.Fatalf("output %d: no type", i)
				}
				got := sh{v.DType, nil}
				if v.RankKnown {
					got.dims = v.Shape
					if got.dims == nil {
						got.dims = []int{}
					}
				}
				if got.String() != w.String() {
					t.Errorf("output %d: got %s, want %s", i, got, w)
				}
			}
		})
	}
}

func TestInferElementwise(t *testing.T) {
	x := vin("x", f32, 2, 3)
	runInfer(t, []inferCase{
		{name: "unary", in: []ValueInfo{x}, node: nd("Relu", []string{"x"}, []string{"y"}), want: []sh{{f32, d(2, 3)}}},
		{name: "unary unknown rank", in: []ValueInfo{{Name: "x", DType: f32}}, node: nd("Sigmoid", []string{"x"}, []string{"y"}), want: []sh{{f32, nil}}},
		{name: "not", in: []ValueInfo{vin("x", payload.Bool, 4)}, node: nd("Not", []string{"x"}, []string{"y"}), want: []sh{{payload.Bool, d(4)}}},
		{name: "broadcast", in: []ValueInfo{vin("a", f32, 2, 1, 4), vin("b", f32, 3, 1)}, node: nd("Add", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(2, 3, 4)}}},
		{name: "broadcast unknown", in: []ValueInfo{vin("a", f32, -1, 4), vin("b", f32, 1)}, node: nd("Mul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(-1, 4)}}},
		{name: "broadcast unknown vs known", in: []ValueInfo{vin("a", f32, -1, 4), vin("b", f32, 5, 1)}, node: nd("Sub", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(5, 4)}}},
		{name: "broadcast unknown vs 1", in: []ValueInfo{vin("a", f32, 1), vin("b", f32, -1)}, node: nd("Div", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(-1)}}},
		{name: "broadcast zero", in: []ValueInfo{vin("a", f32, 0, 3), vin("b", f32, 1, 3)}, node: nd("Add", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(0, 3)}}},
		{name: "broadcast conflict", in: []ValueInfo{vin("a", f32, 2, 3), vin("b", f32, 4)}, node: nd("Add", []string{"a", "b"}, []string{"y"}), err: "broadcast"},
		{name: "variadic max", in: []ValueInfo{vin("a", f32, 3), vin("b", f32, 2, 1), vin("c", f32)}, node: nd("Max", []string{"a", "b", "c"}, []string{"y"}), want: []sh{{f32, d(2, 3)}}},
		{name: "compare", in: []ValueInfo{vin("a", payload.Int32, 3), vin("b", payload.Int32, 1)}, node: nd("Less", []string{"a", "b"}, []string{"y"}), want: []sh{{payload.Bool, d(3)}}},
		{name: "and", in: []ValueInfo{vin("a", payload.Bool, 3), vin("b", payload.Bool, 3)}, node: nd("And", []string{"a", "b"}, []string{"y"}), want: []sh{{payload.Bool, d(3)}}},
		{name: "where", in: []ValueInfo{vin("c", payload.Bool, 2, 1), vin("a", payload.Int32, 3), vin("b", payload.Int32, 1)}, node: nd("Where", []string{"c", "a", "b"}, []string{"y"}), want: []sh{{payload.Int32, d(2, 3)}}},
		{name: "cast", in: []ValueInfo{x}, node: nd("Cast", []string{"x"}, []string{"y"}, aI("to", int64(payload.Float16))), want: []sh{{payload.Float16, d(2, 3)}}},
		{name: "cast no to", in: []ValueInfo{x}, node: nd("Cast", []string{"x"}, []string{"y"}), err: "to"},
		{name: "cast bad to type", in: []ValueInfo{x}, node: nd("Cast", []string{"x"}, []string{"y"}, aF("to", 1)), err: "to"},
		{name: "castlike", in: []ValueInfo{x, vin("l", payload.Int8)}, node: nd("CastLike", []string{"x", "l"}, []string{"y"}), want: []sh{{payload.Int8, d(2, 3)}}},
		{name: "clip", in: []ValueInfo{x, vin("lo", f32)}, node: nd("Clip", []string{"x", "lo", ""}, []string{"y"}), want: []sh{{f32, d(2, 3)}}},
		{name: "prelu", in: []ValueInfo{vin("x", f32, 1, 3, 4, 4), vin("s", f32, 3, 1, 1)}, node: nd("PRelu", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(1, 3, 4, 4)}}},
		{name: "dropout", in: []ValueInfo{x}, node: nd("Dropout", []string{"x"}, []string{"y", "m"}), want: []sh{{f32, d(2, 3)}, {payload.Bool, d(2, 3)}}},
		{name: "softmax", in: []ValueInfo{x}, node: nd("Softmax", []string{"x"}, []string{"y"}, aI("axis", 1)), want: []sh{{f32, d(2, 3)}}},
		{name: "layernorm", in: []ValueInfo{vin("x", payload.Float16, 2, 5, 8), vin("s", payload.Float16, 8)}, node: nd("LayerNormalization", []string{"x", "s"}, []string{"y", "mean", "inv"}, aI("axis", -1)),
			want: []sh{{payload.Float16, d(2, 5, 8)}, {f32, d(2, 5, 1)}, {f32, d(2, 5, 1)}}},
		{name: "layernorm axis 1", in: []ValueInfo{vin("x", f32, 2, 5, 8), vin("s", f32, 5, 8)}, node: nd("LayerNormalization", []string{"x", "s"}, []string{"y", "mean"}, aI("axis", 1), aI("stash_type", 11)),
			want: []sh{{f32, d(2, 5, 8)}, {payload.Float64, d(2, 1, 1)}}},
		{name: "batchnorm", in: []ValueInfo{vin("x", f32, 2, 3, 4, 4), vin("s", f32, 3), vin("b", f32, 3), vin("m", f32, 3), vin("v", f32, 3)}, node: nd("BatchNormalization", []string{"x", "s", "b", "m", "v"}, []string{"y"}), want: []sh{{f32, d(2, 3, 4, 4)}}},
		{name: "trilu", in: []ValueInfo{x}, node: nd("Trilu", []string{"x"}, []string{"y"}), want: []sh{{f32, d(2, 3)}}},
		{name: "unknown op", in: []ValueInfo{x}, node: nd("FancyOp", []string{"x"}, []string{"y"}), want: []sh{{payload.Undefined, nil}}},
		{name: "other domain", in: []ValueInfo{x}, node: &Node{OpType: "Relu", Domain: "com.example", Inputs: []string{"x"}, Outputs: []string{"y"}}, want: []sh{{payload.Undefined, nil}}},
	})
}

func TestInferShapeOps(t *testing.T) {
	x := vin("x", f32, 2, 3, 4)
	runInfer(t, []inferCase{
		{name: "shape", in: []ValueInfo{x}, node: nd("Shape", []string{"x"}, []string{"y"}), want: []sh{{i64, d(3)}}},
		{name: "shape start end", in: []ValueInfo{x}, node: nd("Shape", []string{"x"}, []string{"y"}, aI("start", 1), aI("end", -1)), want: []sh{{i64, d(1)}}},
		{name: "shape start end opset 13 ignored", opset: 13, in: []ValueInfo{x}, node: nd("Shape", []string{"x"}, []string{"y"}, aI("start", 1)), want: []sh{{i64, d(3)}}},
		{name: "shape unknown rank", in: []ValueInfo{{Name: "x", DType: f32}}, node: nd("Shape", []string{"x"}, []string{"y"}), want: []sh{{i64, d(-1)}}},
		{name: "size", in: []ValueInfo{x}, node: nd("Size", []string{"x"}, []string{"y"}), want: []sh{{i64, d()}}},
		{name: "nonzero", in: []ValueInfo{x}, node: nd("NonZero", []string{"x"}, []string{"y"}), want: []sh{{i64, d(3, -1)}}},
		{name: "argmax", in: []ValueInfo{x}, node: nd("ArgMax", []string{"x"}, []string{"y"}, aI("axis", -1)), want: []sh{{i64, d(2, 3, 1)}}},
		{name: "argmin nokeep", in: []ValueInfo{x}, node: nd("ArgMin", []string{"x"}, []string{"y"}, aI("axis", 1), aI("keepdims", 0)), want: []sh{{i64, d(2, 4)}}},
		{name: "argmax bad axis", in: []ValueInfo{x}, node: nd("ArgMax", []string{"x"}, []string{"y"}, aI("axis", 3)), err: "axis"},
		{name: "constant", node: nd("Constant", nil, []string{"y"}, aT("value", NewTensor("", []int{2, 2}, []int32{1, 2, 3, 4}))), want: []sh{{payload.Int32, d(2, 2)}}},
		{name: "constant float", node: nd("Constant", nil, []string{"y"}, aF("value_float", 2)), want: []sh{{f32, d()}}},
		{name: "constant ints", node: nd("Constant", nil, []string{"y"}, aIs("value_ints", 1, 2, 3)), want: []sh{{i64, d(3)}}},
		{name: "constantofshape", consts: []*Tensor{ints("s", 2, 5)}, node: nd("ConstantOfShape", []string{"s"}, []string{"y"}), want: []sh{{f32, d(2, 5)}}},
		{name: "constantofshape int", consts: []*Tensor{ints("s", 3)}, node: nd("ConstantOfShape", []string{"s"}, []string{"y"}, aT("value", NewTensor("", []int{1}, []int64{7}))), want: []sh{{i64, d(3)}}},
		{name: "constantofshape dynamic", in: []ValueInfo{vin("s", i64, 4)}, node: nd("ConstantOfShape", []string{"s"}, []string{"y"}), want: []sh{{f32, d(-1, -1, -1, -1)}}},
		{name: "constantofshape negative", consts: []*Tensor{ints("s", -2)}, node: nd("ConstantOfShape", []string{"s"}, []string{"y"}), err: "-2"},
		{name: "range int", consts: []*Tensor{scalar("a", int64(1)), scalar("b", int64(10)), scalar("c", int64(3))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), want: []sh{{i64, d(3)}}},
		{name: "range int down", consts: []*Tensor{scalar("a", int64(10)), scalar("b", int64(1)), scalar("c", int64(-4))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), want: []sh{{i64, d(3)}}},
		{name: "range empty", consts: []*Tensor{scalar("a", int64(10)), scalar("b", int64(1)), scalar("c", int64(1))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), want: []sh{{i64, d(0)}}},
		{name: "range float", consts: []*Tensor{scalar("a", float32(0)), scalar("b", float32(1)), scalar("c", float32(0.25))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), want: []sh{{f32, d(4)}}},
		{name: "range dynamic", in: []ValueInfo{vin("b", payload.Int32)}, consts: []*Tensor{scalar("a", int32(0)), scalar("c", int32(1))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), want: []sh{{payload.Int32, d(-1)}}},
		{name: "range zero delta", consts: []*Tensor{scalar("a", int64(1)), scalar("b", int64(10)), scalar("c", int64(0))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), err: "delta"},
		{name: "range extreme", consts: []*Tensor{scalar("a", int64(-1<<63)), scalar("b", int64(1<<63-1)), scalar("c", int64(1))}, node: nd("Range", []string{"a", "b", "c"}, []string{"y"}), err: "range"},
	})
}

func scalar[E payload.Elem](name string, v E) *Tensor { return NewTensor(name, []int{}, []E{v}) }
