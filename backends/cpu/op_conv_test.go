package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestConvHandComputed(t *testing.T) {
	// ONNX's conv_with_padding example: 5×5 ramp, 3×3 ones, pads 1.
	x := make([]float32, 25)
	for i := range x {
		x[i] = float32(i)
	}
	w := []float32{1, 1, 1, 1, 1, 1, 1, 1, 1}
	outs, err := runNode(t, nodeCase{node: node("Conv", []string{"x", "w"}, aInts("kernel_shape", 3, 3), aInts("pads", 1, 1, 1, 1)), consts: []int{1}},
		mk([]int{1, 1, 5, 5}, x), mk([]int{1, 1, 3, 3}, w))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108, 117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84}
	nnShape(t, "padded", outs[0].shape, []int{1, 1, 5, 5})
	nnClose(t, "padded", outs[0].f32(), want, 0)
}

type convCase struct {
	xs, ws   []int
	group    int
	strides  []int64
	dils     []int64
	pads     []int64
	autoPad  string
	bias     bool
	kernAttr bool
	constW   bool
}

func (c convCase) String() string {
	return fmt.Sprintf("x%v_w%v_g%d_s%v_d%v_p%v_%s_b%t", c.xs, c.ws, c.group, c.strides, c.dils, c.pads, c.autoPad, c.bias)
}

func convCases() []convCase {
	return []convCase{
		{xs: []int{1, 1, 7}, ws: []int{1, 1, 3}},
		// Leading pads wider than the output: some taps touch no input.
		{xs: []int{1, 1, 1}, ws: []int{1, 1, 3}, pads: []int64{2, 0}},
		{xs: []int{1, 2, 1, 1}, ws: []int{2, 1, 3, 3}, group: 2, pads: []int64{2, 2, 0, 0}, bias: true},
		{xs: []int{2, 3, 17}, ws: []int{4, 3, 5}, strides: []int64{2}, pads: []int64{1, 3}, bias: true},
		{xs: []int{1, 4, 20}, ws: []int{6, 2, 3}, group: 2, dils: []int64{3}, autoPad: "SAME_UPPER"},
		{xs: []int{1, 3, 9}, ws: []int{3, 1, 4}, group: 3, strides: []int64{2}, autoPad: "SAME_LOWER", bias: true},
		{xs: []int{1, 3, 41}, ws: []int{3, 1, 3}, group: 3, strides: []int64{2}, pads: []int64{1, 1}, bias: true},
		{xs: []int{1, 3, 9}, ws: []int{2, 3, 1}},
		{xs: []int{1, 3, 8, 8}, ws: []int{5, 3, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, constW: true, kernAttr: true},
		{xs: []int{2, 3, 7, 9}, ws: []int{4, 3, 3, 2}, strides: []int64{2, 3}, pads: []int64{0, 1, 2, 0}},
		{xs: []int{1, 2, 9, 7}, ws: []int{3, 2, 3, 3}, dils: []int64{2, 3}, pads: []int64{2, 1, 0, 3}, bias: true},
		{xs: []int{1, 4, 6, 6}, ws: []int{8, 1, 3, 3}, group: 4, pads: []int64{1, 1, 1, 1}, bias: true},
		{xs: []int{2, 5, 10, 11}, ws: []int{5, 1, 3, 3}, group: 5, strides: []int64{2, 2}, pads: []int64{1, 0, 1, 2}, bias: true, constW: true},
		{xs: []int{1, 3, 7, 7}, ws: []int{3, 1, 5, 3}, group: 3, dils: []int64{2, 1}, autoPad: "SAME_UPPER"},
		{xs: []int{1, 3, 12, 45}, ws: []int{3, 1, 5, 5}, group: 3, strides: []int64{2, 1}, pads: []int64{2, 2, 2, 2}, bias: true, constW: true},
		{xs: []int{1, 2, 9, 50}, ws: []int{2, 1, 3, 4}, group: 2, strides: []int64{1, 3}, dils: []int64{1, 2}, pads: []int64{0, 3, 1, 1}, bias: true},
		{xs: []int{2, 3, 5, 37}, ws: []int{3, 1, 1, 3}, group: 3, strides: []int64{2, 2}, pads: []int64{0, 1, 0, 2}},
		{xs: []int{1, 6, 6, 7}, ws: []int{4, 3, 2, 3}, group: 2, strides: []int64{2, 1}, autoPad: "SAME_LOWER", bias: true},
		{xs: []int{1, 2, 9, 9}, ws: []int{3, 2, 3, 3}, strides: []int64{3, 2}, autoPad: "VALID"},
		{xs: []int{1, 3, 10, 32}, ws: []int{5, 3, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, constW: true},
		{xs: []int{2, 2, 7, 33}, ws: []int{4, 2, 3, 2}, strides: []int64{1, 2}, pads: []int64{1, 0, 1, 0}, bias: true},
		{xs: []int{1, 40, 4, 16}, ws: []int{3, 40, 3, 3}, pads: []int64{0, 1, 2, 1}},
		{xs: []int{3, 16, 5, 4}, ws: []int{17, 16, 1, 1}, bias: true},
		{xs: []int{1, 8, 5, 5}, ws: []int{3, 8, 1, 1}, strides: []int64{2, 2}},
		// Strided 1×1 windows run on the image subsampled.
		{xs: []int{2, 8, 9, 12}, ws: []int{8, 2, 1, 1}, group: 4, strides: []int64{2, 2}, bias: true, constW: true},
		{xs: []int{1, 6, 7, 11}, ws: []int{5, 6, 1, 1}, strides: []int64{3, 1}, bias: true},
		{xs: []int{1, 4, 8, 20}, ws: []int{4, 4, 1, 1}, strides: []int64{1, 3}, constW: true},
		{xs: []int{2, 3, 6, 2}, ws: []int{3, 3, 1, 1}, strides: []int64{2, 2}},
		{xs: []int{1, 2, 5, 6, 7}, ws: []int{3, 2, 1, 1, 1}, strides: []int64{2, 1, 2}, bias: true},
		{xs: []int{1, 4, 33}, ws: []int{40, 4, 1}, strides: []int64{2}, bias: true, constW: true},
		{xs: []int{1, 2, 4, 5, 6}, ws: []int{3, 2, 2, 3, 3}, pads: []int64{1, 0, 1, 0, 1, 1}, strides: []int64{1, 2, 1}, bias: true},
		{xs: []int{1, 4, 5, 5, 5}, ws: []int{4, 1, 3, 3, 3}, group: 4, autoPad: "SAME_UPPER"},
		// Depthwise tiles: blocks of eight channels and a partial one,
		// rows of eight and more (blocks overlapping at the end) and of
		// fewer, strides, dilations and uneven pads.
		{xs: []int{2, 20, 11, 13}, ws: []int{20, 1, 3, 3}, group: 20, strides: []int64{2, 1}, pads: []int64{1, 2, 0, 1}, bias: true, constW: true},
		{xs: []int{1, 16, 14, 14}, ws: []int{16, 1, 5, 5}, group: 16, strides: []int64{2, 2}, dils: []int64{2, 2}, pads: []int64{4, 4, 4, 4}, bias: true},
		{xs: []int{1, 9, 7, 20}, ws: []int{9, 1, 3, 7}, group: 9, strides: []int64{1, 3}, pads: []int64{1, 3, 1, 3}},
		{xs: []int{1, 8, 6, 6}, ws: []int{8, 1, 1, 1}, group: 8, strides: []int64{2, 2}, bias: true},
	}
}

func TestConvAgainstReference(t *testing.T) {
	r := nnRng(1)
	for _, c := range convCases() {
		for _, dt := range []payload.DType{payload.Float32, payload.Float64} {
			t.Run(c.String()+"_"+dt.String(), func(t *testing.T) {
				group := max(c.group, 1)
				nd := len(c.xs) - 2
				attrs := []model.Attr{aInt("group", int64(group))}
				if c.strides != nil {
					attrs = append(attrs, aInts("strides", c.strides...))
				}
				if c.dils != nil {
					attrs = append(attrs, aInts("dilations", c.dils...))
				}
				if c.pads != nil {
					attrs = append(attrs, aInts("pads", c.pads...))
				}
				if c.autoPad != "" {
					attrs = append(attrs, aString("auto_pad", c.autoPad))
				}
				if c.kernAttr {
					ks := make([]int64, nd)
					for i := range ks {
						ks[i] = int64(c.ws[i+2])
					}
					attrs = append(attrs, aInts("kernel_shape", ks...))
				}
				x, w := nnRand(r, nnProd(c.xs)), nnRand(r, nnProd(c.ws))
				var b []float32
				inputs := []string{"x", "w"}
				if c.bias {
					b = nnRand(r, c.ws[0])
					inputs = append(inputs, "b")
				}
				s, d, pb, os := make([]int, nd), make([]int, nd), make([]int, nd), make([]int, nd)
				for i := range nd {
					s[i], d[i] = 1, 1
					if c.strides != nil {
						s[i] = int(c.strides[i])
					}
					if c.dils != nil {
						d[i] = int(c.dils[i])
					}
					p0, p1 := 0, 0
					if c.pads != nil {
						p0, p1 = int(c.pads[i]), int(c.pads[i+nd])
					}
					os[i], pb[i], _ = refWindow(c.autoPad, c.xs[i+2], c.ws[i+2], s[i], d[i], p0, p1, false, false)
				}
				want := refConv(x, c.xs, w, c.ws, b, group, s, d, pb, os)
				nc := nodeCase{node: node("Conv", inputs, attrs...), outTypes: []payload.DType{dt}}
				if c.constW {
					nc.consts = []int{1}
				}
				ins := []*tensor{nnTensor(dt, c.xs, x), nnTensor(dt, c.ws, w)}
				if c.bias {
					ins = append(ins, nnTensor(dt, []int{len(b)}, b))
				}
				outs, err := runNode(t, nc, ins...)
				if err != nil {
					t.Fatal(err)
				}
				nnShape(t, "conv", outs[0].shape, append([]int{c.xs[0], c.ws[0]}, os...))
				nnClose(t, "conv", nnFloats(outs[0]), want, 1e-5)
			})
		}
	}
}

// nnTensor makes a float32 or float64 tensor from float32 values.
func nnTensor(dt payload.DType, shape []int, v []float32) *tensor {
	if dt == payload.Float64 {
		d := make([]float64, len(v))
		for i, x := range v {
			d[i] = float64(x)
		}
		return mk(shape, d)
	}
	return mk(shape, v)
}

// nnFloats returns a float32 or float64 tensor's values as float32.
func nnFloats(t *tensor) []float32 {
	if t.dt == payload.Float64 {
		d := t.f64()
		v := make([]float32, len(d))
		for i, x := range d {
			v[i] = float32(x)
		}
		return v
	}
	return t.f32()
}

func TestConvScratchReuse(t *testing.T) {
	// A kernel run twice, the second time on a smaller input, keeps its
	// scratch and gives the same answer as a fresh kernel.
	r := nnRng(2)
	n := node("Conv", []string{"x", "w"}, aInts("pads", 1, 1, 1, 1))
	bc := &buildCtx{g: model.NewGraph(), n: n, opset: 17,
		in:  []model.ValueInfo{{DType: payload.Float32}, {DType: payload.Float32}},
		out: []model.ValueInfo{{DType: payload.Float32}}}
	k, err := buildKernel(bc)
	if err != nil {
		t.Fatal(err)
	}
	sh := newOutShaper(bc, k)
	w := mk([]int{2, 3, 3, 3}, nnRand(r, 54))
	for _, hw := range []int{9, 4} {
		x := mk([]int{1, 3, hw, hw}, nnRand(r, 3*hw*hw))
		out := &tensor{dt: payload.Float32}
		if err := sh.shapes([]*tensor{x, w}, []*tensor{out}); err != nil {
			t.Fatal(err)
		}
		out.data = alignedBytes(out.numel() * 4)
		if err := k.run([]*tensor{x, w}, []*tensor{out}); err != nil {
			t.Fatal(err)
		}
		want := refConv(x.f32(), x.shape, w.f32(), w.shape, nil, 1, []int{1, 1}, []int{1, 1}, []int{1, 1}, []int{hw, hw})
		nnClose(t, "reuse", out.f32(), want, 1e-5)
	}
}

func TestConvErrors(t *testing.T) {
	x := mk([]int{1, 3, 5, 5}, make([]float32, 75))
	cases := []struct {
		name  string
		n     *model.Node
		w     *tensor
		x     *tensor
		kind  error
		types []payload.DType
	}{
		{"channels", node("Conv", []string{"x", "w"}), mk([]int{2, 2, 3, 3}, make([]float32, 36)), x, errs.ShapeMismatch, nil},
		{"group channels", node("Conv", []string{"x", "w"}, aInt("group", 3)), mk([]int{3, 2, 3, 3}, make([]float32, 54)), x, errs.ShapeMismatch, nil},
		{"rank", node("Conv", []string{"x", "w"}), mk([]int{2, 3, 3}, make([]float32, 18)), x, errs.ShapeMismatch, nil},
		{"kernel_shape", node("Conv", []string{"x", "w"}, aInts("kernel_shape", 2, 2)), mk([]int{2, 3, 3, 3}, make([]float32, 54)), x, errs.ShapeMismatch, nil},
		{"too big", node("Conv", []string{"x", "w"}), mk([]int{2, 3, 7, 7}, make([]float32, 294)), x, errs.ShapeMismatch, nil},
		{"auto_pad", node("Conv", []string{"x", "w"}, aString("auto_pad", "FULL")), mk([]int{2, 3, 3, 3}, make([]float32, 54)), x, errs.Unsupported, nil},
		{"strides", node("Conv", []string{"x", "w"}, aInts("strides", 0, 1)), mk([]int{2, 3, 3, 3}, make([]float32, 54)), x, errs.InvalidArtifact, nil},
		{"pads length", node("Conv", []string{"x", "w"}, aInts("pads", 1, 1)), mk([]int{2, 3, 3, 3}, make([]float32, 54)), x, errs.InvalidArtifact, nil},
		{"int input", node("Conv", []string{"x", "w"}), mk([]int{2, 3, 3, 3}, make([]int32, 54)), mk([]int{1, 3, 5, 5}, make([]int32, 75)), errs.Unsupported, nil},
		{"4 spatial dims", node("Conv", []string{"x", "w"}), mk([]int{1, 1, 1, 1, 1, 1}, []float32{1}), mk([]int{1, 1, 2, 2, 2, 2}, make([]float32, 16)), errs.Unsupported, nil},
	}
	for _, c := range cases {
		_, err := runNode(t, nodeCase{node: c.n}, c.x, c.w)
		nnWantErr(t, c.name, err, c.kind)
	}
	_, err := runNode(t, nodeCase{node: node("Conv", []string{"x", "w", "b"})}, x, mk([]int{2, 3, 3, 3}, make([]float32, 54)), mk([]int{3}, make([]float32, 3)))
	nnWantErr(t, "bias", err, errs.ShapeMismatch)
}
