package cpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// halfPair is a half kernel set and the float32 set it must match bit for
// bit on widened panels: the assembly sets go together, and so do the
// pure-Go ones.
type halfPair struct {
	name string
	f32  [gemmMR]kernelRow
	half halfSet
	rb4  func(kc int, a, b *float32, bstride int, dst *float32)
}

// halfPairs lists the pairs this build can run for format k.
func halfPairs(k halfKind) []halfPair {
	ps := []halfPair{{name: "go", f32: goKernels(), half: goHalfKernels(k), rb4: rowBlocks4Go}}
	if hasHalfAsm(k) {
		ps = append(ps, halfPair{name: "asm", f32: asmKernels(), half: asmHalfKernels(k), rb4: rowBlocks4})
	}
	return ps
}

// randHalf returns n random values in format k: most are rounded from
// random floats, one in five is random bits (subnormals, large and small
// exponents), never an infinity or NaN.
func randHalf(r *rand.Rand, k halfKind, n int) []uint16 {
	h := k.narrowAll(nnRand(r, n))
	for i := range h {
		if i%5 != 3 {
			continue
		}
		for {
			v := uint16(r.Uint32())
			if !math.IsInf(float64(k.widen(v)), 0) && !math.IsNaN(float64(k.widen(v))) {
				h[i] = v
				break
			}
		}
	}
	return h
}

// widened returns h widened to float32.
func widened(k halfKind, h []uint16) []float32 {
	f := make([]float32, len(h))
	k.widenAll(f, h)
	return f
}

// widenedPanels returns h widened to float32 as the kernels read it:
// panels of steps steps of 16 values start at each of starts, and their
// steps are widened by widenStep (bfloat16 steps are pair-interleaved);
// the values outside them are widened plainly.
func widenedPanels(k halfKind, h []uint16, starts []int, steps int) []float32 {
	f := widened(k, h)
	for _, s := range starts {
		for p := range steps {
			o := s + p*gemmNR
			k.widenStep((*[gemmNR]float32)(f[o:o+gemmNR]), h[o:o+gemmNR])
		}
	}
	return f
}

// panelStarts returns q panel starts, stride apart.
func panelStarts(q, stride int) []int {
	s := make([]int, q)
	for j := range s {
		s[j] = j * stride
	}
	return s
}

// sameBits fails t when got and want differ in any bit.
func sameBits(t *testing.T, name string, got, want []float32) {
	t.Helper()
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: cell %d is %v (%#x), want %v (%#x)", name, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// TestHalfWidenNarrow checks the conversions against x448/float16 and
// payload.BFloat16 on every 16-bit pattern, and that narrowing rounds to
// nearest even.
func TestHalfWidenNarrow(t *testing.T) {
	for h := range 1 << 16 {
		u := uint16(h)
		f, b := halfF16.widen(u), halfBF16.widen(u)
		if want := float16.Frombits(u).Float32(); math.Float32bits(f) != math.Float32bits(want) {
			t.Fatalf("float16 %#04x widens to %v, want %v", u, f, want)
		}
		if want := payload.BFloat16(u).Float32(); math.Float32bits(b) != math.Float32bits(want) {
			t.Fatalf("bfloat16 %#04x widens to %v, want %v", u, b, want)
		}
		if !math.IsNaN(float64(f)) && halfF16.narrow(f) != u {
			t.Fatalf("float16 %#04x does not survive a round trip", u)
		}
		if !math.IsNaN(float64(b)) && halfBF16.narrow(b) != u {
			t.Fatalf("bfloat16 %#04x does not survive a round trip", u)
		}
	}
	tests := []struct {
		k    halfKind
		in   float32
		want uint16
	}{
		{halfF16, 1 + 1.0/2048, 0x3c00},         // tie, to even (down)
		{halfF16, 1 + 3.0/2048, 0x3c02},         // tie, to even (up)
		{halfF16, 70000, 0x7c00},                // past the largest: +Inf
		{halfBF16, 1 + 1.0/256, 0x3f80},         // tie, to even (down)
		{halfBF16, 1 + 3.0/256, 0x3f82},         // tie, to even (up)
		{halfBF16, math.MaxFloat32, 0x7f80},     // rounds up to +Inf
		{halfBF16, -1 - 1.0/128 - 1e-7, 0xbf81}, // just below a tie: nearest
	}
	for _, tc := range tests {
		if got := tc.k.narrow(tc.in); got != tc.want {
			t.Errorf("%s(%v) = %#04x, want %#04x", tc.k, tc.in, got, tc.want)
		}
	}
}

// TestHalfWidenAll checks the vector widening against the scalar one on
// every 16-bit pattern, at ragged lengths and offsets, with guard cells.
func TestHalfWidenAll(t *testing.T) {
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i * 40503) // every pattern once, shuffled
	}
	for _, k := range []halfKind{halfF16, halfBF16} {
		var st [gemmNR]float32
		k.widenStep(&st, src[:gemmNR])
		for i := range gemmNR {
			j := i // column i is at word j
			if k == halfBF16 {
				j = 2*i - (gemmNR-1)*(i/(gemmNR/2))
			}
			if math.Float32bits(st[i]) != math.Float32bits(k.widen(src[j])) {
				t.Fatalf("%s widenStep: column %d is %v, want word %d, %v", k, i, st[i], j, k.widen(src[j]))
			}
		}
		want := make([]float32, len(src))
		for i, h := range src {
			want[i] = k.widen(h)
		}
		for _, cut := range [][2]int{{0, 1 << 16}, {3, 3 + 7}, {5, 5 + 8}, {1, 1 + 61}, {9, 9 + 1000}} {
			const g = 8
			all, dst := guarded(cut[1]-cut[0], g)
			k.widenAll(dst, src[cut[0]:cut[1]])
			checkGuards(t, k.String(), all, g, 1, len(dst), len(dst))
			sameBits(t, fmt.Sprintf("%s [%d:%d]", k, cut[0], cut[1]), dst, want[cut[0]:cut[1]])
		}
	}
}

// TestHalfMicroKernels runs every half micro-kernel (wide, one, the
// six-row direct one and rowBlocks4) against its float32 twin on the
// widened panels, bit for bit, on random depths, storing and adding, with
// guard cells around C.
func TestHalfMicroKernels(t *testing.T) {
	r := nnRng(41)
	for _, k := range []halfKind{halfF16, halfBF16} {
		for _, pr := range halfPairs(k) {
			for ri := range gemmMR {
				rows := ri + 1
				kh, kf := pr.half.rows[ri], pr.f32[ri]
				for _, q := range []int{kf.q, 1} {
					fh, ff := kh.wide, kf.wide
					if q == 1 {
						fh, ff = kh.one, kf.one
					}
					for _, kc := range []int{0, 1, 2, 7, 64, 255, 256} {
						for _, add := range []int{0, 1} {
							name := fmt.Sprintf("%s %s r%d q%d kc%d add%d", k, pr.name, rows, q, kc, add)
							ps := kc*gemmNR + 5
							a := nnRand(r, kc*rows+1)
							bh := randHalf(r, k, q*ps+1)
							bf := widenedPanels(k, bh, panelStarts(q, ps), kc)
							ldc := q*gemmNR + 3
							const g = 8
							allH, cH := guarded((rows-1)*ldc+q*gemmNR, g)
							allF, cF := guarded((rows-1)*ldc+q*gemmNR, g)
							c0 := nnRand(r, len(cH))
							for i := range rows {
								copy(cH[i*ldc:i*ldc+q*gemmNR], c0[i*ldc:])
								copy(cF[i*ldc:i*ldc+q*gemmNR], c0[i*ldc:])
							}
							fh(kc, &a[0], &bh[0], ps, &cH[0], ldc, add)
							ff(kc, &a[0], &bf[0], ps, &cF[0], ldc, add)
							checkGuards(t, name, allH, g, rows, q*gemmNR, ldc)
							sameBits(t, name, allH, allF)
							if rows == gemmMR && q == 1 && kh.direct != nil {
								// The same tile with A read in place.
								lda := kc + 3
								ad := make([]float32, (gemmMR-1)*lda+kc+1)
								for i := range gemmMR {
									for p := range kc {
										ad[i*lda+p] = a[p*gemmMR+i]
									}
								}
								allD, cD := guarded(len(cH), g)
								for i := range rows {
									copy(cD[i*ldc:i*ldc+gemmNR], c0[i*ldc:])
								}
								kh.direct(kc, &ad[0], &bh[0], ps, &cD[0], ldc, add, lda)
								sameBits(t, name+" direct", allD, allF)
							}
						}
					}
				}
			}
			for _, tc := range []struct{ kc, bstride int }{{1, 16}, {7, 7 * 16}, {33, 40 * 16}, {256, 256*32 + 3}} {
				name := fmt.Sprintf("%s %s rowBlocks4 kc%d", k, pr.name, tc.kc)
				a := nnRand(r, 4*tc.kc)
				bh := randHalf(r, k, 3*tc.bstride+tc.kc*gemmNR)
				bf := widenedPanels(k, bh, panelStarts(4, tc.bstride), tc.kc)
				const g = 8
				allH, cH := guarded(4*gemmNR, g)
				allF, cF := guarded(4*gemmNR, g)
				saved := microKernels
				microKernels = pr.f32
				pr.rb4(tc.kc, &a[0], &bf[0], tc.bstride, &cF[0])
				microKernels = saved
				pr.half.rowBlocks4(tc.kc, &a[0], &bh[0], tc.bstride, &cH[0])
				checkGuards(t, name, allH, g, 1, 4*gemmNR, 4*gemmNR)
				sameBits(t, name, allH, allF)
			}
		}
	}
}

// TestHalfSgemm runs whole products with half B (and half prepacked A)
// against the same products on the weights rounded to half and widened
// back, in float32, bit for bit, and against a float64 reference,
// with every kernel pair, on random ragged sizes, one to three threads,
// with guard cells around C.
func TestHalfSgemm(t *testing.T) {
	r := nnRng(42)
	sizes := []int{1, 2, 5, 6, 7, 13, 16, 17, 33, 97, 100}
	ks := []int{1, 3, 16, 255, 256, 257, 600, 1100}
	pools := map[int]*workerPool{1: nil, 2: newWorkerPool(2), 3: newWorkerPool(3)}
	defer func() {
		for _, p := range pools {
			p.close()
		}
	}()
	for i := range 60 {
		m, n, kk := sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))], ks[r.IntN(len(ks))]
		if i%10 == 0 {
			m, n = 200+r.IntN(60), 300+r.IntN(40)
		}
		if i%7 == 1 {
			// The one-row paths: rowBlocks when k spans several blocks
			// and n few panels.
			m, kk = 1, []int{600, 1100, 257, 2048}[i/7%4]
		}
		hk := halfKind(1 + i%2)
		threads := 1 + i%3
		transB, halfA := i%3 == 1, i%4 == 2
		alpha, beta := float32(1), float32(0)
		if i%5 == 4 {
			alpha, beta = 0.5, 1
		}
		ldb := n + i%2
		if transB {
			ldb = kk + 1
		}
		br, bc := matDims(kk, n, transB)
		b := nnRand(r, (br-1)*ldb+bc)
		a := nnRand(r, m*kk)
		c0 := nnRand(r, m*n)
		bh := prepackBHalf(b, ldb, transB, kk, n, hk)
		gbH := gemmB{half: bh, hk: hk}
		// The float32 twin multiplies B rounded to hk and back, packed
		// by the call: this checks the half layout too.
		bq := widened(hk, hk.narrowAll(b))
		gbF := gemmB{data: bq, ld: ldb, trans: transB}
		gaH, gaF := gemmA{data: a, ld: kk}, gemmA{data: a, ld: kk}
		if halfA {
			ah := prepackAHalf(a, kk, false, alpha, m, kk, hk)
			gaH, gaF = gemmA{half: ah, hk: hk}, gemmA{packed: widened(hk, ah)}
		}
		name := fmt.Sprintf("%s m%d n%d k%d transB %t halfA %t alpha %v threads %d", hk, m, n, kk, transB, halfA, alpha, threads)
		for _, pr := range halfPairs(hk) {
			savedF, savedH, savedR := microKernels, halfKernels[hk], rowBlocks4
			microKernels, halfKernels[hk], rowBlocks4 = pr.f32, pr.half, pr.rb4
			const g = 16
			allH, cH := guarded(m*n, g)
			allF, cF := guarded(m*n, g)
			copy(cH, c0)
			copy(cF, c0)
			newGemmCtx(pools[threads]).run(m, n, kk, alpha, gaH, gbH, beta, cH, n)
			newGemmCtx(pools[threads]).run(m, n, kk, alpha, gaF, gbF, beta, cF, n)
			microKernels, halfKernels[hk], rowBlocks4 = savedF, savedH, savedR
			checkGuards(t, pr.name+" "+name, allH, g, m, n, n)
			sameBits(t, pr.name+" "+name, allH, allF)
			if !halfA {
				want := refGemm(false, transB, m, n, kk, float64(alpha), a, kk, bq, ldb, float64(beta), c0, n)
				nnClose(t, pr.name+" "+name+" against float64", cH, want, 2e-5*math.Sqrt(float64(kk)))
			}
		}
	}
}

// TestHalfSgemmAllocs checks that a product with half weights allocates
// nothing, on one thread and on two.
func TestHalfSgemmAllocs(t *testing.T) {
	r := nnRng(43)
	p2 := newWorkerPool(2)
	defer p2.close()
	for _, mnk := range [][3]int{{1, 512, 784}, {64, 512, 300}, {1, 10, 2048}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		a, c := nnRand(r, m*k), make([]float32, m*n)
		for _, hk := range []halfKind{halfF16, halfBF16} {
			gb := gemmB{half: prepackBHalf(nnRand(r, k*n), n, false, k, n, hk), hk: hk}
			for _, pool := range []*workerPool{nil, p2} {
				gc := newGemmCtx(pool)
				run := func() { gc.run(m, n, k, 1, gemmA{data: a, ld: k}, gb, 0, c, n) }
				run()
				if got := testing.AllocsPerRun(20, run); got != 0 {
					t.Errorf("%s m%d n%d k%d threads %d: %v allocations per call", hk, m, n, k, pool.size(), got)
				}
			}
		}
	}
}

// TestWeightTypeOption checks which compute.Options.WeightType values
// are accepted.
func TestWeightTypeOption(t *testing.T) {
	tests := []struct {
		dt   payload.DType
		want halfKind
		err  bool
	}{
		{0, halfNone, false},
		{payload.Float32, halfNone, false},
		{payload.Float16, halfF16, false},
		{payload.BF16, halfBF16, false},
		{payload.Float64, 0, true},
		{payload.Int8, 0, true},
		{payload.DType(200), 0, true},
	}
	for _, tc := range tests {
		got, err := weightHalf(tc.dt)
		if tc.err {
			if err == nil || !errors.Is(err, compute.ErrUnsupported) {
				t.Errorf("WeightType %v: error %v, want ErrUnsupported", tc.dt, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("WeightType %v: %v, %v; want %v", tc.dt, got, err, tc.want)
		}
	}
}

// TestLoadModelWeightType checks that LoadModel and Check refuse a
// WeightType other than float32, float16 and bfloat16, naming it, and
// that the accepted ones load.
func TestLoadModelWeightType(t *testing.T) {
	art, err := artifacts.FromBytes(sharedWeightsModel(), "weights.onnx")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dt     payload.DType
		wantOK bool
	}{
		{0, true}, {payload.Float32, true}, {payload.Float16, true}, {payload.BF16, true},
		{payload.Float64, false}, {payload.Int8, false}, {payload.Uint16, false},
	}
	for _, tc := range tests {
		opts := compute.Options{WeightType: tc.dt}
		m, err := New[f32, f32](opts).LoadModel(art)
		issues := Check(art, opts)
		if tc.wantOK {
			if err != nil || len(issues) != 0 {
				t.Errorf("WeightType %v: LoadModel error %v, Check %v", tc.dt, err, issues)
			}
			if m != nil {
				_ = m.Close()
			}
			continue
		}
		if !errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), tc.dt.String()) {
			t.Errorf("WeightType %v: LoadModel error %v, want ErrUnsupported naming %s", tc.dt, err, tc.dt)
		}
		if len(issues) != 1 || !errors.Is(issues[0].Err, compute.ErrUnsupported) {
			t.Errorf("WeightType %v: Check gives %v, want one ErrUnsupported", tc.dt, issues)
		}
	}
}

// halfRangeModel returns a model whose op (Gemm or Conv) has a weight
// named "w" holding big among small values.
func halfRangeModel(op string, big float32) []byte {
	var g onnxbuild.Graph
	switch op {
	case "Gemm":
		w := make([]float32, 16)
		w[5] = big
		g = onnxbuild.Graph{
			Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 4)},
			Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 4)},
			Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{4, 4}, w)},
			Nodes:        []onnxbuild.Node{{Op: "Gemm", Inputs: []string{"x", "w"}, Outputs: []string{"y"}}},
		}
	default:
		w := make([]float32, 2*9)
		w[11] = big
		g = onnxbuild.Graph{
			Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 1, 4, 4)},
			Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 2, 2, 2)},
			Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("w", []int64{2, 1, 3, 3}, w)},
			Nodes:        []onnxbuild.Node{{Op: "Conv", Inputs: []string{"x", "w"}, Outputs: []string{"y"}}},
		}
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// TestHalfWeightRange checks that float16 weights refuse a weight beyond
// float16's range, naming it, and that bfloat16 and values that round
// to float16's largest load.
func TestHalfWeightRange(t *testing.T) {
	tests := []struct {
		op     string
		big    float32
		wt     payload.DType
		wantOK bool
	}{
		{"Gemm", 1e5, payload.Float16, false},
		{"Gemm", -65520, payload.Float16, false},
		{"Gemm", 65519, payload.Float16, true},
		{"Gemm", 1e5, payload.BF16, true},
		{"Gemm", float32(math.Inf(1)), payload.Float16, true},
		{"Conv", 7e4, payload.Float16, false},
		{"Conv", 7e4, payload.BF16, true},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s %v as %s", tc.op, tc.big, tc.wt)
		art, err := artifacts.FromBytes(halfRangeModel(tc.op, tc.big), tc.op+".onnx")
		if err != nil {
			t.Fatal(err)
		}
		m, err := New[f32, f32](compute.Options{WeightType: tc.wt}).LoadModel(art)
		if tc.wantOK {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else {
				_ = m.Close()
			}
			continue
		}
		if !errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), `"w"`) || !strings.Contains(err.Error(), "float16") {
			t.Errorf("%s: error %v, want ErrUnsupported naming weight \"w\" and float16", name, err)
		}
	}
}
