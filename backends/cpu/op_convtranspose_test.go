package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestConvTransposeHandComputed(t *testing.T) {
	// ONNX's convtranspose example: 3×3 ramp, two 3×3 filters of ones.
	x := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8}
	w := make([]float32, 18)
	for i := range w {
		w[i] = 1
	}
	outs, err := runNode(t, nodeCase{node: node("ConvTranspose", []string{"x", "w"})}, mk([]int{1, 1, 3, 3}, x), mk([]int{1, 2, 3, 3}, w))
	if err != nil {
		t.Fatal(err)
	}
	plane := []float64{0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8}
	nnShape(t, "convtranspose", outs[0].shape, []int{1, 2, 5, 5})
	nnClose(t, "convtranspose", outs[0].f32(), append(append([]float64{}, plane...), plane...), 0)
}

type convTCase struct {
	xs, ws   []int
	group    int
	strides  []int64
	dils     []int64
	pads     []int64
	outPad   []int64
	outShape []int64
	autoPad  string
	bias     bool
}

func (c convTCase) String() string {
	return fmt.Sprintf("x%v_w%v_g%d_s%v_d%v_p%v_op%v_os%v_%s", c.xs, c.ws, c.group, c.strides, c.dils, c.pads, c.outPad, c.outShape, c.autoPad)
}

// refConvTranspose scatters every input value through the filter.
func refConvTranspose(x []float32, xs []int, w []float32, ws []int, b []float32, group int, s, d, pb, os []int) []float64 {
	N, C := xs[0], xs[1]
	cg, mg := C/group, ws[1]
	M := mg * group
	I, K, O := lift3(xs[2:], 1), lift3(ws[2:], 1), lift3(os, 1)
	S, D, P := lift3(s, 1), lift3(d, 1), lift3(pb, 0)
	osz := O[0] * O[1] * O[2]
	y := make([]float64, N*M*osz)
	for n := range N {
		for m := range M {
			if b != nil {
				for i := range osz {
					y[(n*M+m)*osz+i] = float64(b[m])
				}
			}
		}
		for c := range C {
			grp := c / cg
			for i0 := range I[0] {
				for i1 := range I[1] {
					for i2 := range I[2] {
						xv := float64(x[(((n*C+c)*I[0]+i0)*I[1]+i1)*I[2]+i2])
						for m := range mg {
							for k0 := range K[0] {
								for k1 := range K[1] {
									for k2 := range K[2] {
										o0 := i0*S[0] - P[0] + k0*D[0]
										o1 := i1*S[1] - P[1] + k1*D[1]
										o2 := i2*S[2] - P[2] + k2*D[2]
										if o0 < 0 || o0 >= O[0] || o1 < 0 || o1 >= O[1] || o2 < 0 || o2 >= O[2] {
											continue
										}
										wv := float64(w[(((c*mg+m)*K[0]+k0)*K[1]+k1)*K[2]+k2])
										y[(((n*M+grp*mg+m)*O[0]+o0)*O[1]+o1)*O[2]+o2] += xv * wv
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return y
}

func TestConvTransposeAgainstReference(t *testing.T) {
	cases := []convTCase{
		{xs: []int{1, 2, 5}, ws: []int{2, 3, 3}, strides: []int64{2}},
		// Pads that crop taps away entirely.
		{xs: []int{1, 1, 1}, ws: []int{1, 1, 3}, pads: []int64{2, 0}},
		{xs: []int{2, 4, 6}, ws: []int{4, 1, 4}, group: 2, strides: []int64{3}, pads: []int64{1, 2}, outPad: []int64{1}, bias: true},
		{xs: []int{1, 3, 7}, ws: []int{3, 2, 3}, dils: []int64{2}, autoPad: "SAME_UPPER", strides: []int64{2}},
		{xs: []int{1, 3, 7}, ws: []int{3, 2, 4}, autoPad: "SAME_LOWER", strides: []int64{2}, bias: true},
		{xs: []int{1, 2, 4, 5}, ws: []int{2, 3, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 0, 1, 1}, bias: true},
		{xs: []int{1, 4, 3, 3}, ws: []int{4, 1, 2, 3}, group: 4, strides: []int64{2, 1}, dils: []int64{1, 2}, outPad: []int64{1, 0}},
		{xs: []int{2, 3, 4, 4}, ws: []int{3, 2, 3, 3}, strides: []int64{2, 2}, outShape: []int64{9, 8}},
		{xs: []int{1, 3, 4, 4}, ws: []int{3, 2, 3, 3}, strides: []int64{2, 2}, outShape: []int64{1, 2, 8, 8}, autoPad: "SAME_UPPER"},
		{xs: []int{1, 5, 3, 4}, ws: []int{5, 2, 1, 1}, bias: true},
		{xs: []int{1, 5, 3, 4}, ws: []int{5, 2, 1, 1}, outPad: []int64{1, 1}, strides: []int64{2, 2}},
		{xs: []int{1, 2, 3, 3, 2}, ws: []int{2, 2, 2, 3, 2}, strides: []int64{2, 1, 2}, pads: []int64{0, 1, 0, 1, 0, 1}},
		// Kernels that tile the output (runTiled): stride 2 with rows
		// past the vector width, groups and images, stride 3, 1-D.
		{xs: []int{1, 3, 5, 20}, ws: []int{3, 4, 2, 2}, strides: []int64{2, 2}, bias: true},
		{xs: []int{2, 4, 3, 9}, ws: []int{4, 2, 2, 2}, group: 2, strides: []int64{2, 2}, bias: true},
		{xs: []int{1, 2, 4, 5}, ws: []int{2, 3, 3, 3}, strides: []int64{3, 3}},
		{xs: []int{1, 2, 9}, ws: []int{2, 3, 2}, strides: []int64{2}, bias: true},
	}
	r := nnRng(3)
	for _, c := range cases {
		for _, dt := range []payload.DType{payload.Float32, payload.Float64} {
			t.Run(c.String()+"_"+dt.String(), func(t *testing.T) {
				group := max(c.group, 1)
				nd := len(c.xs) - 2
				attrs := []model.Attr{aInt("group", int64(group))}
				for _, a := range []struct {
					name string
					v    []int64
				}{{"strides", c.strides}, {"dilations", c.dils}, {"pads", c.pads}, {"output_padding", c.outPad}, {"output_shape", c.outShape}} {
					if a.v != nil {
						attrs = append(attrs, aInts(a.name, a.v...))
					}
				}
				if c.autoPad != "" {
					attrs = append(attrs, aString("auto_pad", c.autoPad))
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
					op := 0
					if c.outPad != nil {
						op = int(c.outPad[i])
					}
					full := s[i]*(c.xs[i+2]-1) + op + (c.ws[i+2]-1)*d[i] + 1
					switch {
					case c.outShape != nil || c.autoPad == "SAME_UPPER" || c.autoPad == "SAME_LOWER":
						o := c.xs[i+2] * s[i]
						if c.outShape != nil {
							o = int(c.outShape[len(c.outShape)-nd+i])
						}
						total := max(0, full-o)
						// An odd total pads more at the tail for
						// SAME_UPPER, more at the head otherwise (the
						// parity suite pins this against ONNX Runtime).
						pb[i] = total - total/2
						if c.autoPad == "SAME_UPPER" {
							pb[i] = total / 2
						}
						os[i] = full - total
					default:
						if c.pads != nil {
							pb[i] = int(c.pads[i])
							full -= int(c.pads[i]) + int(c.pads[i+nd])
						}
						os[i] = full
					}
				}
				x, w := nnRand(r, nnProd(c.xs)), nnRand(r, nnProd(c.ws))
				inputs := []string{"x", "w"}
				var b []float32
				if c.bias {
					b = nnRand(r, c.ws[1]*group)
					inputs = append(inputs, "b")
				}
				want := refConvTranspose(x, c.xs, w, c.ws, b, group, s, d, pb, os)
				ins := []*tensor{nnTensor(dt, c.xs, x), nnTensor(dt, c.ws, w)}
				if c.bias {
					ins = append(ins, nnTensor(dt, []int{len(b)}, b))
				}
				outs, err := runNode(t, nodeCase{node: node("ConvTranspose", inputs, attrs...), outTypes: []payload.DType{dt}, consts: []int{1}}, ins...)
				if err != nil {
					t.Fatal(err)
				}
				nnShape(t, "convtranspose", outs[0].shape, append([]int{c.xs[0], c.ws[1] * group}, os...))
				nnClose(t, "convtranspose", nnFloats(outs[0]), want, 1e-5)
			})
		}
	}
}

func TestConvTransposeErrors(t *testing.T) {
	x := mk([]int{1, 3, 4, 4}, make([]float32, 48))
	_, err := runNode(t, nodeCase{node: node("ConvTranspose", []string{"x", "w"})}, x, mk([]int{2, 2, 3, 3}, make([]float32, 36)))
	nnWantErr(t, "channels", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("ConvTranspose", []string{"x", "w"}, aInt("group", 2))}, x, mk([]int{3, 2, 3, 3}, make([]float32, 54)))
	nnWantErr(t, "group", err, errs.ShapeMismatch)
	// An output_shape beyond the full 6×6 output is zero past it, as
	// ONNX Runtime computes it.
	ones := mk([]int{1, 3, 4, 4}, func() []float32 {
		v := make([]float32, 48)
		for i := range v {
			v[i] = 1
		}
		return v
	}())
	outs, err := runNode(t, nodeCase{node: node("ConvTranspose", []string{"x", "w"}, aInts("output_shape", 8, 8))}, ones, mk([]int{3, 2, 3, 3}, func() []float32 {
		v := make([]float32, 54)
		for i := range v {
			v[i] = 1
		}
		return v
	}()))
	if err != nil {
		t.Fatalf("output_shape beyond the full output: %v", err)
	}
	nnShape(t, "convtranspose", outs[0].shape, []int{1, 2, 8, 8})
	y := outs[0].f32()
	if y[0] == 0 || y[5*8+5] == 0 || y[6*8] != 0 || y[7] != 0 {
		t.Fatalf("output_shape beyond the full output: rows %v", y[:16])
	}
	_, err = runNode(t, nodeCase{node: node("ConvTranspose", []string{"x", "w"}, aInts("output_padding", 1))}, x, mk([]int{3, 2, 3, 3}, make([]float32, 54)))
	nnWantErr(t, "output_padding", err, errs.InvalidArtifact)
	_, err = runNode(t, nodeCase{node: node("ConvTranspose", []string{"x", "w"}, aString("auto_pad", "X"))}, x, mk([]int{3, 2, 3, 3}, make([]float32, 54)))
	nnWantErr(t, "auto_pad", err, errs.Unsupported)
}

// TestConvTransposeTiledSameBits checks that the tiled path (kernel
// equal to the stride) gives col2im's bits, with and without a bias, on
// one thread and two, and that it is the path taken.
func TestConvTransposeTiledSameBits(t *testing.T) {
	r := nnRng(5)
	p2 := newWorkerPool(2)
	defer p2.close()
	for _, c := range []struct {
		cin, cout, ih, iw, sh, sw int
		bias                      bool
	}{{24, 24, 20, 20, 2, 2, true}, {24, 1, 40, 40, 2, 2, false}, {3, 5, 7, 13, 2, 3, true}, {4, 2, 5, 33, 1, 2, true}} {
		for _, pool := range []*workerPool{nil, p2} {
			name := fmt.Sprintf("c%d->%d %dx%d s%dx%d bias %v threads %d", c.cin, c.cout, c.ih, c.iw, c.sh, c.sw, c.bias, pool.size())
			k := &convTransposeKernel{group: 1, batch: 1, inC: c.cin, outC: c.cout, gc: newGemmCtx(pool)}
			g := &k.g
			g.reset(2)
			g.in[1], g.in[2], g.out[1], g.out[2] = c.ih*c.sh, c.iw*c.sw, c.ih, c.iw
			g.k[1], g.k[2], g.s[1], g.s[2] = c.sh, c.sw, c.sh, c.sw
			if !k.tiles() {
				t.Fatalf("%s: tiles() = false, want true", name)
			}
			x, w := nnRand(r, c.cin*c.ih*c.iw), nnRand(r, c.cin*c.cout*c.sh*c.sw)
			var b []float32
			if c.bias {
				b = nnRand(r, c.cout)
			}
			n := c.cout * c.ih * c.sh * c.iw * c.sw
			const guards = 8
			all, got := guarded(n, guards)
			k.runTiled(x, w, b, got)
			checkGuards(t, name, all, guards, 1, n, n)
			want := make([]float32, n)
			var col []float32
			convTransposeRun(k, x, w, b, want, &col)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s: element %d is %v, %v by col2im", name, i, got[i], want[i])
				}
			}
		}
	}
}

// TestInterleave2Add wants interleave2Add (AVX where the CPU has it) to
// give interleave2AddGo's values on every length, leaving the cells
// after the output alone.
func TestInterleave2Add(t *testing.T) {
	if !asmRuns() {
		t.Skip("no assembly in this build: interleave2Add is interleave2AddGo")
	}
	r := nnRng(6)
	for _, n := range []int{0, 1, 7, 8, 9, 16, 23, 40} {
		a, b := nnRand(r, n), nnRand(r, n)
		all, got := guarded(2*n, 4)
		want := make([]float32, 2*n)
		interleave2Add(got, a, b, 0.25)
		interleave2AddGo(want, a, b, 0.25)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: cell %d is %v, want %v", n, i, got[i], want[i])
			}
		}
		checkGuards(t, fmt.Sprintf("n=%d", n), all, 4, 1, 2*n, 2*n)
	}
}
