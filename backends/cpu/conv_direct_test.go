package cpu

import (
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/model"
)

// directCase is a Conv for the direct-kernel tests: shapes, window
// attributes (nil: defaults), group, bias and fused activation.
type directCase struct {
	xs, ws        []int
	strides, dils []int64
	pads          []int64
	group         int
	bias          bool
	act           string
	params        []float32
	direct        bool // whether the direct kernels must take it
	// dynamic hides the input's spatial dims at load.
	dynamic bool
}

func (c directCase) String() string {
	return fmt.Sprintf("x%v_w%v_g%d_s%v_d%v_p%v_b%t_%s_dyn%t", c.xs, c.ws, c.group, c.strides, c.dils, c.pads, c.bias, c.act, c.dynamic)
}

func directCases() []directCase {
	return []directCase{
		// The benchmark CNN's two layers.
		{xs: []int{1, 3, 32, 32}, ws: []int{16, 3, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 16, 16, 16}, ws: []int{32, 16, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		// Ragged channel counts and rows that end inside a tile (run
		// flat over the padded width), large enough for two threads.
		{xs: []int{1, 32, 40, 20}, ws: []int{24, 32, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActHardSwish, direct: true},
		{xs: []int{1, 72, 32, 8}, ws: []int{72, 72, 3, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{2, 5, 11, 23}, ws: []int{13, 5, 3, 3}, pads: []int64{1, 2, 0, 1}, bias: true, direct: true},
		{xs: []int{1, 3, 9, 12}, ws: []int{1, 3, 3, 3}, act: model.ActRelu, direct: true},
		{xs: []int{1, 2, 7, 40}, ws: []int{7, 2, 2, 5}, pads: []int64{0, 2, 1, 2}, act: model.ActRelu, direct: true},
		{xs: []int{1, 4, 6, 12}, ws: []int{2, 4, 1, 3}, bias: true, direct: true},
		// Strides, dilations, asymmetric pads.
		{xs: []int{1, 3, 48, 97}, ws: []int{8, 3, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActHardSwish, direct: true},
		{xs: []int{1, 4, 13, 53}, ws: []int{11, 4, 3, 3}, strides: []int64{1, 3}, pads: []int64{1, 0, 2, 2}, act: model.ActClip, params: []float32{0, 6}, direct: true},
		{xs: []int{2, 3, 15, 70}, ws: []int{6, 3, 3, 4}, strides: []int64{3, 4}, dils: []int64{2, 1}, pads: []int64{2, 1, 1, 3}, bias: true, direct: true},
		{xs: []int{1, 2, 9, 30}, ws: []int{5, 2, 3, 5}, strides: []int64{2, 2}, pads: []int64{0, 2, 1, 2}, bias: true, direct: true},
		{xs: []int{1, 2, 9, 33}, ws: []int{5, 2, 3, 4}, strides: []int64{2, 2}, dils: []int64{1, 3}, pads: []int64{0, 3, 1, 0}, act: model.ActRelu, direct: true},
		{xs: []int{1, 3, 12, 30}, ws: []int{9, 3, 3, 3}, dils: []int64{2, 3}, pads: []int64{2, 3, 2, 3}, bias: true, act: model.ActRelu, direct: true},
		// Groups, and windows longer than one block of gemmKC steps.
		{xs: []int{1, 8, 10, 20}, ws: []int{12, 4, 3, 3}, group: 2, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 40, 6, 17}, ws: []int{10, 40, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 30, 5, 16}, ws: []int{7, 30, 3, 3}, strides: []int64{1, 2}, pads: []int64{1, 1, 1, 1}, act: model.ActSigmoid, direct: true},
		// Whole tiles, several channel blocks, three blocks of steps
		// (blocks of steps outermost).
		{xs: []int{1, 64, 6, 32}, ws: []int{26, 64, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		// One spatial dim.
		{xs: []int{2, 3, 50}, ws: []int{5, 3, 5}, pads: []int64{2, 2}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 3, 61}, ws: []int{4, 3, 3}, strides: []int64{2}, dils: []int64{2}, bias: true, direct: true},
		// Windows longer than directShortK on rows whose last tile is
		// at least three quarters full; input shapes unknown at load.
		{xs: []int{1, 128, 5, 14}, ws: []int{7, 128, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 3, 10, 20}, ws: []int{6, 3, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, dynamic: true, direct: true},
		{xs: []int{1, 128, 4, 16}, ws: []int{3, 128, 3, 3}, pads: []int64{1, 1, 1, 1}, dynamic: true},
		// Inputs larger than a band of rows (directBandBytes): the
		// rows run band by band, flat and row by row, strided too.
		{xs: []int{1, 64, 40, 300}, ws: []int{8, 64, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 32, 41, 600}, ws: []int{5, 32, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, bias: true, direct: true},
		// Rows shorter than half a tile run flat when at least half the
		// padded width is kept, with unit row stride.
		{xs: []int{1, 3, 6, 6}, ws: []int{4, 3, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, direct: true},
		{xs: []int{1, 96, 10, 2}, ws: []int{96, 96, 1, 3}, pads: []int64{0, 1, 0, 1}, bias: true, act: model.ActRelu, direct: true},
		// Not taken: narrow rows of row stride 2 or mostly padding, 3-D,
		// pointwise, depthwise, a long window on rows of 8.
		{xs: []int{1, 3, 12, 12}, ws: []int{4, 3, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, bias: true},
		{xs: []int{1, 3, 6, 1}, ws: []int{4, 3, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true},
		{xs: []int{1, 2, 3, 9, 9}, ws: []int{3, 2, 2, 3, 3}, bias: true},
		{xs: []int{1, 8, 9, 20}, ws: []int{5, 8, 1, 1}, bias: true},
		{xs: []int{1, 4, 9, 20}, ws: []int{4, 1, 3, 3}, group: 4, pads: []int64{1, 1, 1, 1}},
		{xs: []int{1, 128, 4, 8}, ws: []int{3, 128, 3, 3}, pads: []int64{1, 1, 1, 1}},
		{xs: []int{1, 600, 4, 16}, ws: []int{3, 600, 3, 3}, pads: []int64{1, 1, 1, 1}},
		// Column stride 3 with work enough for two threads, whose parts
		// copy the input rows in two ranges.
		{xs: []int{1, 16, 61, 90}, ws: []int{12, 16, 3, 4}, strides: []int64{3, 3}, pads: []int64{1, 1, 1, 2}, bias: true, act: model.ActRelu, direct: true},
	}
}

// buildDirectCase builds c's Conv kernel as LoadModel does (constant
// weights and bias, the activation fused) on pool (nil: one thread), and
// returns it with its inputs and a sized output.
func buildDirectCase(tb testing.TB, c directCase, seed uint64, pool *workerPool) (*convKernel, []*tensor, *tensor) {
	tb.Helper()
	r := nnRng(seed)
	nd := len(c.xs) - 2
	group := max(c.group, 1)
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
	_ = nd
	ins := []*tensor{mk(c.xs, nnRand(r, nnProd(c.xs))), mk(c.ws, nnRand(r, nnProd(c.ws)))}
	names := []string{"x", "w"}
	if c.bias {
		ins = append(ins, mk([]int{c.ws[0]}, nnRand(r, c.ws[0])))
		names = append(names, "b")
	}
	n := node("Conv", names, attrs...)
	if c.act != "" {
		n.Fused = &model.Fusion{Act: c.act, Params: c.params}
	}
	g := model.NewGraph()
	g.Opset = 17
	bc := &buildCtx{g: g, n: n, opset: 17, gemm: newGemmCtx(pool)}
	for i, t := range ins {
		bc.in = append(bc.in, model.ValueInfo{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), RankKnown: true})
		if i == 0 && c.dynamic {
			for j := 2; j < len(t.shape); j++ {
				bc.in[0].Shape[j] = -1
			}
		}
		if i > 0 {
			g.Initializers[n.Input(i)] = &model.Tensor{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), Raw: t.data}
		}
	}
	bc.out = []model.ValueInfo{{Name: "y", DType: ins[0].dt}}
	k, err := buildKernel(bc)
	if err != nil {
		tb.Fatal(err)
	}
	out := &tensor{dt: ins[0].dt}
	if err := newOutShaper(bc, k).shapes(ins, []*tensor{out}); err != nil {
		tb.Fatal(err)
	}
	return k.(*convKernel), ins, out
}

// directCaseWant returns the reference convolution of c's built kernel
// k on ins, the fused activation applied in float32.
func directCaseWant(k *convKernel, c directCase, ins []*tensor, out *tensor) []float64 {
	nd := len(c.xs) - 2
	s, d, pb := make([]int, nd), make([]int, nd), make([]int, nd)
	for j := range nd {
		s[j], d[j] = k.g.s[maxSpatial-nd+j], k.g.d[maxSpatial-nd+j]
		pb[j] = k.g.pb[maxSpatial-nd+j]
	}
	var b []float32
	if c.bias {
		b = ins[2].f32()
	}
	want := refConv(ins[0].f32(), c.xs, ins[1].f32(), c.ws, b, max(c.group, 1), s, d, pb, out.shape[2:])
	if k.ep != nil {
		w32 := make([]float32, len(want))
		for j, v := range want {
			w32[j] = float32(v)
		}
		k.ep.act.apply(w32)
		for j, v := range w32 {
			want[j] = float64(v)
		}
	}
	return want
}

// runGuarded runs k into out's data placed between guard cells, checks
// the guards, and returns a copy of the output.
func runGuarded(t *testing.T, k *convKernel, ins []*tensor, out *tensor) []float32 {
	t.Helper()
	const guard = 37
	n := out.numel()
	buf := make([]float32, n+2*guard)
	for i := range buf {
		buf[i] = -1234.5
	}
	out.data = unsafe.Slice((*byte)(unsafe.Pointer(&buf[guard])), 4*n)
	if err := k.run(ins, []*tensor{out}); err != nil {
		t.Fatal(err)
	}
	for i := range guard {
		if buf[i] != -1234.5 || buf[guard+n+i] != -1234.5 {
			t.Fatalf("guard cell %d written", i)
		}
	}
	return append([]float32(nil), buf[guard:guard+n]...)
}

// TestDirectConv checks the direct path against the reference
// convolution, and bit for bit against the im2col path on the packed
// SGEMM, on one and two threads, with guard cells around the outputs.
func TestDirectConv(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for i, c := range directCases() {
		t.Run(c.String(), func(t *testing.T) {
			k, ins, out := buildDirectCase(t, c, uint64(i+1), nil)
			kdim := nnProd(c.ws[1:])
			took := k.dw32 != nil && directTakes(&k.g, kdim) && !k.g.pointwise()
			if took != c.direct {
				t.Fatalf("direct path taken: %t, want %t", took, c.direct)
			}
			// Only the layout the known shape takes is packed.
			if took && (k.pw == nil) == c.dynamic {
				t.Fatalf("SGEMM weights packed: %t, input shape known at load: %t", k.pw != nil, !c.dynamic)
			}
			got := runGuarded(t, k, ins, out)
			if nnProd(c.xs[1:]) >= 32*41*300 {
				if b, oh := k.dp.band(&k.g, c.ws[1]), k.g.out[1]; b >= oh {
					t.Fatalf("band of %d rows for %d output rows: the case must span several bands", b, oh)
				}
			}
			nnClose(t, "direct", got, directCaseWant(k, c, ins, out), 1e-5)
			// The im2col path gives the same bits.
			dw := k.dw32
			k.dw32 = nil
			ref := runGuarded(t, k, ins, out)
			k.dw32 = dw
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(ref[j]) {
					t.Fatalf("element %d: direct %v, im2col %v", j, got[j], ref[j])
				}
			}
			// So does a second thread.
			k2, ins2, out2 := buildDirectCase(t, c, uint64(i+1), pool)
			got2 := runGuarded(t, k2, ins2, out2)
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(got2[j]) {
					t.Fatalf("element %d: %v on one thread, %v on two", j, got[j], got2[j])
				}
			}
		})
	}
}

// TestDirectKernels compares every direct kernel, for every flag, with
// directGo and with a float64 sum, with guard cells around the tile.
func TestDirectKernels(t *testing.T) {
	r := nnRng(7)
	// Tiles: one, then two rows of three tiles, xrow and crow apart.
	tilings := [][4]int{{1, 1, 0, 0}, {2, 3, 3*directNR + 7, 3*directNR + 2}}
	for rows := 1; rows <= directMR; rows++ {
		for _, kc := range []int{1, 3, 27, 144, gemmKC} {
			for flags := range 8 {
				tl := tilings[(rows+kc+flags)%2]
				nr, nt, xrow, crow := tl[0], tl[1], tl[2], tl[3]
				const guard = 8
				ldc := nr*max(crow, directNR) + 5
				x := nnRand(r, 4*kc+(nr-1)*xrow+nt*directNR)
				offs := make([]int, kc)
				for p := range offs {
					offs[p] = r.IntN(4*kc + 1)
				}
				a, bias := nnRand(r, kc*rows), nnRand(r, rows)
				c0 := nnRand(r, guard+rows*ldc+guard)
				for name, k := range map[string]func(int, int, *float32, *float32, *int, *float32, int, int, *float32, int, int, int, int){"kernel": directKernel, "go": directGo} {
					c := append([]float32(nil), c0...)
					k(rows, kc, &a[0], &x[0], &offs[0], &c[guard], ldc, flags, &bias[0], nr, nt, xrow, crow)
					for j := range c {
						i, col := (j-guard)/ldc, (j-guard)%ldc
						row, tc := col/max(crow, 1), col%max(crow, 1)
						if nr == 1 {
							row, tc = 0, col
						}
						if j < guard || i >= rows || row >= nr || tc >= nt*directNR {
							if c[j] != c0[j] {
								t.Fatalf("r%d kc%d flags%d %s: guard cell %d written", rows, kc, flags, name, j)
							}
							continue
						}
						var want float64
						for p := range kc {
							want += float64(a[p*rows+i]) * float64(x[offs[p]+row*xrow+tc])
						}
						if flags&directAdd != 0 {
							want += float64(c0[j])
						}
						if flags&directBias != 0 {
							want += float64(bias[i])
						}
						if flags&directRelu != 0 {
							want = max(want, 0)
						}
						if math.Abs(float64(c[j])-want) > 1e-5*float64(kc+1) {
							t.Fatalf("r%d kc%d flags%d %s: channel %d row %d column %d = %v, want %v", rows, kc, flags, name, i, row, tc, c[j], want)
						}
					}
				}
			}
		}
	}
}

// TestDirectConvAllocs checks that the direct path allocates nothing
// after its first call, on one thread and on two.
func TestDirectConvAllocs(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for _, p := range []*workerPool{nil, pool} {
		k, ins, out := buildDirectCase(t, directCases()[0], 1, p)
		out.data = alignedBytes(4 * out.numel())
		outs := []*tensor{out}
		if err := k.run(ins, outs); err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(10, func() { _ = k.run(ins, outs) }); got != 0 {
			t.Errorf("threads %d: %v allocations per run", p.size(), got)
		}
	}
}

// TestCopyRows compares copyRows with copyRowsGo on row lengths around
// the vector width, with guard cells between and after the rows.
func TestCopyRows(t *testing.T) {
	r := nnRng(5)
	for _, n := range []int{1, 3, 7, 8, 9, 16, 17, 33} {
		for _, rows := range []int{1, 2, 5} {
			stride := n + 3
			src := nnRand(r, n*rows)
			want := nnRand(r, rows*stride+4)
			got := append([]float32(nil), want...)
			copyRowsGo(want, stride, src, n, rows)
			copyRows(got, stride, src, n, rows)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n %d rows %d: element %d = %v, want %v", n, rows, i, got[i], want[i])
				}
			}
		}
	}
}

// TestDirectConvRandom runs random geometries that the direct kernels
// take (strides, dilations, pads, groups, ragged sizes) and checks them
// bit for bit against the im2col path and against the reference.
func TestDirectConvRandom(t *testing.T) {
	r := nnRng(11)
	ran := 0
	for ran < 120 {
		group := 1 + r.IntN(2)
		kh, kw := 1+r.IntN(4), 1+r.IntN(5)
		sh, sw := 1+r.IntN(3), 1+r.IntN(4)
		dh, dw := 1+r.IntN(2), 1+r.IntN(3)
		pads := []int64{int64(r.IntN(3)), int64(r.IntN(4)), int64(r.IntN(3)), int64(r.IntN(4))}
		c := directCase{
			xs:      []int{1 + r.IntN(2), group * (1 + r.IntN(9)), 1 + r.IntN(12), 1 + r.IntN(70)},
			ws:      []int{group * (1 + r.IntN(14)), 0, kh, kw},
			strides: []int64{int64(sh), int64(sw)},
			dils:    []int64{int64(dh), int64(dw)},
			pads:    pads,
			group:   group,
			bias:    r.IntN(2) == 0,
			direct:  true,
		}
		c.ws[1] = c.xs[1] / group
		if r.IntN(2) == 0 {
			c.act = model.ActRelu
		}
		oh := (c.xs[2]+int(pads[0]+pads[2])-(kh-1)*dh-1)/sh + 1
		ow := (c.xs[3]+int(pads[1]+pads[3])-(kw-1)*dw-1)/sw + 1
		if oh < 1 || ow < directNR/2 || c.xs[2]+int(pads[0]+pads[2]) < (kh-1)*dh+1 || kh*kw == 1 || (c.ws[0] == group && c.ws[1] == 1) {
			continue
		}
		ran++
		k, ins, out := buildDirectCase(t, c, uint64(ran), nil)
		if k.dw32 == nil || !directTakes(&k.g, c.ws[1]*kh*kw) {
			t.Fatalf("%v: not taken by the direct kernels", c)
		}
		got := runGuarded(t, k, ins, out)
		var b []float32
		if c.bias {
			b = ins[2].f32()
		}
		want := refConv(ins[0].f32(), c.xs, ins[1].f32(), c.ws, b, group, []int{sh, sw}, []int{dh, dw}, []int{int(pads[0]), int(pads[1])}, out.shape[2:])
		if c.act == model.ActRelu {
			for j, v := range want {
				want[j] = max(v, 0)
			}
		}
		nnClose(t, c.String(), got, want, 1e-5)
		k.dw32 = nil
		ref := runGuarded(t, k, ins, out)
		for j := range got {
			if math.Float32bits(got[j]) != math.Float32bits(ref[j]) {
				t.Fatalf("%v: element %d: direct %v, im2col %v", c, j, got[j], ref[j])
			}
		}
	}
}
