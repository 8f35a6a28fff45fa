package cpu

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestPad(t *testing.T) {
	x := mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	cases := []struct {
		name  string
		mode  string
		pads  []int64
		want  []float64
		shape []int
	}{
		{"constant", "constant", []int64{1, 0, 0, 2}, []float64{
			9, 9, 9, 9, 9,
			1, 2, 3, 9, 9,
			4, 5, 6, 9, 9,
		}, []int{3, 5}},
		{"edge", "edge", []int64{0, 2, 1, 1}, []float64{
			1, 1, 1, 2, 3, 3,
			4, 4, 4, 5, 6, 6,
			4, 4, 4, 5, 6, 6,
		}, []int{3, 6}},
		{"reflect", "reflect", []int64{1, 2, 1, 2}, []float64{
			6, 5, 4, 5, 6, 5, 4,
			3, 2, 1, 2, 3, 2, 1,
			6, 5, 4, 5, 6, 5, 4,
			3, 2, 1, 2, 3, 2, 1,
		}, []int{4, 7}},
		{"wrap", "wrap", []int64{0, 1, 1, 2}, []float64{
			3, 1, 2, 3, 1, 2,
			6, 4, 5, 6, 4, 5,
			3, 1, 2, 3, 1, 2,
		}, []int{3, 6}},
		{"crop", "constant", []int64{-1, 1, 0, -2}, []float64{9, 4}, []int{1, 2}},
	}
	for _, c := range cases {
		for _, opset := range []int64{2, 11, 18, 19} {
			if c.mode == "wrap" && opset < 19 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", c.name, opset), func(t *testing.T) {
				var nc nodeCase
				ins := []*tensor{x}
				if opset < 11 {
					nc = nodeCase{node: node("Pad", []string{"x"}, aString("mode", c.mode), aInts("pads", c.pads...), aFloat("value", 9)), opset: opset}
				} else {
					nc = nodeCase{node: node("Pad", []string{"x", "p", "v"}, aString("mode", c.mode)), opset: opset}
					ins = append(ins, i64s(c.pads...), mk([]int{}, []float32{9}))
					if opset >= 18 {
						// Same pads through explicit axes in reverse order.
						nc.node.Inputs = append(nc.node.Inputs, "a")
						m := len(c.pads) / 2
						p := make([]int64, len(c.pads))
						for i := 0; i < m; i++ {
							p[i], p[m+i] = c.pads[m-1-i], c.pads[2*m-1-i]
						}
						ins[1] = i64s(p...)
						ins = append(ins, i64s(-1, 0))
					}
				}
				outs, err := runNode(t, nc, ins...)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(c.shape, outs[0].shape); d != "" {
					t.Fatal(d)
				}
				if d := cmp.Diff(c.want, toF64(outs[0])); d != "" {
					t.Fatal(d)
				}
			})
		}
	}
	// Default constant 0, a subset of axes and all element sizes.
	for _, dt := range movTypes {
		x := seqT(dt, []int{2, 2})
		outs, err := runNode(t, nodeCase{node: node("Pad", []string{"x", "p", "", "a"}), opset: 18, outTypes: []payload.DType{dt}}, x, i64s(1, 1), nil, i64s(1))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]float64{0, 1, 2, 0, 0, 3, 4, 0}, toF64(outs[0])); d != "" {
			t.Fatalf("%s: %s", dt, d)
		}
	}
	// Errors.
	_, err := runNode(t, nodeCase{node: node("Pad", []string{"x", "p"}), opset: 13}, x, i64s(0, -4, 0, 0))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Pad", []string{"x", "p"}), opset: 13}, x, i64s(0, 0, 0))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Pad", []string{"x", "p"}, aString("mode", "edge")), opset: 13}, mk([]int{0, 2}, []float32{}), i64s(1, 0, 0, 0))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Pad", []string{"x", "p"}, aString("mode", "mirror")), opset: 13}, x, i64s(0, 0, 0, 0))
	wantKind(t, err, errs.Unsupported)
	_, err = runNode(t, nodeCase{node: node("Pad", []string{"x"}), opset: 2}, x)
	wantKind(t, err, errs.InvalidArtifact)
}

func TestRange(t *testing.T) {
	cases := []struct {
		dt                  payload.DType
		start, limit, delta float64
		want                []float64
	}{
		{payload.Float32, 0, 1, 0.25, []float64{0, 0.25, 0.5, 0.75}},
		{payload.Float32, 3, 1, -0.5, []float64{3, 2.5, 2, 1.5}},
		{payload.Float64, 1, 1, 1, []float64{}},
		{payload.Int32, 1, 10, 3, []float64{1, 4, 7}},
		{payload.Int64, 10, 1, -4, []float64{10, 6, 2}},
		{payload.Int64, 1, 10, -1, []float64{}},
		{payload.Int16, -2, 2, 1, []float64{-2, -1, 0, 1}},
	}
	for _, c := range cases {
		sc := func(v float64) *tensor {
			if c.dt == payload.Int16 {
				return mk([]int{}, []int16{int16(v)})
			}
			return fromF64(c.dt, []int{}, []float64{v})
		}
		outs, err := runNode(t, nodeCase{node: node("Range", []string{"s", "l", "d"}), outTypes: []payload.DType{c.dt}}, sc(c.start), sc(c.limit), sc(c.delta))
		if err != nil {
			t.Fatal(err)
		}
		got := toF64(outs[0])
		if c.dt == payload.Int16 {
			got = got[:0]
			for _, v := range elems[int16](outs[0]) {
				got = append(got, float64(v))
			}
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s %v: %s", c.dt, c, d)
		}
	}
	z := mk([]int{}, []int64{0})
	_, err := runNode(t, nodeCase{node: node("Range", []string{"s", "l", "d"}), outTypes: []payload.DType{payload.Int64}}, z, mk([]int{}, []int64{5}), z)
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Range", []string{"s", "l", "d"}), outTypes: []payload.DType{payload.Int64}},
		mk([]int{}, []int64{-1 << 63}), mk([]int{}, []int64{1<<63 - 1}), mk([]int{}, []int64{1}))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Range", []string{"s", "l", "d"}), outTypes: []payload.DType{payload.Uint8}},
		mk([]int{}, []uint8{0}), mk([]int{}, []uint8{0}), mk([]int{}, []uint8{0}))
	wantKind(t, err, errs.Unsupported)
}

func TestShapeSize(t *testing.T) {
	x := seqT(payload.Float32, []int{2, 3, 4, 5})
	i64 := []payload.DType{payload.Int64}
	for _, c := range []struct {
		attrs []model.Attr
		want  []int64
	}{
		{nil, []int64{2, 3, 4, 5}},
		{[]model.Attr{aInt("start", 1)}, []int64{3, 4, 5}},
		{[]model.Attr{aInt("start", -2)}, []int64{4, 5}},
		{[]model.Attr{aInt("end", -1)}, []int64{2, 3, 4}},
		{[]model.Attr{aInt("start", 1), aInt("end", 2)}, []int64{3}},
		{[]model.Attr{aInt("start", -10), aInt("end", 10)}, []int64{2, 3, 4, 5}},
		{[]model.Attr{aInt("start", 3), aInt("end", 1)}, []int64{}},
	} {
		outs, err := runNode(t, nodeCase{node: node("Shape", []string{"x"}, c.attrs...), opset: 15, outTypes: i64}, x)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, outs[0].i64(), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%v: %s", c.attrs, d)
		}
	}
	outs, err := runNode(t, nodeCase{node: node("Size", []string{"x"}), outTypes: i64}, x)
	if err != nil {
		t.Fatal(err)
	}
	if outs[0].i64()[0] != 120 || len(outs[0].shape) != 0 {
		t.Fatalf("Size: %v %v", outs[0].shape, outs[0].i64())
	}
}

func TestConstantOps(t *testing.T) {
	cases := []struct {
		attr  model.Attr
		dt    payload.DType
		shape []int
		want  []float64
	}{
		{model.Attr{Name: "value", Type: model.AttrTensor, T: model.NewTensor("v", []int{2}, []int32{7, -1})}, payload.Int32, []int{2}, []float64{7, -1}},
		{aFloat("value_float", 2.5), payload.Float32, []int{}, []float64{2.5}},
		{model.Attr{Name: "value_floats", Type: model.AttrFloats, Floats: []float32{1, 2}}, payload.Float32, []int{2}, []float64{1, 2}},
		{aInt("value_int", 5), payload.Int64, []int{}, []float64{5}},
		{aInts("value_ints", 1, 2, 3), payload.Int64, []int{3}, []float64{1, 2, 3}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("Constant", nil, c.attr), opset: 13, outTypes: []payload.DType{c.dt}})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.shape, outs[0].shape, cmpopts.EquateEmpty()); d != "" {
			t.Fatal(d)
		}
		if d := cmp.Diff(c.want, toF64(outs[0])); d != "" {
			t.Errorf("%s: %s", c.attr.Name, d)
		}
	}
	_, err := runNode(t, nodeCase{node: node("Constant", nil, aString("value_string", "x"))})
	wantKind(t, err, errs.Unsupported)
	_, err = runNode(t, nodeCase{node: node("Constant", nil)})
	wantKind(t, err, errs.InvalidArtifact)

	// ConstantOfShape.
	outs, err := runNode(t, nodeCase{node: node("ConstantOfShape", []string{"s"})}, i64s(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float64{0, 0, 0, 0, 0, 0}, toF64(outs[0])); d != "" {
		t.Fatal(d)
	}
	v := model.Attr{Name: "value", Type: model.AttrTensor, T: model.NewTensor("v", []int{1}, []int64{-3})}
	outs, err = runNode(t, nodeCase{node: node("ConstantOfShape", []string{"s"}, v), outTypes: []payload.DType{payload.Int64}}, i64s(3))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int64{-3, -3, -3}, outs[0].i64()); d != "" {
		t.Fatal(d)
	}
	outs, err = runNode(t, nodeCase{node: node("ConstantOfShape", []string{"s"})}, i64s())
	if err != nil || len(outs[0].shape) != 0 || len(outs[0].data) != 4 {
		t.Fatalf("scalar: %v %v", err, outs)
	}
	_, err = runNode(t, nodeCase{node: node("ConstantOfShape", []string{"s"})}, i64s(2, -1))
	wantKind(t, err, errs.ShapeMismatch)
}

func TestDepthSpace(t *testing.T) {
	// 1x8x1x2 input, blocksize 2.
	x := seqT(payload.Float32, []int{1, 8, 1, 2})
	// DCR: y[c2, h*2+i, w*2+j] = x[(i*2+j)*2+c2, h, w].
	dcr := []float64{1, 5, 2, 6, 9, 13, 10, 14, 3, 7, 4, 8, 11, 15, 12, 16}
	// CRD: y[c2, h*2+i, w*2+j] = x[c2*4+i*2+j, h, w].
	crd := []float64{1, 3, 2, 4, 5, 7, 6, 8, 9, 11, 10, 12, 13, 15, 14, 16}
	for _, c := range []struct {
		mode string
		want []float64
	}{{"DCR", dcr}, {"CRD", crd}} {
		outs, err := runNode(t, nodeCase{node: node("DepthToSpace", []string{"x"}, aInt("blocksize", 2), aString("mode", c.mode))}, x)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]int{1, 2, 2, 4}, outs[0].shape); d != "" {
			t.Fatal(d)
		}
		if d := cmp.Diff(c.want, toF64(outs[0])); d != "" {
			t.Errorf("%s: %s", c.mode, d)
		}
	}
	// SpaceToDepth inverts DepthToSpace DCR.
	for _, dt := range movTypes {
		x := seqT(dt, []int{2, 3, 4, 6})
		outs, err := runNode(t, nodeCase{node: node("SpaceToDepth", []string{"x"}, aInt("blocksize", 2)), outTypes: []payload.DType{dt}}, x)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]int{2, 12, 2, 3}, outs[0].shape); d != "" {
			t.Fatal(d)
		}
		back, err := runNode(t, nodeCase{node: node("DepthToSpace", []string{"x"}, aInt("blocksize", 2)), outTypes: []payload.DType{dt}}, outs[0])
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(toF64(x), toF64(back[0])); d != "" {
			t.Fatalf("%s: %s", dt, d)
		}
	}
	_, err := runNode(t, nodeCase{node: node("DepthToSpace", []string{"x"}, aInt("blocksize", 3))}, x)
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("SpaceToDepth", []string{"x"}, aInt("blocksize", 0))}, x)
	wantKind(t, err, errs.InvalidArtifact)
}

func TestTriluNonZero(t *testing.T) {
	x := seqT(payload.Float32, []int{3, 4})
	for _, c := range []struct {
		upper int64
		k     int64
		want  []float64
	}{
		{1, 0, []float64{1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12}},
		{1, 1, []float64{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}},
		{0, 0, []float64{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}},
		{0, -1, []float64{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}},
		{1, -5, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
	} {
		outs, err := runNode(t, nodeCase{node: node("Trilu", []string{"x", "k"}, aInt("upper", c.upper)), opset: 14}, x, mk([]int{}, []int64{c.k}))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, toF64(outs[0])); d != "" {
			t.Errorf("upper %d k %d: %s", c.upper, c.k, d)
		}
	}
	nz := mk([]int{2, 3}, []float32{0, 1, float32(negZero()), 2, 0, 3})
	outs, err := runNode(t, nodeCase{node: node("NonZero", []string{"x"}), outTypes: []payload.DType{payload.Int64}}, nz)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{2, 3}, outs[0].shape); d != "" {
		t.Fatal(d)
	}
	if d := cmp.Diff([]int64{0, 1, 1, 1, 0, 2}, outs[0].i64()); d != "" {
		t.Fatal(d)
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}
