//go:build cuda && cgo

package hostsim

import (
	"bytes"
	"math"
	"testing"
)

// TestCopy runs the strided copies (a transpose with offsets on both
// sides) for every element size, and checks that nothing outside the
// copied elements changes.
func TestCopy(t *testing.T) {
	shape := []int{3, 4, 5}           // iteration order: the input's
	sin := []int32{20, 5, 1}          // input [3,4,5]
	sout := []int32{4, 1, 12}         // output [5,3,4]
	const inOff, outOff, n = 7, 3, 60 // elements
	for _, c := range []struct {
		kernel string
		size   int
	}{{"copy_b32", 4}, {"copy_b64", 8}, {"copy_b8", 1}} {
		t.Run(c.kernel, func(t *testing.T) {
			r := newRand(uint64(500 + c.size))
			x := newBuf("x", (inOff+n)*c.size)
			for i := range x.data() {
				x.data()[i] = byte(r.Uint32())
			}
			y := newBuf("y", (outOff+n+2)*c.size)
			before := bytes.Clone(y.data())
			a := copyArgs{N: n, Rank: 3, InOff: inOff, OutOff: outOff, Shape: fill6(i32s(shape)), SIn: fill6(sin), SOut: fill6(sout)}
			launch1D(t, c.kernel, n, a, x, y)
			want := bytes.Clone(before)
			for i := range n {
				oi := inOff + offsetOf(i, shape, sin)
				oo := outOff + offsetOf(i, shape, sout)
				copy(want[oo*c.size:(oo+1)*c.size], x.data()[oi*c.size:(oi+1)*c.size])
			}
			if !bytes.Equal(y.data(), want) {
				t.Fatalf("%s wrote\n%v\nwant\n%v", c.kernel, y.data(), want)
			}
		})
	}
}

// satI32 and satI64 convert as the GPU does: toward zero, saturating,
// NaN to 0.
func satI32(v float32) int32 {
	switch {
	case v != v:
		return 0
	case v >= 1<<31:
		return math.MaxInt32
	case v < -(1 << 31):
		return math.MinInt32
	}
	return int32(v)
}

func satI64(v float32) int64 {
	switch {
	case v != v:
		return 0
	case v >= 1<<63:
		return math.MaxInt64
	case v < -(1 << 63):
		return math.MinInt64
	}
	return int64(v)
}

// TestCast runs cast_any between every pair of element types, with
// out-of-range and NaN floats saturating as on the GPU.
func TestCast(t *testing.T) {
	f := []float32{-3.75, -1, -0.5, 0, 0.25, 1, 2.5, 1e6, -123456, 7, 3e9, -3e9, 1e19, -1e19, 2147483520, -2147483648,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	n := len(f)
	i32 := make([]int32, n)
	i64 := make([]int64, n)
	bl := make([]byte, n)
	for i, v := range f {
		i32[i] = satI32(v) / 3
		i64[i] = satI64(v)/5 + int64(i)<<40
		if i%3 != 0 {
			bl[i] = byte(i)
		}
	}
	src := map[uint32]func() *dbuf{
		tF32:  func() *dbuf { return f32Buf("x", f) },
		tI32:  func() *dbuf { return i32Buf("x", i32) },
		tI64:  func() *dbuf { return i64Buf("x", i64) },
		tBool: func() *dbuf { return u8Buf("x", bl) },
	}
	load := func(from uint32, i int) float32 {
		switch from {
		case tI32:
			return float32(i32[i])
		case tI64:
			return float32(i64[i])
		case tBool:
			if bl[i] != 0 {
				return 1
			}
			return 0
		}
		return f[i]
	}
	sizes := map[uint32]int{tF32: 4, tI32: 4, tI64: 8, tBool: 1}
	for from := tF32; from <= tBool; from++ {
		for to := tF32; to <= tBool; to++ {
			x, y := src[from](), newBuf("y", sizes[to]*n)
			launch1D(t, "cast_any", n, castArgs{N: uint32(n), From: from, To: to}, x, y)
			for i := range n {
				v := load(from, i)
				var ok bool
				var got any
				switch to {
				case tF32:
					got, ok = y.f32()[i], y.f32()[i] == v || v != v && y.f32()[i] != y.f32()[i]
				case tI32:
					got, ok = y.i32()[i], y.i32()[i] == satI32(v)
				case tI64:
					got, ok = y.i64()[i], y.i64()[i] == satI64(v)
				case tBool:
					got, ok = y.data()[i], (y.data()[i] != 0) == (v != 0) && y.data()[i] <= 1
				}
				if !ok {
					t.Errorf("cast %d->%d of element %d (%g): got %v", from, to, i, v, got)
				}
			}
		}
	}
}

// TestGather runs gather_f32 with 32- and 64-bit indices, negative ones,
// and out-of-range ones, which give 0.
func TestGather(t *testing.T) {
	const outer, axis, inner = 3, 10, 4
	idx := []int64{0, 9, -1, -10, 3, 10, -11, 5}
	r := newRand(600)
	x := randF32(r, outer*axis*inner, -1, 1)
	n := outer * len(idx) * inner
	for _, wide := range []bool{false, true} {
		var ib *dbuf
		if wide {
			ib = i64Buf("idx", idx)
		} else {
			v := make([]int32, len(idx))
			for i, k := range idx {
				v[i] = int32(k)
			}
			ib = i32Buf("idx", v)
		}
		var w uint32
		if wide {
			w = 1
		}
		xb, yb := f32Buf("x", x), newBuf("y", 4*n)
		launch1D(t, "gather_f32", n, gatherArgs{N: uint32(n), AxisLen: axis, Inner: inner, NIdx: uint32(len(idx)), Idx64: w}, xb, ib, yb)
		for g, got := range yb.f32() {
			in, tt := g%inner, g/inner
			j, o := tt%len(idx), tt/len(idx)
			k := idx[j]
			if k < 0 {
				k += axis
			}
			want := float32(0)
			if k >= 0 && k < axis {
				want = x[(o*axis+int(k))*inner+in]
			}
			if got != want {
				t.Fatalf("wide=%v: element %d = %g, want %g", wide, g, got, want)
			}
		}
	}
}

// TestArgMax runs argmax_f32 on rows with ties, keeping the first or the
// last maximum; the indices are int64.
func TestArgMax(t *testing.T) {
	const outer, axis, inner = 4, 9, 3
	r := newRand(700)
	x := make([]float32, outer*axis*inner)
	for i := range x {
		x[i] = float32(r.IntN(4)) // ties on purpose
	}
	for _, last := range []uint32{0, 1} {
		xb, yb := f32Buf("x", x), newBuf("y", 8*outer*inner)
		launch1D(t, "argmax_f32", outer*inner, argMaxArgs{Outer: outer, Axis: axis, Inner: inner, SelectLast: last}, xb, yb)
		for g, got := range yb.i64() {
			o, in := g/inner, g%inner
			best, bi := float32(math.Inf(-1)), -1
			for j := range axis {
				v := x[(o*axis+j)*inner+in]
				if v > best || (last != 0 && v == best) {
					best, bi = v, j
				}
			}
			if got != int64(bi) {
				t.Fatalf("select_last=%d: row %d: %d, want %d", last, g, got, bi)
			}
		}
	}
}
