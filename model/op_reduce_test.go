package model

import (
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestReduceRule(t *testing.T) {
	red := func(op string, ins []string, attrs ...Attr) *Node { return nd(op, ins, []string{"y"}, attrs...) }
	x := []string{"x"}
	xa := []string{"x", "a"}
	in := kin(f32, 2, 3, 4)
	runNNCases(t, []nnCase{
		{name: "attr axes", opset: 13, node: red("ReduceMean", x, aIs("axes", 1)), in: []nnIn{in}, want: []nnOut{ko(f32, 2, 1, 4)}},
		{name: "attr axes no keepdims", opset: 13, node: red("ReduceMax", x, aIs("axes", -1, 0), aI("keepdims", 0)), in: []nnIn{in}, want: []nnOut{ko(f32, 3)}},
		{name: "all axes", opset: 13, node: red("ReduceMin", x, aI("keepdims", 0)), in: []nnIn{in}, want: []nnOut{ko(f32)}},
		{name: "all axes keepdims", opset: 1, node: red("ReduceProd", x), in: []nnIn{in}, want: []nnOut{ko(f32, 1, 1, 1)}},
		{name: "sum attr before 13", opset: 12, node: red("ReduceSum", x, aIs("axes", 0)), in: []nnIn{kin(i64, 2, 3, 4)}, want: []nnOut{ko(i64, 1, 3, 4)}},
		{name: "sum input from 13", opset: 13, node: red("ReduceSum", xa), in: []nnIn{in, vin64(2)}, want: []nnOut{ko(f32, 2, 3, 1)}},
		{name: "mean input from 18", opset: 18, node: red("ReduceMean", xa, aI("keepdims", 0)), in: []nnIn{in, vin64(0, 1)}, want: []nnOut{ko(f32, 4)}},
		{name: "no axes input", opset: 18, node: red("ReduceL1", x), in: []nnIn{in}, want: []nnOut{ko(f32, 1, 1, 1)}},
		{name: "empty axes input", opset: 18, node: red("ReduceLogSum", xa, aI("keepdims", 0)), in: []nnIn{in, vin64()}, want: []nnOut{ko(f32)}},
		{name: "noop empty axes", opset: 18, node: red("ReduceL2", x, aI("noop_with_empty_axes", 1)), in: []nnIn{in}, want: []nnOut{ko(f32, 2, 3, 4)}},
		{name: "noop empty axes input", opset: 13, node: red("ReduceSum", xa, aI("noop_with_empty_axes", 1)), in: []nnIn{in, vin64()}, want: []nnOut{ko(f32, 2, 3, 4)}},
		{name: "noop before the input", opset: 13, node: red("ReduceSumSquare", x, aI("noop_with_empty_axes", 1), aI("keepdims", 0)), in: []nnIn{in}, want: []nnOut{ko(f32)}},
		{name: "axes attribute ignored with the input", opset: 18, node: red("ReduceLogSumExp", x, aIs("axes", 0)), in: []nnIn{in}, want: []nnOut{ko(f32, 1, 1, 1)}},
		{name: "unknown dims", opset: 13, node: red("ReduceMean", x, aIs("axes", 1), aI("keepdims", 0)), in: []nnIn{kin(f32, -1, 3, -1)}, want: []nnOut{ko(f32, -1, -1)}},
		{name: "unknown rank", opset: 13, node: red("ReduceMean", x, aIs("axes", 1)), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "dynamic axes keepdims", opset: 18, node: red("ReduceProd", xa), in: []nnIn{in, kin(i64, 1)}, want: []nnOut{ko(f32, -1, -1, -1)}},
		{name: "dynamic axes", opset: 18, node: red("ReduceProd", xa, aI("keepdims", 0)), in: []nnIn{in, kin(i64, 1)}, want: []nnOut{uo(f32)}},
		{name: "axis out of range", opset: 13, node: red("ReduceMean", x, aIs("axes", 5)), in: []nnIn{in}, err: errs.InvalidArtifact, errHas: "axis 5"},
		{name: "axis repeated at run time", opset: 18, runtime: true, node: red("ReduceMax", xa), in: []nnIn{in, vin64(0, -3)}, err: errs.ShapeMismatch, errHas: "repeated"},
		{name: "axes rank", opset: 18, node: red("ReduceMax", xa), in: []nnIn{in, kin(i64, 1, 1)}, err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "axes type", opset: 18, node: red("ReduceMax", xa), in: []nnIn{in, kin(payload.Int32, 1)}, err: errs.InvalidArtifact, errHas: "int64"},
		{name: "axes input before 13", opset: 12, node: red("ReduceSum", xa), err: errs.InvalidArtifact, errHas: "at most 1"},
		{name: "axes input before 18", opset: 17, node: red("ReduceMean", xa), err: errs.InvalidArtifact, errHas: "at most 1"},
		{name: "axes not ints", opset: 13, node: red("ReduceMean", x, aI("axes", 1)), err: errs.InvalidArtifact, errHas: "axes"},
	})
}

func TestReduceAttrs(t *testing.T) {
	cases := []struct {
		op    string
		opset int64
		attrs []Attr
		want  ReduceAttrs
	}{
		{"ReduceSum", 12, []Attr{aIs("axes", 1), aI("noop_with_empty_axes", 1)}, ReduceAttrs{Axes: []int64{1}, KeepDims: true}},
		{"ReduceSum", 13, []Attr{aIs("axes", 1), aI("noop_with_empty_axes", 1)}, ReduceAttrs{AxesInput: true, KeepDims: true, NoopWithEmptyAxes: true}},
		{"ReduceMean", 17, []Attr{aI("keepdims", 0)}, ReduceAttrs{}},
		{"ReduceMean", 18, nil, ReduceAttrs{AxesInput: true, KeepDims: true}},
	}
	for _, c := range cases {
		_, r, err := BindNode(nd(c.op, []string{"x"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatalf("%s %d: %v", c.op, c.opset, err)
		}
		got := r.(*ReduceAttrs)
		if !slices.Equal(got.Axes, c.want.Axes) || got.AxesInput != c.want.AxesInput || got.KeepDims != c.want.KeepDims || got.NoopWithEmptyAxes != c.want.NoopWithEmptyAxes {
			t.Errorf("%s %d: got %+v, want %+v", c.op, c.opset, *got, c.want)
		}
	}
}
