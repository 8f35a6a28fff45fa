package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// The widened reference kernels the int8 GEMM replaced: the operands, less
// their zero points, read into int32 and multiplied scalar. The tests
// below hold the int8 kernels to them bit for bit.

// subRows subtracts from each row of the m×k matrices in v its zero
// point: z[0] for all, or z[r] for row r.
func subRows(v, z []int32, k, m int) {
	switch {
	case z == nil:
	case len(z) == 1:
		for i := range v {
			v[i] -= z[0]
		}
	default:
		for i := range v {
			v[i] -= z[(i/max(k, 1))%m]
		}
	}
}

// subCols subtracts from each column of the matrices with n columns in v
// its zero point: z[0] for all, or z[j] for column j.
func subCols(v, z []int32, n int) {
	switch {
	case z == nil:
	case len(z) == 1:
		for i := range v {
			v[i] -= z[0]
		}
	default:
		for i := range v {
			v[i] -= z[i%n]
		}
	}
}

// widen8 returns t's 8-bit elements (nil t: nil) as int32.
func widen8(t *tensor) []int32 {
	if t == nil {
		return nil
	}
	v := make([]int32, t.numel())
	readQ8(v, t)
	return v
}

// refQMatMul is MatMulInteger's reference: the int32 products of A (with
// its zero point za, nil: none) and B (zb).
func refQMatMul(t *testing.T, a, b, za, zb *tensor) []int32 {
	mm := matmulKernel{n: node("MatMulInteger", nil), dt: payload.Int32}
	if err := mm.shape([]*tensor{a, b}, nil); err != nil {
		t.Fatal(err)
	}
	a32, b32 := widen8(a), widen8(b)
	subRows(a32, widen8(za), mm.k, mm.m)
	subCols(b32, widen8(zb), mm.nn)
	y := make([]int32, mm.nb*mm.m*mm.nn)
	matmulRun(&mm, gemmNaive[int32], a32, b32, y)
	return y
}

// refQConv is ConvInteger's reference: the direct int32 convolution of x
// (zero point zx) and w (zw) with k's geometry.
func refQConv(k *qconvKernel, x, w, zx, zw *tensor) []int32 {
	x32, w32 := widen8(x), widen8(w)
	subCols(x32, widen8(zx), 1)
	if z := widen8(zw); len(z) > 1 {
		subRows(w32, z, len(w32)/max(k.m, 1), k.m)
	} else {
		subCols(w32, z, 1)
	}
	g := &k.g
	cg, mg := k.c/k.group, k.m/k.group
	inSz, kSz := size3(g.in), size3(g.k)
	y := make([]int32, k.nb*k.m*size3(g.out))
	yi := 0
	for b := range k.nb {
		for m := range k.m {
			grp := m / mg
			wm := w32[m*cg*kSz : (m+1)*cg*kSz]
			xb := x32[(b*k.c+grp*cg)*inSz : (b*k.c+(grp+1)*cg)*inSz]
			for o0 := range g.out[0] {
				for o1 := range g.out[1] {
					for o2 := range g.out[2] {
						var s int32
						for c := range cg {
							xc, wc := xb[c*inSz:(c+1)*inSz], wm[c*kSz:(c+1)*kSz]
							for k0 := range g.k[0] {
								i0 := o0*g.s[0] - g.pb[0] + k0*g.d[0]
								if i0 < 0 || i0 >= g.in[0] {
									continue
								}
								for k1 := range g.k[1] {
									i1 := o1*g.s[1] - g.pb[1] + k1*g.d[1]
									if i1 < 0 || i1 >= g.in[1] {
										continue
									}
									row := xc[(i0*g.in[1]+i1)*g.in[2]:]
									wr := wc[(k0*g.k[1]+k1)*g.k[2]:]
									for k2 := range g.k[2] {
										i2 := o2*g.s[2] - g.pb[2] + k2*g.d[2]
										if i2 >= 0 && i2 < g.in[2] {
											s += row[i2] * wr[k2]
										}
									}
								}
							}
						}
						y[yi] = s
						yi++
					}
				}
			}
		}
	}
	return y
}

// shapedQConv builds the kernel of the ConvInteger or QLinearConv case c
// and shapes it for ins, for the reference to read its geometry.
func shapedQConv(t *testing.T, c nodeCase, ins []*tensor) *qconvKernel {
	t.Helper()
	k, err := buildKernel(caseCtx(c, ins))
	if err != nil {
		t.Fatal(err)
	}
	qk := k.(*qconvKernel)
	if err := qk.shape(ins, nil); err != nil {
		t.Fatal(err)
	}
	return qk
}

// rand8 returns a tensor of shape of random int8 (s8) or uint8 values,
// or all fill when fill >= 0.
func rand8(r *rand.Rand, s8 bool, fill int, shape ...int) *tensor {
	v := make([]uint8, payload.NumElems(shape))
	qFill(r, v, fill)
	t := mk(shape, v)
	if s8 {
		t.dt = payload.Int8
	}
	return t
}

// dt8 names an 8-bit type.
func dt8(s8 bool) string {
	if s8 {
		return "s8"
	}
	return "u8"
}

// wantI32 fails unless got equals want element for element.
func wantI32(t *testing.T, name string, got, want []int32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", name, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d is %d, want %d", name, i, got[i], want[i])
		}
	}
}

// TestMatMulIntegerMatchesReference runs MatMulInteger on the int8 GEMM
// for every pair of element types, constant and run-time B, batches and
// zero points of every form, against the widened reference.
func TestMatMulIntegerMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 3))
	type shp struct{ a, b []int }
	shapes := []shp{
		{[]int{1, 1}, []int{1, 1}},
		{[]int{5, 7}, []int{7, 3}},
		{[]int{33, 70}, []int{70, 65}},
		{[]int{2, 3, 9, 40}, []int{40, 17}},
		{[]int{2, 9, 40}, []int{2, 40, 17}},
		{[]int{40}, []int{40, 9}},
		{[]int{64, 300}, []int{300, 64}},
	}
	for _, sh := range shapes {
		for _, as8 := range []bool{false, true} {
			for _, bs8 := range []bool{false, true} {
				for zi := range 4 {
					for _, konst := range []bool{false, true} {
						fill := -1
						if zi == 3 {
							fill = 255
						}
						a, b := rand8(r, as8, fill, sh.a...), rand8(r, bs8, -1, sh.b...)
						if zi == 3 && bs8 {
							qFill(r, b.data, 0x80)
						}
						m, n := 1, sh.b[len(sh.b)-1]
						if len(sh.a) > 1 {
							m = sh.a[len(sh.a)-2]
						}
						ins := []*tensor{a, b}
						switch zi {
						case 1, 3:
							ins = append(ins, rand8(r, as8, -1), rand8(r, bs8, -1))
						case 2:
							ins = append(ins, rand8(r, as8, -1, m), rand8(r, bs8, -1, n))
						}
						if len(sh.a) == 1 && zi == 2 {
							ins = ins[:2]
						}
						c := nodeCase{node: node("MatMulInteger", []string{"a", "b", "za", "zb"}[:len(ins)]), opset: 10, outTypes: []payload.DType{payload.Int32}}
						if konst {
							c.consts = []int{1}
						}
						name := fmt.Sprintf("%v×%v %s×%s zero points %d const %v", sh.a, sh.b, dt8(as8), dt8(bs8), zi, konst)
						outs, err := runNode(t, c, ins...)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						var za, zb *tensor
						if len(ins) > 2 {
							za, zb = ins[2], ins[3]
						}
						wantI32(t, name, outs[0].i32(), refQMatMul(t, a, b, za, zb))
					}
				}
			}
		}
	}
}

// TestConvIntegerMatchesReference runs ConvInteger on the int8 GEMM for
// every pair of element types, constant and run-time weights, windows
// with strides, dilations, pads and groups, and zero points of every
// form, against the widened direct reference: the im2col, the wide grid
// packed tap by tap, and the wide grid read in place.
func TestConvIntegerMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 4))
	type cs struct {
		x, w  []int
		attrs []model.Attr
	}
	cases := []cs{
		{[]int{1, 3, 7, 9}, []int{4, 3, 3, 3}, nil},
		{[]int{2, 4, 11, 10}, []int{6, 2, 3, 3}, []model.Attr{aInt("group", 2), aInts("pads", 1, 2, 0, 1), aInts("strides", 2, 1)}},
		{[]int{1, 8, 12, 12}, []int{16, 8, 1, 1}, nil},
		{[]int{1, 5, 9, 9}, []int{3, 5, 1, 1}, []model.Attr{aInts("strides", 2, 2)}},
		{[]int{1, 4, 13, 13}, []int{4, 1, 3, 3}, []model.Attr{aInt("group", 4), aInts("pads", 1, 1, 1, 1)}},
		{[]int{1, 2, 15, 15}, []int{9, 2, 3, 3}, []model.Attr{aInts("dilations", 2, 3), aInts("pads", 2, 2, 2, 2)}},
		{[]int{1, 3, 30}, []int{5, 3, 4}, []model.Attr{aInts("pads", 3, 1), aInts("strides", 3)}},
		{[]int{1, 2, 4, 5, 6}, []int{3, 2, 2, 3, 2}, []model.Attr{aInts("pads", 1, 0, 1, 0, 1, 1)}},
		{[]int{1, 16, 20, 20}, []int{24, 16, 3, 3}, []model.Attr{aInts("pads", 1, 1, 1, 1)}},
		// Whole rows copied at once: a row dilation, wide pads, a tap
		// that never lands in the input, more rows than one block.
		{[]int{1, 3, 12, 10}, []int{4, 3, 3, 3}, []model.Attr{aInts("dilations", 2, 1), aInts("pads", 2, 1, 2, 1)}},
		{[]int{2, 2, 6, 2}, []int{3, 2, 3, 5}, []model.Attr{aInts("pads", 1, 2, 1, 2)}},
		{[]int{1, 2, 7, 9}, []int{3, 2, 1, 5}, []model.Attr{aInts("pads", 0, 2, 0, 2)}},
		{[]int{1, 1, 30, 3}, []int{2, 1, 3, 1}, []model.Attr{aInts("pads", 1, 0, 1, 0)}},
		// Three im2col blocks, the last partial.
		{[]int{1, 64, 41, 50}, []int{8, 64, 3, 3}, []model.Attr{aInts("pads", 1, 1, 1, 1)}},
		// The wide grid (stride 1, channels in fours): asymmetric pads,
		// dilation, groups, batches, one spatial dim, no pads, and a
		// width past its waste bound (the im2col in tap order).
		{[]int{2, 8, 9, 37}, []int{10, 8, 3, 3}, []model.Attr{aInts("pads", 0, 2, 1, 1)}},
		{[]int{1, 4, 17, 40}, []int{9, 4, 3, 3}, []model.Attr{aInts("dilations", 2, 2), aInts("pads", 2, 2, 2, 2)}},
		{[]int{1, 8, 12, 36}, []int{6, 4, 3, 3}, []model.Attr{aInt("group", 2), aInts("pads", 1, 1, 1, 1)}},
		{[]int{1, 12, 70}, []int{7, 12, 5}, []model.Attr{aInts("pads", 2, 2)}},
		{[]int{1, 4, 10, 40}, []int{3, 4, 2, 3}, nil},
		{[]int{1, 8, 6, 6}, []int{5, 8, 3, 3}, []model.Attr{aInts("pads", 1, 1, 1, 1)}},
		// Strided on the wide grid's phases (in place only): odd and
		// even sizes, asymmetric pads, unequal strides, stride 3,
		// dilation with stride, groups, one spatial dim.
		{[]int{1, 8, 33, 40}, []int{12, 8, 3, 3}, []model.Attr{aInts("strides", 2, 2), aInts("pads", 1, 1, 1, 1)}},
		{[]int{2, 4, 20, 37}, []int{6, 4, 3, 3}, []model.Attr{aInts("strides", 2, 2), aInts("pads", 0, 2, 1, 0)}},
		{[]int{1, 4, 19, 45}, []int{5, 4, 5, 4}, []model.Attr{aInts("strides", 1, 2), aInts("pads", 2, 1, 2, 2)}},
		{[]int{1, 4, 25, 61}, []int{3, 4, 3, 3}, []model.Attr{aInts("strides", 3, 3), aInts("dilations", 1, 2), aInts("pads", 1, 2, 1, 2)}},
		{[]int{1, 8, 16, 64}, []int{4, 4, 3, 3}, []model.Attr{aInt("group", 2), aInts("strides", 2, 2), aInts("dilations", 2, 2), aInts("pads", 2, 2, 2, 2)}},
		{[]int{1, 8, 81}, []int{6, 8, 7}, []model.Attr{aInts("strides", 2), aInts("pads", 3, 3)}},
		// Channels short of a multiple of 4 (one group): the added
		// channels read as the zero point, at stride 1 and 2.
		{[]int{1, 3, 20, 40}, []int{8, 3, 3, 3}, []model.Attr{aInts("pads", 1, 1, 1, 1)}},
		{[]int{2, 5, 21, 36}, []int{7, 5, 3, 3}, []model.Attr{aInts("strides", 2, 2), aInts("pads", 1, 0, 1, 2)}},
		{[]int{1, 1, 9, 33}, []int{4, 1, 2, 2}, nil},
	}
	for _, cc := range cases {
		for _, xs8 := range []bool{false, true} {
			for _, ws8 := range []bool{false, true} {
				for zi := range 4 {
					for _, konst := range []bool{false, true} {
						x, w := rand8(r, xs8, -1, cc.x...), rand8(r, ws8, -1, cc.w...)
						ins := []*tensor{x, w}
						switch zi {
						case 1:
							ins = append(ins, rand8(r, xs8, -1), rand8(r, ws8, -1))
						case 2:
							ins = append(ins, rand8(r, xs8, -1, 1), rand8(r, ws8, -1, cc.w[0]))
						case 3:
							// Weights without a zero point, as quantizers
							// write int8 weights: B read in place.
							ins = append(ins, rand8(r, xs8, -1), rand8(r, ws8, 0, cc.w[0]))
						}
						c := nodeCase{node: node("ConvInteger", []string{"x", "w", "zx", "zw"}[:len(ins)], cc.attrs...), opset: 10, outTypes: []payload.DType{payload.Int32}}
						if konst {
							c.consts = []int{1}
						}
						name := fmt.Sprintf("x%v w%v %v %s×%s zero points %d const %v", cc.x, cc.w, cc.attrs, dt8(xs8), dt8(ws8), zi, konst)
						outs, err := runNode(t, c, ins...)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						qk := shapedQConv(t, c, ins)
						var zx, zw *tensor
						if len(ins) > 2 {
							zx, zw = ins[2], ins[3]
						}
						wantI32(t, name, outs[0].i32(), refQConv(qk, x, w, zx, zw))
					}
				}
			}
		}
	}
}

// TestQuantizedGemmNoAllocs checks that MatMulInteger, QLinearMatMul,
// ConvInteger and QLinearConv with constant weights, on one thread and
// two, allocate nothing once warm.
func TestQuantizedGemmNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 5))
	u := func(shape ...int) *tensor { return rand8(r, false, -1, shape...) }
	s := func(shape ...int) *tensor { return rand8(r, true, -1, shape...) }
	f := func(v float32) *tensor { return mk(nil, []float32{v}) }
	pads := aInts("pads", 1, 1, 1, 1)
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
	}{
		{"MatMulInteger", nodeCase{node: node("MatMulInteger", []string{"a", "b", "za", "zb"}), opset: 10, outTypes: []payload.DType{payload.Int32}, consts: []int{1}},
			[]*tensor{u(64, 128), s(128, 96), u(), s()}},
		{"QLinearMatMul", nodeCase{node: node("QLinearMatMul", []string{"a", "sa", "za", "b", "sb", "zb", "sy", "zy"}), opset: 10, outTypes: []payload.DType{payload.Uint8}, consts: []int{3}},
			[]*tensor{u(64, 128), f(0.1), u(), s(128, 96), f(0.01), s(), f(0.3), u()}},
		{"ConvInteger", nodeCase{node: node("ConvInteger", []string{"x", "w", "zx", "zw"}, pads), opset: 10, outTypes: []payload.DType{payload.Int32}, consts: []int{1}},
			[]*tensor{u(1, 16, 24, 24), s(32, 16, 3, 3), u(), s()}},
		{"QLinearConv", nodeCase{node: node("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}, pads), opset: 10, outTypes: []payload.DType{payload.Uint8}, consts: []int{3}},
			[]*tensor{u(1, 16, 24, 24), f(0.1), u(), s(32, 16, 3, 3), f(0.01), s(), f(0.3), u()}},
		// Weights without a zero point: the wide grid read in place.
		{"ConvInteger in place", nodeCase{node: node("ConvInteger", []string{"x", "w", "zx", "zw"}, pads), opset: 10, outTypes: []payload.DType{payload.Int32}, consts: []int{1}},
			[]*tensor{u(1, 16, 24, 24), s(32, 16, 3, 3), u(), rand8(r, true, 0)}},
		{"QLinearConv in place", nodeCase{node: node("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}, pads), opset: 10, outTypes: []payload.DType{payload.Uint8}, consts: []int{3}},
			[]*tensor{u(1, 16, 24, 24), f(0.1), u(), s(32, 16, 3, 3), f(0.01), rand8(r, true, 0), f(0.3), u()}},
	}
	for _, threads := range []int{1, 2} {
		pool := newWorkerPool(threads)
		for _, cc := range cases {
			bc := caseCtx(cc.c, cc.ins)
			bc.gemm = newGemmCtx(pool)
			for _, i := range cc.c.consts {
				in := cc.ins[i]
				bc.g.Initializers[cc.c.node.Input(i)] = &model.Tensor{Name: cc.c.node.Input(i), DType: in.dt, Shape: append([]int{}, in.shape...), Raw: in.data}
			}
			k, err := buildKernel(bc)
			if err != nil {
				t.Fatal(err)
			}
			switch qk := k.(type) {
			case *qmatmulKernel:
				if qk.pb.data == nil {
					t.Fatalf("%s: constant B not packed at build", cc.name)
				}
			case *qconvKernel:
				if qk.pw.data == nil {
					t.Fatalf("%s: constant weights not packed at build", cc.name)
				}
			}
			outs := []*tensor{{dt: bc.out[0].DType}}
			if err := newOutShaper(bc, k).shapes(cc.ins, outs); err != nil {
				t.Fatal(err)
			}
			outs[0].data = alignedBytes(outs[0].numel() * outs[0].dt.Size())
			run := func() {
				if err := k.run(cc.ins, outs); err != nil {
					t.Fatal(err)
				}
			}
			run()
			if got := testing.AllocsPerRun(20, run); got != 0 {
				t.Errorf("%s threads=%d: %v allocations a run, want 0", cc.name, threads, got)
			}
		}
		pool.close()
	}
}

// TestConvIntegerWideRepeats runs one wide-grid ConvInteger kernel
// again and again while the input's zero point, which fills the padded
// planes' margins, changes and returns, each run against the reference.
func TestConvIntegerWideRepeats(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 6))
	for _, ws8 := range []bool{false, true} {
		x, w, zx := rand8(r, false, -1, 1, 8, 10, 33), rand8(r, ws8, -1, 4, 8, 3, 3), rand8(r, false, 3)
		c := nodeCase{node: node("ConvInteger", []string{"x", "w", "zx", "zw"}, aInts("pads", 1, 2, 1, 2)), opset: 10, outTypes: []payload.DType{payload.Int32}, consts: []int{1}}
		ins := []*tensor{x, w, zx, rand8(r, ws8, 0)}
		step := newStepper(t, c, ins...)
		qk := shapedQConv(t, c, ins)
		if qk.wideW == 0 {
			t.Fatal("the case does not run on the wide grid")
		}
		for i, z := range []byte{3, 200, 200, 3, 0} {
			zx.data[0] = z
			wantI32(t, fmt.Sprintf("weights %s run %d zero point %d", dt8(ws8), i, z), step()[0].i32(), refQConv(qk, x, w, zx, ins[3]))
		}
	}
}

// TestQLinearConvWideMatchesReference runs QLinearConv on the wide grid
// (stride 1 and 2, with and without a bias, one and per-channel weight
// scales, uint8 and int8 activations) against the reference sums
// requantized by the scalar function.
func TestQLinearConvWideMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 7))
	f := func(v ...float32) *tensor {
		if len(v) == 1 {
			return mk(nil, v)
		}
		return mk([]int{len(v)}, v)
	}
	for _, stride := range []int64{1, 2} {
		for _, bias := range []bool{false, true} {
			for _, perCh := range []bool{false, true} {
				for _, xs8 := range []bool{false, true} {
					const m = 6
					x, w := rand8(r, xs8, -1, 1, 8, 14, 30), rand8(r, true, -1, m, 8, 3, 3)
					zx, zw, zy := rand8(r, xs8, -1), rand8(r, true, 0), rand8(r, xs8, -1)
					sw := f(0.003)
					if perCh {
						sw = f(0.003, 0.002, 0.004, 0.001, 0.0025, 0.0035)
					}
					names := []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}
					ins := []*tensor{x, f(0.02), zx, w, sw, zw, f(0.05), zy}
					var b []int32
					if bias {
						b = make([]int32, m)
						for i := range b {
							b[i] = int32(r.IntN(20001) - 10000)
						}
						names = append(names, "b")
						ins = append(ins, mk([]int{m}, b))
					}
					attrs := []model.Attr{aInts("pads", 1, 1, 1, 1), aInts("strides", stride, stride)}
					c := nodeCase{node: node("QLinearConv", names, attrs...), opset: 10, consts: []int{3}, outTypes: []payload.DType{x.dt}}
					name := fmt.Sprintf("stride %d bias %v per-channel %v x %s", stride, bias, perCh, dt8(xs8))
					outs, err := runNode(t, c, ins...)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					qk := shapedQConv(t, c, ins)
					if qk.wideW == 0 {
						t.Fatalf("%s: not on the wide grid", name)
					}
					acc := refQConv(qk, x, w, zx, zw)
					var mult []float32
					var sc []float64
					mult = requantScales(&mult, &sc, ins[1], sw, ins[6])
					lo, hi, _ := quantRange(x.dt)
					var z [1]int32
					readQ8(z[:], zy)
					P := len(acc) / m
					want := make([]byte, len(acc))
					for ch := range m {
						var bv int32
						if bias {
							bv = b[ch]
						}
						requantBiasRunGo(want[ch*P:(ch+1)*P], acc[ch*P:(ch+1)*P], bv, mult[min(ch, len(mult)-1)], float64(z[0]), lo, hi)
					}
					if got := outs[0].data; string(got) != string(want) {
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("%s: byte %d is %d, want %d", name, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}
