//go:build cuda && cgo

package hostsim

import (
	"math"
	"testing"
)

// TestGemm runs gemm_f32 with sizes that are not multiples of the tile,
// broadcast batch dimensions, a transposed B and a broadcast C.
func TestGemm(t *testing.T) {
	cases := []struct {
		name    string
		m, n, k int
		bshape  []int
		aBatch  []int // A's batch dims (1 = broadcast)
		bBatch  []int
		transB  bool
		hasC    bool
	}{
		{name: "plain", m: 37, n: 29, k: 45, hasC: false},
		{name: "batched_broadcast_transB_bias", m: 19, n: 33, k: 17, bshape: []int{2, 3}, aBatch: []int{2, 1}, bBatch: []int{1, 3}, transB: true, hasC: true},
		{name: "one_row", m: 1, n: 70, k: 300, hasC: true},
		{name: "tiny", m: 1, n: 1, k: 1},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRand(uint64(800 + ci))
			batch := numel(c.bshape)
			na, nb := numel(c.aBatch), numel(c.bBatch)
			x := randF32(r, na*c.m*c.k, -1, 1)
			w := randF32(r, nb*c.k*c.n, -1, 1)
			cv := randF32(r, c.n, -1, 1)
			a := gemmArgs{
				M: uint32(c.m), N: uint32(c.n), K: uint32(c.k), Batch: uint32(batch), BRank: uint32(len(c.bshape)),
				SAM: int32(c.k), SAK: 1, SBK: int32(c.n), SBN: 1, SCM: 0, SCN: 1,
				Alpha: 0.5, Beta: 2,
			}
			if c.transB { // B stored [n, k]
				a.SBK, a.SBN = 1, int32(c.k)
			}
			if c.hasC {
				a.HasC = 1
			}
			if len(c.bshape) > 0 {
				sa, sb := strides(c.aBatch, c.bshape), strides(c.bBatch, c.bshape)
				for d := range c.bshape {
					a.BShape[d] = int32(c.bshape[d])
					a.BSA[d] = sa[d] * int32(c.m*c.k)
					a.BSB[d] = sb[d] * int32(c.k*c.n)
				}
			}
			xb, wb, cb, yb := f32Buf("x", x), f32Buf("w", w), f32Buf("c", cv), newBuf("y", 4*batch*c.m*c.n)
			grid := [3]uint32{uint32((c.n + gemmTile - 1) / gemmTile), uint32((c.m + gemmTile - 1) / gemmTile), uint32(batch)}
			launch(t, "gemm_f32", grid, [3]uint32{gemmTile, gemmTile, 1}, a, xb, wb, cb, yb)
			y := yb.f32()
			for b := range batch {
				oa := offsetOf(b, c.bshape, a.BSA[:len(c.bshape)])
				ob := offsetOf(b, c.bshape, a.BSB[:len(c.bshape)])
				for i := range c.m {
					for j := range c.n {
						var acc, mag float64
						for k := range c.k {
							p := float64(x[oa+i*int(a.SAM)+k*int(a.SAK)]) * float64(w[ob+k*int(a.SBK)+j*int(a.SBN)])
							acc += p
							mag += math.Abs(p)
						}
						want := 0.5 * acc
						if c.hasC {
							want += 2 * float64(cv[j])
							mag += 4 * math.Abs(float64(cv[j]))
						}
						got := y[(b*c.m+i)*c.n+j]
						if math.Abs(float64(got)-want) > 1e-6*mag+1e-7 {
							t.Fatalf("batch %d [%d,%d] = %g, want %g", b, i, j, got, want)
						}
					}
				}
			}
		})
	}
}

// TestSoftmax runs softmax_f32 and its log form over a middle axis.
func TestSoftmax(t *testing.T) {
	const outer, axis, inner = 3, 11, 5
	r := newRand(900)
	x := randF32(r, outer*axis*inner, -20, 20)
	for _, useLog := range []uint32{0, 1} {
		xb, yb := f32Buf("x", x), newBuf("y", 4*len(x))
		launch1D(t, "softmax_f32", outer*inner, softmaxArgs{Outer: outer, Axis: axis, Inner: inner, UseLog: useLog}, xb, yb)
		y := yb.f32()
		for o := range outer {
			for in := range inner {
				mx := math.Inf(-1)
				for j := range axis {
					mx = max(mx, float64(x[(o*axis+j)*inner+in]))
				}
				var sum float64
				for j := range axis {
					sum += math.Exp(float64(x[(o*axis+j)*inner+in]) - mx)
				}
				for j := range axis {
					i := (o*axis+j)*inner + in
					v := float64(x[i]) - mx
					want := math.Exp(v) / sum
					if useLog != 0 {
						want = v - math.Log(sum)
					}
					if !closeTo(y[i], want, 1e-6, 1e-6) {
						t.Fatalf("log=%d: element %d = %g, want %g", useLog, i, y[i], want)
					}
				}
			}
		}
	}
}

// TestLayerNorm runs layernorm_f32 with and without a bias.
func TestLayerNorm(t *testing.T) {
	const rows, cols = 7, 33
	r := newRand(1000)
	x := randF32(r, rows*cols, -3, 5)
	s := randF32(r, cols, 0.5, 1.5)
	bias := randF32(r, cols, -1, 1)
	for _, hasBias := range []uint32{0, 1} {
		xb, sb, bb, yb := f32Buf("x", x), f32Buf("s", s), f32Buf("b", bias), newBuf("y", 4*len(x))
		launch1D(t, "layernorm_f32", rows, layerNormArgs{Rows: rows, Cols: cols, Eps: 1e-5, HasBias: hasBias}, xb, sb, bb, yb)
		y := yb.f32()
		for i := range rows {
			row := x[i*cols : (i+1)*cols]
			var mean, vr float64
			for _, v := range row {
				mean += float64(v)
			}
			mean /= cols
			for _, v := range row {
				vr += (float64(v) - mean) * (float64(v) - mean)
			}
			vr /= cols
			for j, v := range row {
				want := (float64(v) - mean) / math.Sqrt(vr+1e-5) * float64(s[j])
				if hasBias != 0 {
					want += float64(bias[j])
				}
				if !closeTo(y[i*cols+j], want, 1e-5, 1e-5) {
					t.Fatalf("bias=%d: [%d,%d] = %g, want %g", hasBias, i, j, y[i*cols+j], want)
				}
			}
		}
	}
}

// TestBatchNorm runs batchnorm_f32 over [2, 5, 7].
func TestBatchNorm(t *testing.T) {
	const n, c, inner = 2, 5, 7
	r := newRand(1100)
	x := randF32(r, n*c*inner, -3, 3)
	s, b, mean := randF32(r, c, 0.5, 2), randF32(r, c, -1, 1), randF32(r, c, -1, 1)
	vr := randF32(r, c, 0.1, 3)
	xb, yb := f32Buf("x", x), newBuf("y", 4*len(x))
	launch1D(t, "batchnorm_f32", len(x), batchNormArgs{N: uint32(len(x)), C: c, Inner: inner, Eps: 1e-3},
		xb, f32Buf("s", s), f32Buf("b", b), f32Buf("mean", mean), f32Buf("var", vr), yb)
	for i, got := range yb.f32() {
		ch := (i / inner) % c
		want := (float64(x[i])-float64(mean[ch]))/math.Sqrt(float64(vr[ch])+1e-3)*float64(s[ch]) + float64(b[ch])
		if !closeTo(got, want, 1e-6, 1e-6) {
			t.Fatalf("element %d = %g, want %g", i, got, want)
		}
	}
}

// TestReduce runs every reduce_f32 op over two non-adjacent axes and over
// the last axis.
func TestReduce(t *testing.T) {
	shape := []int{4, 5, 6}
	r := newRand(1200)
	x := randF32(r, numel(shape), -5, 5)
	layouts := []struct {
		name                             string
		oshape, ostride, rshape, rstride []int32
	}{
		{"axes_0_2", []int32{1, 5, 1}, []int32{0, 6, 0}, []int32{4, 1, 6}, []int32{30, 0, 1}},
		{"axis_2", []int32{4, 5, 1}, []int32{30, 6, 0}, []int32{1, 1, 6}, []int32{0, 0, 1}},
	}
	for _, l := range layouts {
		n := int(l.oshape[0] * l.oshape[1] * l.oshape[2])
		nred := int(l.rshape[0] * l.rshape[1] * l.rshape[2])
		for op := rSum; op <= rMin; op++ {
			xb, yb := f32Buf("x", x), newBuf("y", 4*n)
			a := reduceArgs{N: uint32(n), Op: op, Rank: 3, NRed: uint32(nred),
				OShape: fill6(l.oshape), OStride: fill6(l.ostride), RShape: fill6(l.rshape), RStride: fill6(l.rstride)}
			launch1D(t, "reduce_f32", n, a, xb, yb)
			os, rs := []int{int(l.oshape[0]), int(l.oshape[1]), int(l.oshape[2])}, []int{int(l.rshape[0]), int(l.rshape[1]), int(l.rshape[2])}
			for g, got := range yb.f32() {
				base := offsetOf(g, os, l.ostride)
				acc := 0.0
				switch op {
				case rMax:
					acc = math.Inf(-1)
				case rMin:
					acc = math.Inf(1)
				}
				for j := range nred {
					v := float64(x[base+offsetOf(j, rs, l.rstride)])
					switch op {
					case rMax:
						acc = max(acc, v)
					case rMin:
						acc = min(acc, v)
					default:
						acc += v
					}
				}
				if op == rMean {
					acc /= float64(nred)
				}
				if !closeTo(got, acc, 1e-6, 1e-5) {
					t.Fatalf("%s op %d: element %d = %g, want %g", l.name, op, g, got, acc)
				}
			}
		}
	}
}
