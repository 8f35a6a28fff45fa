package cpu

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// unravel returns flat's multi-index in shape.
func unravel(flat int, shape []int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		idx[k] = flat % shape[k]
		flat /= shape[k]
	}
	return idx
}

// ravel returns idx's flat offset in shape.
func ravel(idx, shape []int) int {
	o := 0
	for k := range shape {
		o = o*shape[k] + idx[k]
	}
	return o
}

func refTranspose(x []float64, shape []int, perm []int) []float64 {
	oshape := make([]int, len(perm))
	for i, p := range perm {
		oshape[i] = shape[p]
	}
	out := make([]float64, len(x))
	for o := range out {
		oi := unravel(o, oshape)
		ii := make([]int, len(shape))
		for i, p := range perm {
			ii[p] = oi[i]
		}
		out[o] = x[ravel(ii, shape)]
	}
	return out
}

func TestTranspose(t *testing.T) {
	cases := []struct {
		shape []int
		perm  []int64 // nil: default
	}{
		{[]int{3, 5}, nil},
		{[]int{40, 70}, []int64{1, 0}},
		{[]int{2, 3, 4}, []int64{0, 2, 1}},
		{[]int{2, 33, 35}, []int64{0, 2, 1}},
		{[]int{2, 3, 4, 5}, []int64{0, 2, 3, 1}},
		{[]int{2, 3, 4, 5}, []int64{0, 3, 1, 2}},
		{[]int{2, 3, 4, 5}, nil},
		{[]int{1, 3, 1, 5}, []int64{3, 2, 1, 0}},
		{[]int{2, 0, 3}, []int64{2, 0, 1}},
		{[]int{}, nil},
		{[]int{4, 1}, []int64{1, 0}},
	}
	for _, dt := range movTypes {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%v/%v", dt, c.shape, c.perm), func(t *testing.T) {
				x := seqT(dt, c.shape)
				var n = node("Transpose", []string{"x"})
				perm := make([]int, len(c.shape))
				for i := range perm {
					perm[i] = len(perm) - 1 - i
				}
				if c.perm != nil {
					n = node("Transpose", []string{"x"}, aInts("perm", c.perm...))
					for i, p := range c.perm {
						perm[i] = int(p)
					}
				}
				outs, err := runNode(t, nodeCase{node: n, outTypes: []payload.DType{dt}}, x)
				if err != nil {
					t.Fatal(err)
				}
				want := refTranspose(toF64(x), c.shape, perm)
				if d := cmp.Diff(want, toF64(outs[0])); d != "" {
					t.Fatal(d)
				}
			})
		}
	}
	x := seqT(payload.Float32, []int{2, 3})
	_, err := runNode(t, nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 0, 0))}, x)
	wantKind(t, err, errs.InvalidArtifact)
	_, err = runNode(t, nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 0, 2, 1))}, x)
	wantKind(t, err, errs.InvalidArtifact)
}

func TestConcat(t *testing.T) {
	for _, dt := range movTypes {
		for _, axis := range []int64{0, 1, 2, -1, -3} {
			t.Run(fmt.Sprintf("%s/%d", dt, axis), func(t *testing.T) {
				ax := int(axis)
				if ax < 0 {
					ax += 3
				}
				shapes := [][]int{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}}
				shapes[1][ax] = 1
				shapes[2][ax] = 0
				ins := []*tensor{seqT(dt, shapes[0]), seqT(dt, shapes[1]), seqT(dt, shapes[2])}
				bv := toF64(ins[1])
				for i := range bv {
					bv[i] += 100
				}
				ins[1] = fromF64(dt, shapes[1], bv)
				outs, err := runNode(t, nodeCase{node: node("Concat", []string{"a", "b", "c"}, aInt("axis", axis)), outTypes: []payload.DType{dt}}, ins...)
				if err != nil {
					t.Fatal(err)
				}
				oshape := []int{2, 3, 4}
				oshape[ax]++
				if d := cmp.Diff(oshape, outs[0].shape); d != "" {
					t.Fatal(d)
				}
				got := toF64(outs[0])
				a, b := toF64(ins[0]), toF64(ins[1])
				for o := range got {
					idx := unravel(o, oshape)
					var w float64
					if idx[ax] < shapes[0][ax] {
						w = a[ravel(idx, shapes[0])]
					} else {
						idx[ax] -= shapes[0][ax]
						w = b[ravel(idx, shapes[1])]
					}
					if got[o] != w {
						t.Fatalf("element %d: got %v, want %v", o, got[o], w)
					}
				}
			})
		}
	}
	a, b := seqT(payload.Float32, []int{2, 3}), seqT(payload.Float32, []int{3, 3})
	_, err := runNode(t, nodeCase{node: node("Concat", []string{"a", "b"}, aInt("axis", 1))}, a, b)
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Concat", []string{"a", "b"}, aInt("axis", 2))}, a, a)
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Concat", []string{"a", "b"})}, a, a)
	wantKind(t, err, errs.InvalidArtifact)
}

func TestSplit(t *testing.T) {
	x := seqT(payload.Float32, []int{2, 7})
	three := func() nodeCase {
		n := node("Split", []string{"x"}, aInt("axis", 1))
		n.Outputs = []string{"a", "b", "c"}
		return nodeCase{node: n}
	}
	cases := []struct {
		name  string
		opset int64
		attrs bool
		split []int64
		num   int64
		axis  int64
		want  [][]int
		err   error
	}{
		{"attr", 11, true, []int64{2, 4, 1}, 0, 1, [][]int{{2, 2}, {2, 4}, {2, 1}}, nil},
		{"input", 13, false, []int64{3, 0, 4}, 0, -1, [][]int{{2, 3}, {2, 0}, {2, 4}}, nil},
		{"num_outputs", 18, false, nil, 3, 1, [][]int{{2, 3}, {2, 3}, {2, 1}}, nil},
		{"uneven default", 13, false, nil, 0, 1, nil, errs.ShapeMismatch},
		{"bad sum", 13, false, []int64{1, 1, 1}, 0, 1, nil, errs.ShapeMismatch},
		{"negative", 13, false, []int64{8, -1, 0}, 0, 1, nil, errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nc := three()
			nc.opset = c.opset
			nc.node.Attrs[0] = aInt("axis", c.axis)
			ins := []*tensor{x}
			if c.split != nil {
				if c.attrs {
					nc.node.Attrs = append(nc.node.Attrs, aInts("split", c.split...))
				} else {
					nc.node.Inputs = append(nc.node.Inputs, "s")
					ins = append(ins, i64s(c.split...))
				}
			}
			if c.num > 0 {
				nc.node.Attrs = append(nc.node.Attrs, aInt("num_outputs", c.num))
			}
			outs, err := runNode(t, nc, ins...)
			if c.err != nil {
				wantKind(t, err, c.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			xv := toF64(x)
			off := 0
			for j, o := range outs {
				if d := cmp.Diff(c.want[j], o.shape); d != "" {
					t.Fatal(d)
				}
				got := toF64(o)
				w := o.shape[1]
				for i := range got {
					r, col := i/max(w, 1), i%max(w, 1)
					if got[i] != xv[r*7+off+col] {
						t.Fatalf("output %d element %d: got %v", j, i, got[i])
					}
				}
				off += w
			}
		})
	}
	// All element sizes through an even split along axis 0.
	for _, dt := range movTypes {
		x := seqT(dt, []int{4, 3})
		n := node("Split", []string{"x"})
		n.Outputs = []string{"a", "b"}
		outs, err := runNode(t, nodeCase{node: n, outTypes: []payload.DType{dt, dt}}, x)
		if err != nil {
			t.Fatal(err)
		}
		all := append(toF64(outs[0]), toF64(outs[1])...)
		if d := cmp.Diff(toF64(x), all); d != "" {
			t.Fatalf("%s: %s", dt, d)
		}
	}
}
