package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// refReduce reduces x of shape s over the axes marked in red with f, which
// folds a group's values into one, and returns the keepdims result.
func refReduce(x []float64, s []int, red []bool, f func([]float64) float64) []float64 {
	os := make([]int, len(s))
	for i, d := range s {
		os[i] = d
		if red[i] {
			os[i] = 1
		}
	}
	groups := make([][]float64, ewNumel(os))
	for i, v := range x {
		groups[ewRefIndex(s, os, i)] = append(groups[ewRefIndex(s, os, i)], v)
	}
	out := make([]float64, len(groups))
	for i, g := range groups {
		out[i] = f(g)
	}
	return out
}

var reduceRefs = map[string]func([]float64) float64{
	"ReduceSum": func(v []float64) float64 { return ewFold(v, 0, func(a, x float64) float64 { return a + x }) },
	"ReduceMean": func(v []float64) float64 {
		return ewFold(v, 0, func(a, x float64) float64 { return a + x }) / float64(len(v))
	},
	"ReduceMax":  func(v []float64) float64 { return ewFold(v, math.Inf(-1), math.Max) },
	"ReduceMin":  func(v []float64) float64 { return ewFold(v, math.Inf(1), math.Min) },
	"ReduceProd": func(v []float64) float64 { return ewFold(v, 1, func(a, x float64) float64 { return a * x }) },
	"ReduceL1":   func(v []float64) float64 { return ewFold(v, 0, func(a, x float64) float64 { return a + math.Abs(x) }) },
	"ReduceL2": func(v []float64) float64 {
		return math.Sqrt(ewFold(v, 0, func(a, x float64) float64 { return a + x*x }))
	},
	"ReduceSumSquare": func(v []float64) float64 { return ewFold(v, 0, func(a, x float64) float64 { return a + x*x }) },
	"ReduceLogSum":    func(v []float64) float64 { return math.Log(ewFold(v, 0, func(a, x float64) float64 { return a + x })) },
	"ReduceLogSumExp": func(v []float64) float64 {
		return math.Log(ewFold(v, 0, func(a, x float64) float64 { return a + math.Exp(x) }))
	},
}

func ewFold(v []float64, init float64, f func(a, x float64) float64) float64 {
	for _, x := range v {
		init = f(init, x)
	}
	return init
}

func TestReduceFloat(t *testing.T) {
	s := []int{2, 3, 4}
	x := ewSeq(24, func(i int) float64 { return float64((i*5)%9)*0.25 + 0.5 })
	axesCases := []struct {
		axes []int64 // nil: all
		red  []bool
	}{
		{nil, []bool{true, true, true}},
		{[]int64{0}, []bool{true, false, false}},
		{[]int64{1}, []bool{false, true, false}},
		{[]int64{-1}, []bool{false, false, true}},
		{[]int64{0, 2}, []bool{true, false, true}},
		{[]int64{-2, -1}, []bool{false, true, true}},
		{[]int64{2, 0, 1}, []bool{true, true, true}},
	}
	for op, ref := range reduceRefs {
		inputFrom := int64(18)
		if op == "ReduceSum" {
			inputFrom = 13
		}
		for _, ac := range axesCases {
			for _, keep := range []int64{0, 1} {
				want := refReduce(x, s, ac.red, ref)
				var wantShape []int
				for i, d := range s {
					switch {
					case !ac.red[i]:
						wantShape = append(wantShape, d)
					case keep == 1:
						wantShape = append(wantShape, 1)
					}
				}
				// Axes as an attribute before the input opset, as an
				// input from it.
				for _, opset := range []int64{inputFrom - 1, inputFrom} {
					attrs := []model.Attr{aInt("keepdims", keep)}
					ins := []*tensor{mk(s, x)}
					names := []string{"x"}
					if ac.axes != nil {
						if opset < inputFrom {
							attrs = append(attrs, aInts("axes", ac.axes...))
						} else {
							ins = append(ins, mk([]int{len(ac.axes)}, ac.axes))
							names = append(names, "axes")
						}
					}
					outs, err := runNode(t, nodeCase{node: node(op, names, attrs...), opset: opset, outTypes: []payload.DType{payload.Float64}}, ins...)
					if err != nil {
						t.Fatalf("%s %v opset %d: %v", op, ac.axes, opset, err)
					}
					if !sameShape(outs[0].shape, wantShape) {
						t.Fatalf("%s %v keep %d: shape %v, want %v", op, ac.axes, keep, outs[0].shape, wantShape)
					}
					for i, w := range want {
						if g := outs[0].f64()[i]; math.Abs(g-w) > 1e-12*math.Max(1, math.Abs(w)) {
							t.Fatalf("%s %v: [%d] = %v, want %v", op, ac.axes, i, g, w)
						}
					}
					// float32 through the same path.
					ins[0] = mk(s, ewMap(x, func(v float64) float32 { return float32(v) }))
					outs, err = runNode(t, nodeCase{node: node(op, names, attrs...), opset: opset}, ins...)
					if err != nil {
						t.Fatal(err)
					}
					for i, w := range want {
						if g := float64(outs[0].f32()[i]); math.Abs(g-w) > 1e-6*math.Max(1, math.Abs(w)) {
							t.Fatalf("%s f32 %v: [%d] = %v, want %v", op, ac.axes, i, g, w)
						}
					}
				}
			}
		}
	}
}

func TestReduceSpecial(t *testing.T) {
	x := mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	// noop_with_empty_axes copies the input; empty axes input means all.
	outs, err := runNode(t, nodeCase{node: node("ReduceSum", []string{"x", "axes"}, aInt("noop_with_empty_axes", 1)), opset: 13}, x, mk([]int{0}, []int64{}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{1, 2, 3, 4, 5, 6}, outs[0].f32()); d != "" || !sameShape(outs[0].shape, []int{2, 3}) {
		t.Errorf("noop: %v %s", outs[0].shape, d)
	}
	outs, err = runNode(t, nodeCase{node: node("ReduceMean", []string{"x", "axes"}, aInt("keepdims", 0)), opset: 18}, x, mk([]int{0}, []int64{}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{3.5}, outs[0].f32()); d != "" || len(outs[0].shape) != 0 {
		t.Errorf("empty axes: %v %s", outs[0].shape, d)
	}
	outs, err = runNode(t, nodeCase{node: node("ReduceMax", []string{"x"}), opset: 18}, x)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{6}, outs[0].f32()); d != "" || !sameShape(outs[0].shape, []int{1, 1}) {
		t.Errorf("no axes input: %v %s", outs[0].shape, d)
	}
	// Integers accumulate in int64; Mean truncates.
	xi := mk([]int{2, 3}, []int64{1, -2, 4, 7, 5, -6})
	for _, c := range []struct {
		op   string
		want []int64
	}{
		{"ReduceSum", []int64{8, 3, -2}},
		{"ReduceMean", []int64{4, 1, -1}},
		{"ReduceMax", []int64{7, 5, 4}},
		{"ReduceMin", []int64{1, -2, -6}},
		{"ReduceProd", []int64{7, -10, -24}},
		{"ReduceL1", []int64{8, 7, 10}},
		{"ReduceSumSquare", []int64{50, 29, 52}},
	} {
		outs, err := runNode(t, nodeCase{node: node(c.op, []string{"x"}, aInts("axes", 0), aInt("keepdims", 0)), opset: 11, outTypes: []payload.DType{payload.Int64}}, xi)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if d := cmp.Diff(c.want, outs[0].i64()); d != "" {
			t.Errorf("%s int64: %s", c.op, d)
		}
	}
	outs, err = runNode(t, nodeCase{node: node("ReduceSum", []string{"x"}, aInts("axes", 1)), opset: 11, outTypes: []payload.DType{payload.Int32}},
		mk([]int{2, 2}, []int32{1, 2, 3, 4}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int32{3, 7}, outs[0].i32()); d != "" {
		t.Errorf("int32: %s", d)
	}
	// A scalar reduces to itself.
	outs, err = runNode(t, nodeCase{node: node("ReduceMean", []string{"x"}), opset: 13}, mk([]int{}, []float32{2.5}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{2.5}, outs[0].f32()); d != "" {
		t.Errorf("scalar: %s", d)
	}
	for _, c := range []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"axis range attr", nodeCase{node: node("ReduceSum", []string{"x"}, aInts("axes", 2)), opset: 11}, []*tensor{x}, errs.InvalidArtifact},
		{"axis repeated attr", nodeCase{node: node("ReduceMean", []string{"x"}, aInts("axes", 1, -1)), opset: 13}, []*tensor{x}, errs.InvalidArtifact},
		{"axis range input", nodeCase{node: node("ReduceSum", []string{"x", "a"}), opset: 13}, []*tensor{x, mk([]int{1}, []int64{-3})}, errs.ShapeMismatch},
		{"axis repeated input", nodeCase{node: node("ReduceMax", []string{"x", "a"}), opset: 18}, []*tensor{x, mk([]int{2}, []int64{0, -2})}, errs.ShapeMismatch},
		{"axes int32", nodeCase{node: node("ReduceMax", []string{"x", "a"}), opset: 18}, []*tensor{x, mk([]int{1}, []int32{0})}, errs.InvalidArtifact},
		{"input before 13", nodeCase{node: node("ReduceSum", []string{"x", "a"}), opset: 12}, []*tensor{x, mk([]int{1}, []int64{0})}, errs.InvalidArtifact},
		{"bool sum", nodeCase{node: node("ReduceSum", []string{"x"}), opset: 13, outTypes: []payload.DType{payload.Bool}}, []*tensor{mk([]int{1}, []bool{true})}, errs.Unsupported},
		{"string", nodeCase{node: node("ReduceMax", []string{"x"}), opset: 13}, []*tensor{{dt: payload.String, shape: []int{1}}}, errs.Unsupported},
	} {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}
