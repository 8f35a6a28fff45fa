package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// refSlice slices x per the spec, one axis at a time, with Python-style
// index lists.
func refSlice(x []float64, shape []int, starts, ends, axes, steps []int64) ([]float64, []int) {
	r := len(shape)
	sel := make([][]int, r)
	for d := range sel {
		for i := 0; i < shape[d]; i++ {
			sel[d] = append(sel[d], i)
		}
	}
	for i := range starts {
		ax := i
		if axes != nil {
			ax = int(axes[i])
			if ax < 0 {
				ax += r
			}
		}
		step := int64(1)
		if steps != nil {
			step = steps[i]
		}
		s, e := clampSlice(starts[i], ends[i], step, int64(shape[ax]))
		sel[ax] = sel[ax][:0]
		for j := s; (step > 0 && j < e) || (step < 0 && j > e); j += step {
			sel[ax] = append(sel[ax], int(j))
			if step > int64(shape[ax]) || step < -int64(shape[ax]) {
				break
			}
		}
	}
	oshape := make([]int, r)
	for d := range sel {
		oshape[d] = len(sel[d])
	}
	out := make([]float64, payload.NumElems(oshape))
	for o := range out {
		oi := unravel(o, oshape)
		ii := make([]int, r)
		for d := range oi {
			ii[d] = sel[d][oi[d]]
		}
		out[o] = x[ravel(ii, shape)]
	}
	return out, oshape
}

func TestSlice(t *testing.T) {
	const big, small = math.MaxInt64, math.MinInt64
	shape := []int{3, 4, 5}
	cases := []struct {
		starts, ends, axes, steps []int64
	}{
		{[]int64{0, 1, 2}, []int64{3, 3, 5}, nil, nil},
		{[]int64{1}, []int64{big}, []int64{-1}, nil},
		{[]int64{-1, -2}, []int64{small, -5}, []int64{2, 1}, []int64{-1, -1}},
		{[]int64{big}, []int64{small}, []int64{1}, []int64{-2}},
		{[]int64{0, 0}, []int64{big, big}, []int64{0, 2}, []int64{2, 3}},
		{[]int64{10}, []int64{20}, []int64{0}, nil},
		{[]int64{-100}, []int64{100}, []int64{2}, []int64{4}},
		{[]int64{2}, []int64{1}, []int64{1}, nil},
		{[]int64{0}, []int64{5}, []int64{2}, []int64{big}},
		{[]int64{4}, []int64{0}, []int64{2}, []int64{small}},
	}
	for _, dt := range movTypes {
		for ci, c := range cases {
			for _, i32 := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%d/i32=%v", dt, ci, i32), func(t *testing.T) {
					if i32 && (c.starts[0] == big || c.starts[0] == small || (c.steps != nil && (c.steps[0] == big || c.steps[0] == small)) || c.ends[0] == big || c.ends[0] == small) {
						t.Skip("sentinels do not fit int32")
					}
					x := seqT(dt, shape)
					enc := func(v []int64) *tensor {
						if i32 {
							return mk([]int{len(v)}, conv[int32](i64sToF(v)))
						}
						return i64s(v...)
					}
					names := []string{"x", "s", "e"}
					ins := []*tensor{x, enc(c.starts), enc(c.ends)}
					if c.axes != nil {
						names, ins = append(names, "a"), append(ins, enc(c.axes))
					} else if c.steps != nil {
						names, ins = append(names, ""), append(ins, nil)
					}
					if c.steps != nil {
						names, ins = append(names, "p"), append(ins, enc(c.steps))
					}
					n := node("Slice", names[:len(ins)])
					outs, err := runNode(t, nodeCase{node: n, opset: 13, outTypes: []payload.DType{dt}}, ins...)
					if err != nil {
						t.Fatal(err)
					}
					want, wshape := refSlice(toF64(x), shape, c.starts, c.ends, c.axes, c.steps)
					if d := cmp.Diff(wshape, outs[0].shape); d != "" {
						t.Fatal(d)
					}
					if d := cmp.Diff(want, toF64(outs[0])); d != "" {
						t.Fatal(d)
					}
				})
			}
		}
	}
	x := seqT(payload.Float32, shape)
	// Opset 9: attributes.
	outs, err := runNode(t, nodeCase{node: node("Slice", []string{"x"}, aInts("starts", 1, -2), aInts("ends", 3, 1000), aInts("axes", 0, -1)), opset: 9}, x)
	if err != nil {
		t.Fatal(err)
	}
	want, wshape := refSlice(toF64(x), shape, []int64{1, -2}, []int64{3, 1000}, []int64{0, -1}, nil)
	if d := cmp.Diff(wshape, outs[0].shape); d != "" {
		t.Fatal(d)
	}
	if d := cmp.Diff(want, toF64(outs[0])); d != "" {
		t.Fatal(d)
	}
	// Errors.
	for _, c := range []struct {
		name string
		ins  []*tensor
	}{
		{"step 0", []*tensor{x, i64s(0), i64s(1), i64s(0), i64s(0)}},
		{"axis out of range", []*tensor{x, i64s(0), i64s(1), i64s(3)}},
		{"repeated axis", []*tensor{x, i64s(0, 0), i64s(1, 1), i64s(1, -2)}},
		{"length mismatch", []*tensor{x, i64s(0, 0), i64s(1)}},
	} {
		names := []string{"x", "s", "e", "a", "p"}[:len(c.ins)]
		_, err := runNode(t, nodeCase{node: node("Slice", names), opset: 13}, c.ins...)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		wantKind(t, err, errs.ShapeMismatch)
	}
}

func i64sToF(v []int64) []float64 {
	o := make([]float64, len(v))
	for i, x := range v {
		o[i] = float64(x)
	}
	return o
}

func TestGather(t *testing.T) {
	shape := []int{3, 4, 2}
	for _, dt := range movTypes {
		for _, axis := range []int64{0, 1, -1} {
			for _, i32 := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%d/%v", dt, axis, i32), func(t *testing.T) {
					x := seqT(dt, shape)
					ax := int(axis)
					if ax < 0 {
						ax += 3
					}
					iv := []int64{0, -1, 1, 1}
					ishape := []int{2, 2}
					ind := mk(ishape, iv)
					if i32 {
						ind = mk(ishape, []int32{0, -1, 1, 1})
					}
					outs, err := runNode(t, nodeCase{node: node("Gather", []string{"x", "i"}, aInt("axis", axis)), outTypes: []payload.DType{dt}}, x, ind)
					if err != nil {
						t.Fatal(err)
					}
					oshape := append(append(append([]int{}, shape[:ax]...), ishape...), shape[ax+1:]...)
					if d := cmp.Diff(oshape, outs[0].shape); d != "" {
						t.Fatal(d)
					}
					xv, got := toF64(x), toF64(outs[0])
					for o := range got {
						oi := unravel(o, oshape)
						j := iv[ravel(oi[ax:ax+2], ishape)]
						if j < 0 {
							j += int64(shape[ax])
						}
						ii := append(append(append([]int{}, oi[:ax]...), int(j)), oi[ax+2:]...)
						if w := xv[ravel(ii, shape)]; got[o] != w {
							t.Fatalf("element %d: got %v, want %v", o, got[o], w)
						}
					}
				})
			}
		}
	}
	x := seqT(payload.Float32, shape)
	// Scalar index drops the axis.
	outs, err := runNode(t, nodeCase{node: node("Gather", []string{"x", "i"}, aInt("axis", 1))}, x, mk([]int{}, []int64{2}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{3, 2}, outs[0].shape); d != "" {
		t.Fatal(d)
	}
	if d := cmp.Diff([]float64{5, 6, 13, 14, 21, 22}, toF64(outs[0])); d != "" {
		t.Fatal(d)
	}
	for _, bad := range []int64{3, -4, math.MaxInt64, math.MinInt64} {
		_, err := runNode(t, nodeCase{node: node("Gather", []string{"x", "i"})}, x, i64s(0, bad))
		wantKind(t, err, errs.ShapeMismatch)
	}
	_, err = runNode(t, nodeCase{node: node("Gather", []string{"x", "i"}, aInt("axis", 3))}, x, i64s(0))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Gather", []string{"x", "i"})}, x, mk([]int{1}, []float32{0}))
	wantKind(t, err, errs.Unsupported)
}

func TestGatherElements(t *testing.T) {
	x := mk([]int{3, 3}, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9})
	cases := []struct {
		axis  int64
		ind   *tensor
		shape []int
		want  []float64
	}{
		{0, mk([]int{2, 3}, []int64{1, 2, 0, 2, 0, 0}), []int{2, 3}, []float64{4, 8, 3, 7, 2, 3}},
		{1, mk([]int{3, 2}, []int32{0, 0, 1, 0, -1, 2}), []int{3, 2}, []float64{1, 1, 5, 4, 9, 9}},
		{-1, mk([]int{2, 2}, []int64{2, 1, 0, 0}), []int{2, 2}, []float64{3, 2, 4, 4}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("GatherElements", []string{"x", "i"}, aInt("axis", c.axis))}, x, c.ind)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.shape, outs[0].shape); d != "" {
			t.Fatal(d)
		}
		if d := cmp.Diff(c.want, toF64(outs[0])); d != "" {
			t.Errorf("axis %d: %s", c.axis, d)
		}
	}
	// 3-D against a reference, all sizes.
	shape := []int{2, 3, 4}
	for _, dt := range movTypes {
		for ax := 0; ax < 3; ax++ {
			x := seqT(dt, shape)
			ishape := []int{2, 2, 3}
			iv := make([]int64, 12)
			for i := range iv {
				iv[i] = int64((i*7)%shape[ax]) - int64(i%2)*int64(shape[ax])
			}
			outs, err := runNode(t, nodeCase{node: node("GatherElements", []string{"x", "i"}, aInt("axis", int64(ax))), outTypes: []payload.DType{dt}}, x, mk(ishape, iv))
			if err != nil {
				t.Fatal(err)
			}
			xv, got := toF64(x), toF64(outs[0])
			for o := range got {
				ii := unravel(o, ishape)
				j := iv[o]
				if j < 0 {
					j += int64(shape[ax])
				}
				ii[ax] = int(j)
				if w := xv[ravel(ii, shape)]; got[o] != w {
					t.Fatalf("%s axis %d element %d: got %v, want %v", dt, ax, o, got[o], w)
				}
			}
		}
	}
	_, err := runNode(t, nodeCase{node: node("GatherElements", []string{"x", "i"})}, x, mk([]int{1, 1}, []int64{3}))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("GatherElements", []string{"x", "i"})}, x, mk([]int{3}, []int64{0, 0, 0}))
	wantKind(t, err, errs.ShapeMismatch)
}

func TestTile(t *testing.T) {
	for _, dt := range movTypes {
		x := seqT(dt, []int{2, 3})
		outs, err := runNode(t, nodeCase{node: node("Tile", []string{"x", "r"}), outTypes: []payload.DType{dt}}, x, i64s(2, 2))
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{
			1, 2, 3, 1, 2, 3,
			4, 5, 6, 4, 5, 6,
			1, 2, 3, 1, 2, 3,
			4, 5, 6, 4, 5, 6,
		}
		if d := cmp.Diff(want, toF64(outs[0])); d != "" {
			t.Fatalf("%s: %s", dt, d)
		}
	}
	x := seqT(payload.Float32, []int{2, 1, 2})
	outs, err := runNode(t, nodeCase{node: node("Tile", []string{"x", "r"})}, x, i64s(1, 3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{2, 3, 0}, outs[0].shape); d != "" {
		t.Fatal(d)
	}
	outs, err = runNode(t, nodeCase{node: node("Tile", []string{"x", "r"})}, x, i64s(1, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float64{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}, toF64(outs[0])); d != "" {
		t.Fatal(d)
	}
	_, err = runNode(t, nodeCase{node: node("Tile", []string{"x", "r"})}, x, i64s(1, -1, 1))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Tile", []string{"x", "r"})}, x, i64s(1, 1))
	wantKind(t, err, errs.ShapeMismatch)
}
