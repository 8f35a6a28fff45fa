package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestPoolHandComputed(t *testing.T) {
	x := make([]float32, 16)
	for i := range x {
		x[i] = float32(i + 1)
	}
	in := mk([]int{1, 1, 4, 4}, x)
	cases := []struct {
		name  string
		n     *model.Node
		shape []int
		want  []float64
	}{
		{"maxpool ceil", node("MaxPool", []string{"x"}, aInts("kernel_shape", 3, 3), aInts("strides", 2, 2), aInt("ceil_mode", 1)), []int{1, 1, 2, 2}, []float64{11, 12, 15, 16}},
		{"maxpool floor", node("MaxPool", []string{"x"}, aInts("kernel_shape", 3, 3), aInts("strides", 2, 2)), []int{1, 1, 1, 1}, []float64{11}},
		{"avgpool same_upper", node("AveragePool", []string{"x"}, aInts("kernel_shape", 2, 2), aString("auto_pad", "SAME_UPPER")), []int{1, 1, 4, 4},
			[]float64{3.5, 4.5, 5.5, 6, 7.5, 8.5, 9.5, 10, 11.5, 12.5, 13.5, 14, 13.5, 14.5, 15.5, 16}},
		{"avgpool pads include", node("AveragePool", []string{"x"}, aInts("kernel_shape", 3, 3), aInts("pads", 1, 1, 1, 1), aInts("strides", 3, 3), aInt("count_include_pad", 1)), []int{1, 1, 2, 2},
			[]float64{14.0 / 9, 22.0 / 9, 46.0 / 9, 54.0 / 9}},
		{"global average", node("GlobalAveragePool", []string{"x"}), []int{1, 1, 1, 1}, []float64{8.5}},
		{"global max", node("GlobalMaxPool", []string{"x"}), []int{1, 1, 1, 1}, []float64{16}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: c.n}, in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		nnShape(t, c.name, outs[0].shape, c.shape)
		nnClose(t, c.name, outs[0].f32(), c.want, 1e-6)
	}
}

type poolCase struct {
	op         string
	xs         []int
	kern       []int64
	strides    []int64
	dils       []int64
	pads       []int64
	autoPad    string
	ceil       bool
	includePad bool
	colMajor   bool
	p          int64
}

func (c poolCase) String() string {
	return fmt.Sprintf("%s_x%v_k%v_s%v_d%v_p%v_%s_ceil%t_inc%t_cm%t", c.op, c.xs, c.kern, c.strides, c.dils, c.pads, c.autoPad, c.ceil, c.includePad, c.colMajor)
}

// refPool pools directly; it returns values and (for max) flat indices.
func refPool(c poolCase, x []float32) (os []int, y []float64, idx []int64) {
	nd := len(c.xs) - 2
	s, d, pb, pe := make([]int, nd), make([]int, nd), make([]int, nd), make([]int, nd)
	os = make([]int, nd)
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
		os[i], pb[i], pe[i] = refWindow(c.autoPad, c.xs[i+2], int(c.kern[i]), s[i], d[i], p0, p1, true, c.ceil)
	}
	I, O, K := lift3(c.xs[2:], 1), lift3(os, 1), lift3(intsOf(c.kern), 1)
	S, D, PB, PE := lift3(s, 1), lift3(d, 1), lift3(pb, 0), lift3(pe, 0)
	planes := c.xs[0] * c.xs[1]
	isz := I[0] * I[1] * I[2]
	for p := range planes {
		for o0 := range O[0] {
			for o1 := range O[1] {
				for o2 := range O[2] {
					best, bi := math.Inf(-1), int64(-1)
					var sum float64
					cnt, padCnt := 0, 0
					for k0 := range K[0] {
						for k1 := range K[1] {
							for k2 := range K[2] {
								q := [3]int{o0*S[0] - PB[0] + k0*D[0], o1*S[1] - PB[1] + k1*D[1], o2*S[2] - PB[2] + k2*D[2]}
								inPad, inReal := true, true
								for j := range 3 {
									if q[j] < -PB[j] || q[j] >= I[j]+PE[j] {
										inPad = false
									}
									if q[j] < 0 || q[j] >= I[j] {
										inReal = false
									}
								}
								if inPad {
									padCnt++
								}
								if !inReal {
									continue
								}
								v := float64(x[p*isz+(q[0]*I[1]+q[1])*I[2]+q[2]])
								cnt++
								sum += map[string]float64{"AveragePool": v, "MaxPool": 0, "LpPool": math.Pow(math.Abs(v), float64(c.p))}[c.op]
								if v > best {
									best = v
									bi = int64(p*isz + (q[0]*I[1]+q[1])*I[2] + q[2])
									if c.colMajor {
										bi = int64(p*isz + (q[2]*I[1]+q[1])*I[0] + q[0])
									}
								}
							}
						}
					}
					switch c.op {
					case "MaxPool":
						y = append(y, best)
						idx = append(idx, bi)
					case "AveragePool":
						if c.includePad {
							cnt = padCnt
						}
						y = append(y, sum/float64(cnt))
					default:
						y = append(y, math.Pow(sum, 1/float64(c.p)))
					}
				}
			}
		}
	}
	return os, y, idx
}

func TestPoolAgainstReference(t *testing.T) {
	cases := []poolCase{
		{op: "MaxPool", xs: []int{2, 3, 11}, kern: []int64{3}, strides: []int64{2}},
		{op: "MaxPool", xs: []int{1, 2, 10}, kern: []int64{3}, strides: []int64{3}, ceil: true, pads: []int64{1, 1}},
		{op: "MaxPool", xs: []int{1, 2, 7, 8}, kern: []int64{3, 2}, strides: []int64{2, 2}, pads: []int64{1, 0, 2, 1}},
		{op: "MaxPool", xs: []int{1, 2, 7, 8}, kern: []int64{3, 3}, strides: []int64{2, 3}, dils: []int64{2, 1}, ceil: true},
		{op: "MaxPool", xs: []int{1, 1, 5, 6}, kern: []int64{2, 3}, strides: []int64{2, 2}, autoPad: "SAME_UPPER", colMajor: true},
		{op: "MaxPool", xs: []int{1, 1, 5, 6}, kern: []int64{3, 2}, strides: []int64{2, 2}, autoPad: "SAME_LOWER"},
		{op: "MaxPool", xs: []int{1, 2, 9, 9}, kern: []int64{3, 3}, strides: []int64{2, 2}, autoPad: "VALID"},
		{op: "MaxPool", xs: []int{1, 2, 9, 10}, kern: []int64{2, 2}, strides: []int64{2, 2}, pads: []int64{1, 1, 0, 1}},
		{op: "MaxPool", xs: []int{1, 2, 8, 9}, kern: []int64{2, 2}, strides: []int64{1, 1}, ceil: true},
		{op: "MaxPool", xs: []int{1, 2, 9, 11}, kern: []int64{3, 3}, strides: []int64{1, 1}, pads: []int64{1, 1, 1, 1}},
		{op: "MaxPool", xs: []int{1, 2, 10, 12}, kern: []int64{3, 3}, strides: []int64{2, 2}, pads: []int64{0, 1, 1, 0}, ceil: true},
		{op: "MaxPool", xs: []int{1, 2, 4, 5, 6}, kern: []int64{2, 2, 3}, strides: []int64{2, 1, 2}, pads: []int64{0, 1, 1, 1, 0, 1}, colMajor: true},
		{op: "AveragePool", xs: []int{2, 3, 11}, kern: []int64{4}, strides: []int64{3}, pads: []int64{2, 1}},
		{op: "AveragePool", xs: []int{2, 3, 11}, kern: []int64{4}, strides: []int64{3}, pads: []int64{2, 1}, includePad: true},
		{op: "AveragePool", xs: []int{1, 2, 8, 7}, kern: []int64{3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, ceil: true, includePad: true},
		{op: "AveragePool", xs: []int{1, 2, 8, 7}, kern: []int64{3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, ceil: true},
		{op: "AveragePool", xs: []int{1, 2, 6, 7}, kern: []int64{2, 3}, strides: []int64{2, 2}, autoPad: "SAME_UPPER", includePad: true},
		{op: "AveragePool", xs: []int{1, 2, 6, 7}, kern: []int64{3, 2}, strides: []int64{1, 2}, autoPad: "SAME_LOWER"},
		{op: "AveragePool", xs: []int{1, 2, 9, 9}, kern: []int64{3, 3}, strides: []int64{2, 2}, dils: []int64{2, 2}, pads: []int64{1, 2, 1, 0}},
		{op: "AveragePool", xs: []int{1, 1, 3, 4, 5}, kern: []int64{2, 2, 2}, autoPad: "VALID", ceil: true, strides: []int64{2, 2, 2}},
		{op: "LpPool", xs: []int{1, 2, 5, 6}, kern: []int64{2, 2}, strides: []int64{2, 2}, pads: []int64{0, 1, 1, 0}, p: 2},
		{op: "LpPool", xs: []int{1, 2, 7}, kern: []int64{3}, p: 3},
	}
	r := nnRng(4)
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			attrs := []model.Attr{aInts("kernel_shape", c.kern...)}
			for _, a := range []struct {
				name string
				v    []int64
			}{{"strides", c.strides}, {"dilations", c.dils}, {"pads", c.pads}} {
				if a.v != nil {
					attrs = append(attrs, aInts(a.name, a.v...))
				}
			}
			if c.autoPad != "" {
				attrs = append(attrs, aString("auto_pad", c.autoPad))
			}
			if c.ceil {
				attrs = append(attrs, aInt("ceil_mode", 1))
			}
			if c.includePad {
				attrs = append(attrs, aInt("count_include_pad", 1))
			}
			if c.colMajor {
				attrs = append(attrs, aInt("storage_order", 1))
			}
			if c.p != 0 {
				attrs = append(attrs, aInt("p", c.p))
			}
			n := node(c.op, []string{"x"}, attrs...)
			types := []payload.DType{payload.Float32}
			if c.op == "MaxPool" {
				n.Outputs = append(n.Outputs, "indices")
				types = append(types, payload.Int64)
			}
			x := nnRand(r, nnProd(c.xs))
			os, want, wantIdx := refPool(c, x)
			outs, err := runNode(t, nodeCase{node: n, opset: 19, outTypes: types}, mk(c.xs, x))
			if err != nil {
				t.Fatal(err)
			}
			nnShape(t, c.op, outs[0].shape, append([]int{c.xs[0], c.xs[1]}, os...))
			nnClose(t, c.op, outs[0].f32(), want, 1e-6)
			if c.op == "MaxPool" {
				nnShape(t, "indices", outs[1].shape, outs[0].shape)
				for i, v := range outs[1].i64() {
					if v != wantIdx[i] {
						t.Fatalf("index %d = %d, want %d", i, v, wantIdx[i])
					}
				}
			}
			// float64, and float32 without the indices output (MaxPool's
			// fast path), give the same values.
			for _, dt := range []payload.DType{payload.Float64, payload.Float32} {
				outs, err = runNode(t, nodeCase{node: node(c.op, []string{"x"}, attrs...), opset: 19, outTypes: []payload.DType{dt}}, nnTensor(dt, c.xs, x))
				if err != nil {
					t.Fatal(err)
				}
				nnClose(t, c.op+" "+dt.String(), nnFloats(outs[0]), want, 1e-6)
			}
		})
	}
}

func TestGlobalPool(t *testing.T) {
	r := nnRng(5)
	for _, xs := range [][]int{{2, 3, 5}, {1, 4, 3, 7}, {2, 2, 2, 3, 4}, {2, 3}} {
		x := nnRand(r, nnProd(xs))
		size := nnProd(xs[2:])
		var avg, mx, lp []float64
		for p := range xs[0] * xs[1] {
			var s, q float64
			m := math.Inf(-1)
			for _, v := range x[p*size : (p+1)*size] {
				s += float64(v)
				q += float64(v) * float64(v)
				m = max(m, float64(v))
			}
			avg, mx, lp = append(avg, s/float64(size)), append(mx, m), append(lp, math.Sqrt(q))
		}
		want := append([]int{xs[0], xs[1]}, make([]int, len(xs)-2)...)
		for i := 2; i < len(want); i++ {
			want[i] = 1
		}
		for op, w := range map[string][]float64{"GlobalAveragePool": avg, "GlobalMaxPool": mx, "GlobalLpPool": lp} {
			outs, err := runNode(t, nodeCase{node: node(op, []string{"x"})}, mk(xs, x))
			if err != nil {
				t.Fatal(err)
			}
			nnShape(t, op, outs[0].shape, want)
			nnClose(t, op, outs[0].f32(), w, 1e-6)
		}
	}
}

func TestPoolErrors(t *testing.T) {
	x := mk([]int{1, 1, 4, 4}, make([]float32, 16))
	cases := []struct {
		name string
		n    *model.Node
		x    *tensor
		kind error
	}{
		{"no kernel_shape", node("MaxPool", []string{"x"}), x, errs.InvalidArtifact},
		{"kernel rank", node("MaxPool", []string{"x"}, aInts("kernel_shape", 2)), x, errs.InvalidArtifact},
		{"kernel too big", node("AveragePool", []string{"x"}, aInts("kernel_shape", 5, 5)), x, errs.ShapeMismatch},
		{"auto_pad", node("AveragePool", []string{"x"}, aInts("kernel_shape", 2, 2), aString("auto_pad", "FULL")), x, errs.Unsupported},
		{"int8 average", node("AveragePool", []string{"x"}, aInts("kernel_shape", 2, 2)), mk([]int{1, 1, 2, 2}, []int8{1, 2, 3, 4}), errs.Unsupported},
		{"int32 max", node("MaxPool", []string{"x"}, aInts("kernel_shape", 2, 2)), mk([]int{1, 1, 2, 2}, []int32{1, 2, 3, 4}), errs.Unsupported},
		{"lp p", node("LpPool", []string{"x"}, aInts("kernel_shape", 2, 2), aInt("p", 0)), x, errs.Unsupported},
		{"global rank", node("GlobalMaxPool", []string{"x"}), mk([]int{4}, make([]float32, 4)), errs.ShapeMismatch},
	}
	for _, c := range cases {
		_, err := runNode(t, nodeCase{node: c.n}, c.x)
		nnWantErr(t, c.name, err, c.kind)
	}
	n := node("MaxPool", []string{"x"}, aInts("kernel_shape", 2, 2))
	n.Outputs = append(n.Outputs, "indices")
	_, err := runNode(t, nodeCase{node: n, outTypes: []payload.DType{payload.Float32, payload.Int32}}, x)
	nnWantErr(t, "indices type", err, errs.InvalidArtifact)
}
