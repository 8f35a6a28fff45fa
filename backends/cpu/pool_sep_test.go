package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// TestPoolRowsMatchesGo checks the assembly row folds (AVX2, and AVX-512
// where the CPU has it) bit for bit against their Go twins on random
// taps, widths, rows and planes, with NaNs, infinities and signed zeros
// in the input and guard cells around every output row.
func TestPoolRowsMatchesGo(t *testing.T) {
	needAsm(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("the row folds have no assembly on this architecture: the Go twin would be compared with itself")
	}
	forPoolWidths(t, testPoolRowsMatchesGo)
}

// testPoolRowsMatchesGo is TestPoolRowsMatchesGo for the kernels
// selected now.
func testPoolRowsMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1)), float32(math.Inf(1))}
	const guard = poolGuard
	for trial := range 600 {
		// Mostly narrow rows, around the eights and sixteens; every
		// fourth up to 200 wide, through the 32- and 64-column steps.
		width := 1 + r.IntN(40)
		if trial%4 == 3 {
			width = 1 + r.IntN(200)
		}
		rows := 1 + r.IntN(5)
		planes := 1 + r.IntN(3)
		spill := r.IntN(2) == 0
		ntaps := 1 + r.IntN(6)
		offs := make([]int, ntaps)
		for i := range offs {
			offs[i] = r.IntN(20)
		}
		ss := width + r.IntN(5)
		ds := width + r.IntN(3)
		if spill {
			planes, ds = 1, width
		}
		sps := rows*ss + 24 + r.IntN(5)
		dps := rows*ds + r.IntN(4)
		src := make([]float32, planes*sps)
		for i := range src {
			src[i] = r.Float32()*2 - 1
			if r.IntN(8) == 0 {
				src[i] = specials[r.IntN(len(specials))]
			}
		}
		tab := randF32s(r, planes*dps+8, 2)
		for _, op := range []string{"max", "sum", "avg"} {
			got, want := make([]float32, planes*dps+1), make([]float32, planes*dps+1)
			for i := range got {
				got[i], want[i] = guard, guard
			}
			switch op {
			case "max":
				poolRowsMax(got, src, offs, width, rows, ds, ss, planes, dps, sps, -math.MaxFloat32, spill)
				poolRowsMaxGo(want, src, offs, width, rows, ds, ss, planes, dps, sps, -math.MaxFloat32)
			case "sum":
				poolRowsSum(got, src, offs, width, rows, ds, ss, planes, dps, sps, spill)
				poolRowsSumGo(want, src, offs, width, rows, ds, ss, planes, dps, sps)
			default:
				poolRowsAvg(got, src, offs, width, rows, ds, ss, planes, dps, sps, tab, spill)
				poolRowsAvgGo(want, src, offs, width, rows, ds, ss, planes, dps, sps, tab)
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("trial %d (%s, width %d rows %d planes %d spill %v offs %v): cell %d = %v, want %v",
						trial, op, width, rows, planes, spill, offs, i, got[i], want[i])
				}
			}
		}
	}
}

// TestPoolDeintMatchesGo checks the two-phase split against its Go twin,
// with guard cells, under each width of the pooling kernels.
func TestPoolDeintMatchesGo(t *testing.T) {
	needAsm(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("no assembly on this architecture: the Go twin would be compared with itself")
	}
	forPoolWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(43, 44))
		for h := range 70 {
			src := randF32s(r, 2*h+3, 4)
			got, want := make([]float32, 2*h+2), make([]float32, 2*h+2)
			got[2*h], got[2*h+1], want[2*h], want[2*h+1] = poolGuard, poolGuard, poolGuard, poolGuard
			poolDeint(got, src, 2, h)
			poolDeintGo(want, src, 2, h)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("deint h=%d: cell %d = %v, want %v", h, i, got[i], want[i])
				}
			}
		}
	})
}

// poolSepCases are windows of every kind the separable pooling takes.
var poolSepCases = []struct {
	shape               []int
	kern, str, pad, dil []int64
	incl, ceil          int64
	autoPad             string
}{
	{shape: []int{1, 3, 14, 14}, kern: []int64{3, 3}, str: []int64{2, 2}, pad: []int64{1, 1, 1, 1}},
	{shape: []int{2, 5, 28, 28}, kern: []int64{3, 3}, str: []int64{1, 1}, pad: []int64{1, 1, 1, 1}},
	{shape: []int{1, 4, 21, 19}, kern: []int64{5, 5}, str: []int64{1, 1}, pad: []int64{2, 2, 2, 2}},
	{shape: []int{1, 3, 14, 14}, kern: []int64{2, 2}, str: []int64{2, 2}},
	{shape: []int{1, 3, 15, 17}, kern: []int64{2, 2}, str: []int64{2, 2}, ceil: 1},
	{shape: []int{1, 2, 11, 13}, kern: []int64{3, 3}, str: []int64{2, 2}, pad: []int64{1, 1, 1, 1}, incl: 1},
	{shape: []int{1, 4, 9, 10}, kern: []int64{2, 4}, str: []int64{1, 3}, pad: []int64{0, 2, 1, 3}, incl: 1, ceil: 1},
	{shape: []int{1, 4, 9, 10}, kern: []int64{2, 4}, str: []int64{1, 3}, pad: []int64{0, 2, 1, 3}, ceil: 1},
	{shape: []int{1, 3, 30, 31}, kern: []int64{3, 3}, str: []int64{1, 2}, dil: []int64{2, 3}, pad: []int64{2, 1, 2, 3}},
	{shape: []int{1, 2, 7, 5}, kern: []int64{7, 5}, str: []int64{1, 1}, pad: []int64{3, 2, 3, 2}},
	{shape: []int{1, 2, 6, 6}, kern: []int64{3, 3}, str: []int64{3, 3}, pad: []int64{2, 2, 2, 2}, ceil: 1},
	{shape: []int{2, 3, 40}, kern: []int64{5}, str: []int64{2}, pad: []int64{2, 2}},
	{shape: []int{1, 2, 17}, kern: []int64{3}, str: []int64{4}, dil: []int64{2}},
	{shape: []int{1, 2, 5, 6, 7}, kern: []int64{2, 3, 2}, str: []int64{1, 2, 2}, pad: []int64{1, 0, 1, 0, 1, 1}, incl: 1},
	{shape: []int{1, 2, 6, 9, 10}, kern: []int64{3, 3, 3}, str: []int64{2, 1, 2}, dil: []int64{1, 2, 1}, pad: []int64{1, 1, 1, 1, 1, 1}},
	{shape: []int{1, 3, 13, 12}, kern: []int64{3, 3}, str: []int64{2, 2}, autoPad: "SAME_UPPER"},
	{shape: []int{1, 3, 13, 12}, kern: []int64{4, 3}, str: []int64{3, 2}, autoPad: "SAME_LOWER"},
	{shape: []int{1, 3, 13, 12}, kern: []int64{4, 3}, str: []int64{3, 2}, autoPad: "VALID"},
	{shape: []int{3, 2, 64, 64}, kern: []int64{3, 3}, str: []int64{2, 2}, pad: []int64{1, 1, 1, 1}},
	{shape: []int{1, 1, 3, 3}, kern: []int64{3, 3}, str: []int64{1, 1}},
}

// TestPoolSepMatchesPoolRun wants the separable MaxPool to give
// poolRun's bits (a +0 and a -0 compare equal) and the separable
// AveragePool poolRun's values within float32 rounding, on every window
// of poolSepCases, with guard cells after the output.
func TestPoolSepMatchesPoolRun(t *testing.T) {
	forPoolWidths(t, testPoolSepMatchesPoolRun)
}

// testPoolSepMatchesPoolRun is TestPoolSepMatchesPoolRun for the kernels
// selected now.
func testPoolSepMatchesPoolRun(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	for _, tc := range poolSepCases {
		for _, op := range []string{"MaxPool", "AveragePool"} {
			t.Run(fmt.Sprintf("%s %v k%v s%v p%v d%v incl%d ceil%d %s", op, tc.shape, tc.kern, tc.str, tc.pad, tc.dil, tc.incl, tc.ceil, tc.autoPad), func(t *testing.T) {
				x := randT(r, 4, tc.shape...)
				xs := x.f32()
				for i := range xs {
					if r.IntN(50) == 0 {
						xs[i] = float32(math.NaN())
					}
				}
				n := node(op, []string{"x"}, aInts("kernel_shape", tc.kern...), aInts("strides", tc.str...), aInt("ceil_mode", tc.ceil))
				if tc.pad != nil {
					n.Attrs = append(n.Attrs, aInts("pads", tc.pad...))
				}
				if tc.dil != nil {
					n.Attrs = append(n.Attrs, aInts("dilations", tc.dil...))
				}
				if tc.autoPad != "" {
					n.Attrs = append(n.Attrs, aString("auto_pad", tc.autoPad))
				}
				if op == "AveragePool" {
					n.Attrs = append(n.Attrs, aInt("count_include_pad", tc.incl))
					for i := range xs {
						if math.IsNaN(float64(xs[i])) {
							xs[i] = 1
						}
					}
				}
				bc := caseCtx(nodeCase{node: n}, []*tensor{x})
				kn, err := buildKernel(bc)
				if err != nil {
					t.Fatal(err)
				}
				y := &tensor{dt: x.dt}
				if err := newOutShaper(bc, kn).shapes([]*tensor{x}, []*tensor{y}); err != nil {
					t.Fatal(err)
				}
				k := kn.(*poolKernel)
				if !k.sep.on && !maxPool2x2Fast(&k.g) {
					t.Fatalf("the separable pooling is off")
				}
				cnt := y.numel()
				y.data = alignedBytes(4 * (cnt + 8))
				got := y.f32()[:cnt+8]
				for i := range got {
					got[i] = poolGuard
				}
				if err := k.run([]*tensor{x}, []*tensor{y}); err != nil {
					t.Fatal(err)
				}
				want := make([]float32, cnt)
				poolRun(k, xs, want, nil, -math.MaxFloat32, 0, k.planes)
				for i := cnt; i < cnt+8; i++ {
					if got[i] != poolGuard {
						t.Fatalf("guard cell %d overwritten: %v", i-cnt, got[i])
					}
				}
				for i := range want {
					g, w := got[i], want[i]
					if op == "MaxPool" {
						if g != w && math.Float32bits(g) != math.Float32bits(w) {
							t.Fatalf("output %d = %v, want %v", i, g, w)
						}
						continue
					}
					if d := math.Abs(float64(g - w)); d > 1e-6*(1+math.Abs(float64(w))) {
						t.Fatalf("output %d = %v, want %v", i, g, w)
					}
				}
			})
		}
	}
}

// BenchmarkPoolSep times the pooling kernel on one thread on common
// windows (the 2×2 stride-2 MaxPools with output rows of whole eights
// take the whole-row kernel instead).
func BenchmarkPoolSep(b *testing.B) {
	r := rand.New(rand.NewPCG(47, 48))
	cases := []struct {
		name, op string
		shape    []int
		attrs    []int64 // kernel, stride, pad (square)
	}{
		{"max k3s2p1 512x14", "MaxPool", []int{1, 512, 14, 14}, []int64{3, 2, 1}},
		{"max k3s2p1 64x112", "MaxPool", []int{1, 64, 112, 112}, []int64{3, 2, 1}},
		{"max k2s2 512x14", "MaxPool", []int{1, 512, 14, 14}, []int64{2, 2, 0}},
		{"max k2s2 64x112", "MaxPool", []int{1, 64, 112, 112}, []int64{2, 2, 0}},
		{"max k2s2 128x48", "MaxPool", []int{1, 128, 48, 48}, []int64{2, 2, 0}},
		{"max k5s1p2 32x56", "MaxPool", []int{1, 32, 56, 56}, []int64{5, 1, 2}},
		{"avg k3s1p1 512x14", "AveragePool", []int{1, 512, 14, 14}, []int64{3, 1, 1}},
		{"avg k3s1p1 256x28", "AveragePool", []int{1, 256, 28, 28}, []int64{3, 1, 1}},
		{"avg k2s2 512x14", "AveragePool", []int{1, 512, 14, 14}, []int64{2, 2, 0}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			k, p := tc.attrs[0], tc.attrs[2]
			x := randT(r, 4, tc.shape...)
			n := node(tc.op, []string{"x"}, aInts("kernel_shape", k, k), aInts("strides", tc.attrs[1], tc.attrs[1]), aInts("pads", p, p, p, p))
			benchNodeRun(b, n, x)
		})
	}
}

// TestGlobalMax32MatchesLoop checks the folded GlobalMaxPool plane
// against the running maximum from the first value, on sizes around the
// 32-float blocks, with NaNs (first and later), infinities and signed
// zeros, with each width of row kernels; a +0 and a -0 compare equal.
func TestGlobalMax32MatchesLoop(t *testing.T) {
	forPoolWidths(t, testGlobalMax32MatchesLoop)
}

// testGlobalMax32MatchesLoop is TestGlobalMax32MatchesLoop for the row
// kernels selected now.
func testGlobalMax32MatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 50))
	specials := []float32{float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1)), 0, float32(math.Copysign(0, -1))}
	for _, size := range []int{1, 7, 31, 32, 33, 49, 64, 95, 196, 1000} {
		offs := make([]int, size/32)
		for i := range offs {
			offs[i] = 32 * i
		}
		for trial := range 20 {
			x := randF32s(r, size, 3)
			for i := range x {
				if r.IntN(10) == 0 {
					x[i] = specials[r.IntN(len(specials))]
				}
			}
			if trial == 0 {
				for i := range x {
					x[i] = float32(math.Inf(-1))
				}
			}
			want := x[0]
			for _, v := range x[1:] {
				if v > want {
					want = v
				}
			}
			got := globalMax32(x, offs)
			if got != want && math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("size %d trial %d: got %v, want %v", size, trial, got, want)
			}
		}
		if a := testing.AllocsPerRun(10, func() { globalMax32(randF32sNoAlloc, offs[:min(len(offs), 3)]) }); a != 0 {
			t.Errorf("size %d: %v allocations", size, a)
		}
	}
}

// randF32sNoAlloc is a plane for the allocation check.
var randF32sNoAlloc = make([]float32, 100)

// BenchmarkGlobalPool times GlobalMaxPool and GlobalAveragePool on one
// thread.
func BenchmarkGlobalPool(b *testing.B) {
	r := rand.New(rand.NewPCG(51, 52))
	for _, tc := range []struct {
		name, op string
		shape    []int
	}{
		{"max 512x7x7", "GlobalMaxPool", []int{1, 512, 7, 7}},
		{"max 256x28x28", "GlobalMaxPool", []int{1, 256, 28, 28}},
		{"avg 512x7x7", "GlobalAveragePool", []int{1, 512, 7, 7}},
		{"avg 256x28x28", "GlobalAveragePool", []int{1, 256, 28, 28}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			x := randT(r, 4, tc.shape...)
			benchNodeRun(b, node(tc.op, []string{"x"}), x)
		})
	}
}

// benchNodeRun times node n's kernel on the float32 input x, shaping
// and running it as the executor does, its output allocated once.
func benchNodeRun(b *testing.B, n *model.Node, x *tensor) {
	b.Helper()
	bc := caseCtx(nodeCase{node: n}, []*tensor{x})
	kn, err := buildKernel(bc)
	if err != nil {
		b.Fatal(err)
	}
	y := &tensor{dt: x.dt}
	s := newOutShaper(bc, kn)
	if err := s.shapes([]*tensor{x}, []*tensor{y}); err != nil {
		b.Fatal(err)
	}
	y.data = alignedBytes(4 * y.numel())
	ins, outs := []*tensor{x}, []*tensor{y}
	for b.Loop() {
		_ = s.shapes(ins, outs)
		_ = kn.run(ins, outs)
	}
}
