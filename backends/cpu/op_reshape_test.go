package cpu

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// movTypes are one element type of each size the copy loops handle.
var movTypes = []payload.DType{payload.Uint8, payload.Int16, payload.Float32, payload.Int64}

// seqT returns a tensor of type dt and the given shape holding
// 1, 2, 3, ... (modulo 100).
func seqT(dt payload.DType, shape []int) *tensor {
	n := payload.NumElems(shape)
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i%100 + 1)
	}
	return fromF64(dt, shape, v)
}

// fromF64 returns a tensor of type dt holding v.
func fromF64(dt payload.DType, shape []int, v []float64) *tensor {
	switch dt {
	case payload.Uint8:
		return mk(shape, conv[uint8](v))
	case payload.Int16:
		return mk(shape, conv[int16](v))
	case payload.Int32:
		return mk(shape, conv[int32](v))
	case payload.Int64:
		return mk(shape, conv[int64](v))
	case payload.Float64:
		return mk(shape, conv[float64](v))
	}
	return mk(shape, conv[float32](v))
}

func conv[E uint8 | int16 | int32 | int64 | float32 | float64](v []float64) []E {
	o := make([]E, len(v))
	for i, x := range v {
		o[i] = E(x)
	}
	return o
}

// toF64 returns t's values as float64.
func toF64(t *tensor) []float64 {
	n := t.numel()
	o := make([]float64, n)
	for i := range o {
		switch t.dt {
		case payload.Uint8:
			o[i] = float64(t.data[i])
		case payload.Int16:
			o[i] = float64(elems[int16](t)[i])
		case payload.Int32:
			o[i] = float64(t.i32()[i])
		case payload.Int64:
			o[i] = float64(t.i64()[i])
		case payload.Float64:
			o[i] = t.f64()[i]
		default:
			o[i] = float64(t.f32()[i])
		}
	}
	return o
}

// i64s is shorthand for a 1-D int64 tensor.
func i64s(v ...int64) *tensor { return mk([]int{len(v)}, v) }

// wantKind fails unless err wraps kind.
func wantKind(t *testing.T, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("got error %v, want %v", err, kind)
	}
}

func TestReshape(t *testing.T) {
	x := seqT(payload.Float32, []int{2, 3, 4})
	cases := []struct {
		name      string
		shape     []int64
		allowzero int64
		want      []int
		err       error
	}{
		{"plain", []int64{4, 6}, 0, []int{4, 6}, nil},
		{"infer", []int64{-1, 4}, 0, []int{6, 4}, nil},
		{"copy zero", []int64{0, -1}, 0, []int{2, 12}, nil},
		{"copy two", []int64{0, 0, 4}, 0, []int{2, 3, 4}, nil},
		{"flat", []int64{-1}, 0, []int{24}, nil},
		{"allowzero mismatch", []int64{0, 24}, 1, nil, errs.ShapeMismatch},
		{"two -1", []int64{-1, -1}, 0, nil, errs.ShapeMismatch},
		{"bad count", []int64{5, 5}, 0, nil, errs.ShapeMismatch},
		{"negative", []int64{-2, 12}, 0, nil, errs.ShapeMismatch},
		{"indivisible", []int64{-1, 5}, 0, nil, errs.ShapeMismatch},
		{"copy past rank", []int64{1, 1, 1, 0}, 0, nil, errs.ShapeMismatch},
		{"huge", []int64{1 << 62, 1 << 62}, 0, nil, errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outs, err := runNode(t, nodeCase{node: node("Reshape", []string{"x", "s"}, aInt("allowzero", c.allowzero)), opset: 14}, x, i64s(c.shape...))
			if c.err != nil {
				wantKind(t, err, c.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, outs[0].shape); d != "" {
				t.Fatal(d)
			}
			if d := cmp.Diff(toF64(x), toF64(outs[0])); d != "" {
				t.Fatal(d)
			}
		})
	}
	// allowzero with an empty input.
	z := mk([]int{0, 3}, []float32{})
	outs, err := runNode(t, nodeCase{node: node("Reshape", []string{"x", "s"}, aInt("allowzero", 1)), opset: 14}, z, i64s(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{3, 0}, outs[0].shape); d != "" {
		t.Fatal(d)
	}
	// A non-int64 shape input is refused at build.
	_, err = runNode(t, nodeCase{node: node("Reshape", []string{"x", "s"})}, x, mk([]int{1}, []int32{24}))
	wantKind(t, err, errs.Unsupported)
}

func TestFlatten(t *testing.T) {
	x := seqT(payload.Float32, []int{2, 3, 4})
	for _, c := range []struct {
		axis int64
		want []int
		err  error
	}{
		{0, []int{1, 24}, nil},
		{1, []int{2, 12}, nil},
		{2, []int{6, 4}, nil},
		{3, []int{24, 1}, nil},
		{-1, []int{6, 4}, nil},
		{-3, []int{1, 24}, nil},
		{4, nil, errs.ShapeMismatch},
		{-4, nil, errs.ShapeMismatch},
	} {
		outs, err := runNode(t, nodeCase{node: node("Flatten", []string{"x"}, aInt("axis", c.axis))}, x)
		if c.err != nil {
			wantKind(t, err, c.err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, outs[0].shape); d != "" {
			t.Errorf("axis %d: %s", c.axis, d)
		}
	}
}

func TestSqueezeUnsqueeze(t *testing.T) {
	x := seqT(payload.Float32, []int{1, 3, 1, 2})
	cases := []struct {
		name  string
		op    string
		opset int64
		axes  []int64 // nil: none
		in    []int
		want  []int
		err   error
	}{
		{"squeeze all", "Squeeze", 13, nil, []int{1, 3, 1, 2}, []int{3, 2}, nil},
		{"squeeze attr", "Squeeze", 11, []int64{0}, []int{1, 3, 1, 2}, []int{3, 1, 2}, nil},
		{"squeeze input", "Squeeze", 13, []int64{-2}, []int{1, 3, 1, 2}, []int{1, 3, 2}, nil},
		{"squeeze all attr form", "Squeeze", 11, nil, []int{1, 3, 1, 2}, []int{3, 2}, nil},
		{"squeeze non-unit", "Squeeze", 13, []int64{1}, []int{1, 3, 1, 2}, nil, errs.ShapeMismatch},
		{"squeeze out of range", "Squeeze", 13, []int64{4}, []int{1, 3, 1, 2}, nil, errs.ShapeMismatch},
		{"squeeze repeated", "Squeeze", 13, []int64{0, -4}, []int{1, 3, 1, 2}, nil, errs.ShapeMismatch},
		{"unsqueeze attr", "Unsqueeze", 11, []int64{0, 3}, []int{3, 2}, []int{1, 3, 2, 1}, nil},
		{"unsqueeze input", "Unsqueeze", 13, []int64{1, -1}, []int{3, 2}, []int{3, 1, 2, 1}, nil},
		{"unsqueeze scalar", "Unsqueeze", 13, []int64{0}, []int{}, []int{1}, nil},
		{"unsqueeze out of range", "Unsqueeze", 13, []int64{3}, []int{3}, nil, errs.ShapeMismatch},
		{"unsqueeze repeated", "Unsqueeze", 13, []int64{0, 0}, []int{3}, nil, errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := mk(c.in, toF32(toF64(x)[:payload.NumElems(c.in)]))
			var nc nodeCase
			ins := []*tensor{in}
			if c.opset < 13 {
				var attrs []model.Attr
				if c.axes != nil {
					attrs = append(attrs, aInts("axes", c.axes...))
				}
				nc = nodeCase{node: node(c.op, []string{"x"}, attrs...), opset: c.opset}
			} else if c.axes != nil {
				nc = nodeCase{node: node(c.op, []string{"x", "axes"}), opset: c.opset}
				ins = append(ins, i64s(c.axes...))
			} else {
				nc = nodeCase{node: node(c.op, []string{"x"}), opset: c.opset}
			}
			outs, err := runNode(t, nc, ins...)
			if c.err != nil {
				wantKind(t, err, c.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, outs[0].shape); d != "" {
				t.Fatal(d)
			}
			if d := cmp.Diff(toF64(in), toF64(outs[0])); d != "" {
				t.Fatal(d)
			}
		})
	}
	// Unsqueeze without axes is refused at build.
	_, err := runNode(t, nodeCase{node: node("Unsqueeze", []string{"x"}), opset: 11}, x)
	wantKind(t, err, errs.InvalidArtifact)
	_, err = runNode(t, nodeCase{node: node("Unsqueeze", []string{"x"}), opset: 13}, x)
	wantKind(t, err, errs.InvalidArtifact)
}

func toF32(v []float64) []float32 { return conv[float32](v) }

func TestViewOpsAlias(t *testing.T) {
	for _, op := range []string{"Reshape", "Flatten", "Squeeze", "Unsqueeze"} {
		n := node(op, []string{"x", "a"}, aInts("axes", 0))
		bc := &buildCtx{n: n, opset: 13, g: model.NewGraph()}
		bc.in = []model.ValueInfo{{DType: payload.Float32}, {DType: payload.Int64}}
		bc.out = []model.ValueInfo{{DType: payload.Float32}}
		k, err := registry[op](bc)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if _, ok := k.(aliaser); !ok {
			t.Errorf("%s does not implement aliaser", op)
		}
	}
}

func TestShapeOpsRegistered(t *testing.T) {
	for _, op := range []string{
		"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split",
		"Slice", "Gather", "GatherElements", "Tile", "Range", "ConstantOfShape", "Shape",
		"Size", "Constant", "DepthToSpace", "SpaceToDepth", "Trilu", "NonZero", "Pad",
		"Resize", "Upsample",
	} {
		if _, ok := registry[op]; !ok {
			t.Errorf("%s is not registered", op)
		}
	}
}
