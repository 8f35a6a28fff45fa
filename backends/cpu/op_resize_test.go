package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func scalesT(v ...float32) *tensor { return mk([]int{len(v)}, v) }

// nearlyEqual fails unless got matches want within tol.
func nearlyEqual(t *testing.T, name string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > tol {
			t.Fatalf("%s: element %d = %v, want %v", name, i, got[i], want[i])
		}
	}
}

func TestResize(t *testing.T) {
	x22 := mk([]int{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	x24 := mk([]int{1, 1, 2, 4}, []float32{1, 2, 3, 4, 5, 6, 7, 8})
	x44 := seqT(payload.Float32, []int{1, 1, 4, 4})
	none := (*tensor)(nil)
	cases := []struct {
		name  string
		opset int64
		attrs []model.Attr
		ins   []*tensor // x, roi, scales, sizes
		shape []int
		want  []float64
		first int // compare only the first values when > 0
	}{
		{"linear half_pixel", 13, []model.Attr{aString("mode", "linear")}, []*tensor{x22, none, scalesT(1, 1, 2, 2)}, []int{1, 1, 4, 4}, []float64{
			1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}, 0},
		{"linear align_corners", 13, []model.Attr{aString("mode", "linear"), aString("coordinate_transformation_mode", "align_corners")}, []*tensor{x22, none, scalesT(1, 1, 2, 2)}, []int{1, 1, 4, 4}, []float64{
			1, 4.0 / 3, 5.0 / 3, 2, 5.0 / 3, 2, 7.0 / 3, 8.0 / 3, 7.0 / 3, 8.0 / 3, 3, 10.0 / 3, 3, 10.0 / 3, 11.0 / 3, 4}, 0},
		{"linear down", 13, []model.Attr{aString("mode", "linear")}, []*tensor{x24, none, scalesT(1, 1, 0.6, 0.6)}, []int{1, 1, 1, 2}, []float64{2.6666665, 4.3333331}, 0},
		// ONNX's reference: align_corners given scales divides by 4*0.6-1,
		// not by the floored output length less one.
		{"linear align_corners down", 13, []model.Attr{aString("mode", "linear"), aString("coordinate_transformation_mode", "align_corners")}, []*tensor{x24, none, scalesT(1, 1, 0.6, 0.6)}, []int{1, 1, 1, 2}, []float64{1, 3.142857}, 0},
		{"linear align_corners sizes", 13, []model.Attr{aString("mode", "linear"), aString("coordinate_transformation_mode", "align_corners")}, []*tensor{x24, none, none, i64s(1, 1, 1, 2)}, []int{1, 1, 1, 2}, []float64{1, 4}, 0},
		{"nearest sizes", 13, nil, []*tensor{x22, none, none, i64s(1, 1, 7, 8)}, []int{1, 1, 7, 8}, []float64{
			1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2,
			3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}, 0},
		{"nearest down", 13, nil, []*tensor{x24, none, scalesT(1, 1, 0.6, 0.6)}, []int{1, 1, 1, 2}, []float64{1, 3}, 0},
		{"nearest empty scales", 11, nil, []*tensor{x22, scalesT(), scalesT(), i64s(1, 1, 1, 3)}, []int{1, 1, 1, 3}, []float64{1, 1, 2}, 0},
		{"nearest ceil asymmetric", 13, []model.Attr{aString("nearest_mode", "ceil"), aString("coordinate_transformation_mode", "asymmetric")}, []*tensor{x22, none, scalesT(1, 1, 1, 3)}, []int{1, 1, 2, 6}, []float64{
			1, 2, 2, 2, 2, 2, 3, 4, 4, 4, 4, 4}, 0},
		{"nearest floor", 13, []model.Attr{aString("nearest_mode", "floor"), aString("coordinate_transformation_mode", "asymmetric")}, []*tensor{x22, none, scalesT(1, 1, 1, 3)}, []int{1, 1, 2, 6}, []float64{
			1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}, 0},
		{"resize-10 nearest", 10, nil, []*tensor{x22, scalesT(1, 1, 2, 3)}, []int{1, 1, 4, 6}, []float64{
			1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}, 0},
		{"cubic", 13, []model.Attr{aString("mode", "cubic")}, []*tensor{x44, none, scalesT(1, 1, 2, 2)}, []int{1, 1, 8, 8}, []float64{
			0.47265625, 0.76953125, 1.24609375, 1.875, 2.28125, 2.91015625, 3.38671875, 3.68359375}, 8},
		{"cubic exclude_outside", 13, []model.Attr{aString("mode", "cubic"), aInt("exclude_outside", 1), aFloat("cubic_coeff_a", -0.5)}, []*tensor{x44, none, scalesT(1, 1, 2, 2)}, []int{1, 1, 8, 8}, []float64{
			0.55882353, 0.81494204, 1.35698249, 1.89705882, 2.39705882, 2.93713516, 3.47917561, 3.73529412}, 8},
		{"tf_crop_and_resize", 13, []model.Attr{aString("mode", "linear"), aString("coordinate_transformation_mode", "tf_crop_and_resize")},
			[]*tensor{x44, scalesT(0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8), none, i64s(1, 1, 3, 3)}, []int{1, 1, 3, 3}, []float64{
				7.6, 7.9, 8.2, 8.8, 9.1, 9.4, 10, 10.3, 10.6}, 0},
		{"tf_crop extrapolate", 13, []model.Attr{aString("mode", "linear"), aString("coordinate_transformation_mode", "tf_crop_and_resize"), aFloat("extrapolation_value", 10)},
			[]*tensor{x44, scalesT(0, 0, 0.4, 0.6, 1, 1, 1.2, 1.7), none, i64s(1, 1, 3, 3)}, []int{1, 1, 3, 3}, []float64{
				7.6, 10, 10, 12.4, 10, 10, 10, 10, 10}, 0},
		{"axes", 18, []model.Attr{aString("mode", "linear"), aInts("axes", 3, 2)}, []*tensor{x22, none, scalesT(2, 2)}, []int{1, 1, 4, 4}, []float64{
			1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}, 0},
		{"not_larger", 18, []model.Attr{aInts("axes", 2, 3), aString("keep_aspect_ratio_policy", "not_larger")}, []*tensor{x22, none, none, i64s(7, 8)}, []int{1, 1, 7, 7}, nil, 0},
		{"not_smaller", 18, []model.Attr{aInts("axes", 2, 3), aString("keep_aspect_ratio_policy", "not_smaller")}, []*tensor{x22, none, none, i64s(7, 8)}, []int{1, 1, 8, 8}, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"x", "roi", "scales", "sizes"}[:len(c.ins)]
			for i := range names {
				if c.ins[i] == nil {
					names[i] = ""
				}
			}
			outs, err := runNode(t, nodeCase{node: node("Resize", names, c.attrs...), opset: c.opset}, c.ins...)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.shape, outs[0].shape); d != "" {
				t.Fatal(d)
			}
			got := outs[0].f32()
			if c.first > 0 {
				got = got[:c.first]
			}
			if c.want != nil {
				nearlyEqual(t, c.name, got, c.want, 2e-5)
			}
		})
	}
}

func TestResizeTypesAndUpsample(t *testing.T) {
	// Nearest on every element size.
	for _, dt := range movTypes {
		x := seqT(dt, []int{1, 2, 2})
		outs, err := runNode(t, nodeCase{node: node("Resize", []string{"x", "", "s"}), opset: 13, outTypes: []payload.DType{dt}}, x, nil, scalesT(1, 2, 1))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]float64{1, 2, 1, 2, 3, 4, 3, 4}, toF64(outs[0])); d != "" {
			t.Fatalf("%s: %s", dt, d)
		}
	}
	x := mk([]int{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	want := []float64{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}
	outs, err := runNode(t, nodeCase{node: node("Upsample", []string{"x", "s"}), opset: 9}, x, scalesT(1, 1, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, toF64(outs[0])); d != "" {
		t.Fatal(d)
	}
	attr := model.Attr{Name: "scales", Type: model.AttrFloats, Floats: []float32{1, 1, 2, 3}}
	outs, err = runNode(t, nodeCase{node: node("Upsample", []string{"x"}, attr), opset: 7}, x)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, toF64(outs[0])); d != "" {
		t.Fatal(d)
	}
	// Upsample linear (asymmetric).
	outs, err = runNode(t, nodeCase{node: node("Upsample", []string{"x", "s"}, aString("mode", "linear")), opset: 9}, x, scalesT(1, 1, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	nearlyEqual(t, "upsample linear", outs[0].f32(), []float64{1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4}, 1e-6)

	// Errors.
	_, err = runNode(t, nodeCase{node: node("Resize", []string{"x", "", "s"}, aString("mode", "linear")), opset: 13, outTypes: []payload.DType{payload.Int64}}, i64s(1, 2), nil, scalesT(2))
	wantKind(t, err, errs.Unsupported)
	_, err = runNode(t, nodeCase{node: node("Resize", []string{"x", "", "s", "z"}), opset: 13}, x, nil, scalesT(1, 1, 2, 2), i64s(1, 1, 4, 4))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Resize", []string{"x", "", "s"}), opset: 13}, x, nil, scalesT(1, 2))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Resize", []string{"x", "", "s"}), opset: 13}, x, nil, scalesT(1, 1, -2, 2))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Upsample", []string{"x", "s"}), opset: 9}, x, scalesT(1, 1, 0.5, 1))
	wantKind(t, err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Resize", []string{"x", "", "s"}, aString("coordinate_transformation_mode", "bogus")), opset: 13}, x, nil, scalesT(1, 1, 2, 2))
	wantKind(t, err, errs.Unsupported)
}

// TestResizeBilinearOrder checks that a linear Resize of the last two
// dims gives ONNX Runtime's bits: dx2·dy2·x11 + dx1·dy2·x21 + dx2·dy1·x12
// + dx1·dy1·x22, each weight product rounded, summed left to right. The
// taps are computed here as ONNX Runtime does (half_pixel, sizes given).
func TestResizeBilinearOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	cases := []struct{ in, out []int }{
		{[]int{1, 3, 7, 9}, []int{1, 3, 14, 18}},
		{[]int{2, 2, 9, 7}, []int{2, 2, 4, 5}},
		{[]int{5, 6}, []int{10, 3}},
		{[]int{1, 1, 1, 4}, []int{1, 1, 3, 8}},
	}
	taps := func(nin, nout int) (i1, i2 []int, d1, d2 []float32) {
		s := float32(nout) / float32(nin)
		for o := range nout {
			c := (float32(o)+0.5)/s - 0.5
			c = max(0, min(c, float32(nin-1)))
			x1 := min(int(c), nin-1)
			x2 := min(x1+1, nin-1)
			a, b := float32(math.Abs(float64(c-float32(x1)))), float32(math.Abs(float64(c-float32(x2))))
			if x1 == x2 {
				a, b = 0.5, 0.5
			}
			i1, i2, d1, d2 = append(i1, x1), append(i2, x2), append(d1, a), append(d2, b)
		}
		return
	}
	for _, c := range cases {
		x := randT(r, 3, c.in...)
		sizes := make([]int64, len(c.out))
		for i, v := range c.out {
			sizes[i] = int64(v)
		}
		outs, err := runNode(t, nodeCase{node: node("Resize", []string{"x", "", "", "sizes"}, aString("mode", "linear")), opset: 13}, x, nil, nil, i64s(sizes...))
		if err != nil {
			t.Fatal(err)
		}
		rk := len(c.in)
		hin, win, hout, wout := c.in[rk-2], c.in[rk-1], c.out[rk-2], c.out[rk-1]
		y1, y2, dy1, dy2 := taps(hin, hout)
		x1, x2, dx1, dx2 := taps(win, wout)
		xs, got := x.f32(), outs[0].f32()
		for p := range len(got) / (hout * wout) {
			s := xs[p*hin*win:]
			for y := range hout {
				for i := range wout {
					a, b := s[y1[y]*win+x1[i]], s[y1[y]*win+x2[i]]
					cc, d := s[y2[y]*win+x1[i]], s[y2[y]*win+x2[i]]
					want := float32(float32(dx2[i]*dy2[y])*a) + float32(float32(dx1[i]*dy2[y])*b) +
						float32(float32(dx2[i]*dy1[y])*cc) + float32(float32(dx1[i]*dy1[y])*d)
					if g := got[(p*hout+y)*wout+i]; math.Float32bits(g) != math.Float32bits(want) {
						t.Fatalf("%v -> %v: plane %d (%d, %d) = %v, want %v", c.in, c.out, p, y, i, g, want)
					}
				}
			}
		}
	}
}
