//go:build cuda && cgo

package hostsim

import (
	"math"
	"testing"
)

// offsetOf is the offset of output element i in a tensor of strides st,
// broadcast to shape.
func offsetOf(i int, shape []int, st []int32) int {
	off := 0
	for d := len(shape) - 1; d >= 0; d-- {
		off += (i % shape[d]) * int(st[d])
		i /= shape[d]
	}
	return off
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// bcastCase is a broadcast of a and b to out.
type bcastCase struct {
	name      string
	out, a, b []int
}

var bcastCases = []bcastCase{
	{name: "same", out: []int{1000}, a: []int{1000}, b: []int{1000}},
	{name: "row_col", out: []int{3, 5, 7}, a: []int{3, 1, 7}, b: []int{1, 5, 1}},
	{name: "scalar", out: []int{2, 3, 4, 5, 3, 2}, a: []int{2, 3, 4, 5, 3, 2}, b: []int{1, 1, 1, 1, 1, 1}},
}

func binaryRef(op uint32, u, v float32) float64 {
	switch op {
	case bAdd:
		return float64(u + v)
	case bSub:
		return float64(u - v)
	case bMul:
		return float64(u * v)
	case bDiv:
		return float64(u / v)
	case bPow:
		return math.Pow(float64(u), float64(v))
	case bMin:
		return float64(min(u, v))
	case bMax:
		return float64(max(u, v))
	}
	return math.NaN()
}

func compareRef(op uint32, u, v float32) bool {
	switch op {
	case bEqual:
		return u == v
	case bLess:
		return u < v
	case bGreater:
		return u > v
	case bLessEq:
		return u <= v
	case bGreaterEq:
		return u >= v
	}
	return false
}

// bcastArgs returns binary_f32's arguments for c.
func bcastArgs(c bcastCase, op uint32) binaryArgs {
	return binaryArgs{
		N: uint32(numel(c.out)), Op: op, Rank: uint32(len(c.out)),
		Shape: fill6(i32s(c.out)), SA: fill6(strides(c.a, c.out)), SB: fill6(strides(c.b, c.out)),
	}
}

// TestBinary runs every arithmetic op of binary_f32 under broadcasting.
// Pow also runs on negative bases with integer exponents, and on C's
// special cases.
func TestBinary(t *testing.T) {
	ops := []struct {
		name string
		op   uint32
		ulps float64
	}{{"add", bAdd, 0}, {"sub", bSub, 0}, {"mul", bMul, 0}, {"div", bDiv, 0}, {"pow", bPow, 1}, {"min", bMin, 0}, {"max", bMax, 0}}
	for _, o := range ops {
		for ci, c := range bcastCases {
			t.Run(o.name+"/"+c.name, func(t *testing.T) {
				r := newRand(uint64(200 + 10*int(o.op) + ci))
				x := randF32(r, numel(c.a), -4, 4)
				z := randF32(r, numel(c.b), -4, 4)
				if o.op == bPow {
					for i := range z {
						if i%2 == 0 {
							z[i] = float32(math.Round(float64(z[i]) * 2)) // integer exponents for negative bases
						}
					}
				}
				xb, zb, yb := f32Buf("x", x), f32Buf("z", z), newBuf("y", 4*numel(c.out))
				a := bcastArgs(c, o.op)
				launch1D(t, "binary_f32", numel(c.out), a, xb, zb, yb)
				checkBinary(t, o.op, o.ulps, c.out, a, x, z, yb.f32())
			})
		}
	}
	t.Run("pow/special", func(t *testing.T) {
		inf, nan, negZero := float32(math.Inf(1)), float32(math.NaN()), float32(math.Copysign(0, -1))
		vals := []float32{0, negZero, 1, -1, 2, -2, 0.5, -0.5, 3, -3, inf, -inf, nan, 1e-30, 1e30, 16777217, 0.25}
		var x, z []float32
		for _, u := range vals {
			for _, v := range vals {
				x, z = append(x, u), append(z, v)
			}
		}
		c := bcastCase{out: []int{len(x)}, a: []int{len(x)}, b: []int{len(x)}}
		xb, zb, yb := f32Buf("x", x), f32Buf("z", z), newBuf("y", 4*len(x))
		a := bcastArgs(c, bPow)
		launch1D(t, "binary_f32", len(x), a, xb, zb, yb)
		for i, got := range yb.f32() {
			want := math.Pow(float64(x[i]), float64(z[i]))
			if d := ulpDiff(got, want); d > 1 || math.Signbit(float64(got)) != math.Signbit(float64(float32(want))) && !math.IsNaN(want) {
				t.Errorf("pow(%g, %g) = %g, want %g", x[i], z[i], got, want)
			}
		}
	})
}

func checkBinary(t *testing.T, op uint32, ulps float64, out []int, a binaryArgs, x, z, y []float32) {
	t.Helper()
	bad := 0
	for i := range numel(out) {
		u := x[offsetOf(i, out, a.SA[:len(out)])]
		v := z[offsetOf(i, out, a.SB[:len(out)])]
		want := binaryRef(op, u, v)
		if d := ulpDiff(y[i], want); d > ulps && bad < 5 {
			bad++
			t.Errorf("element %d: op %d (%g, %g) = %g, want %g (%.2f ulps)", i, op, u, v, y[i], want, d)
		}
	}
}

// TestCompare runs every comparison of compare_f32 under broadcasting,
// with ties.
func TestCompare(t *testing.T) {
	for _, op := range []uint32{bEqual, bLess, bGreater, bLessEq, bGreaterEq} {
		for ci, c := range bcastCases {
			r := newRand(uint64(300 + 10*int(op) + ci))
			x := randF32(r, numel(c.a), -3, 3)
			z := randF32(r, numel(c.b), -3, 3)
			for i := range x { // small integers, so that ties happen
				x[i] = float32(math.Round(float64(x[i])))
			}
			for i := range z {
				z[i] = float32(math.Round(float64(z[i])))
			}
			xb, zb, yb := f32Buf("x", x), f32Buf("z", z), newBuf("y", numel(c.out))
			a := bcastArgs(c, op)
			launch1D(t, "compare_f32", numel(c.out), a, xb, zb, yb)
			for i, got := range yb.data() {
				u := x[offsetOf(i, c.out, a.SA[:len(c.out)])]
				v := z[offsetOf(i, c.out, a.SB[:len(c.out)])]
				want := byte(0)
				if compareRef(op, u, v) {
					want = 1
				}
				if got != want {
					t.Fatalf("%s: op %d (%g, %g) = %d, want %d", c.name, op, u, v, got, want)
				}
			}
		}
	}
}

// TestWhere runs where_f32 with the condition, x and y broadcast
// differently.
func TestWhere(t *testing.T) {
	out := []int{4, 3, 5}
	cs, xs, zs := []int{4, 1, 5}, []int{1, 3, 5}, []int{4, 3, 1}
	r := newRand(400)
	cond := make([]byte, numel(cs))
	for i := range cond {
		cond[i] = byte(r.IntN(2) * (1 + r.IntN(3)))
	}
	x, z := randF32(r, numel(xs), -1, 1), randF32(r, numel(zs), -1, 1)
	a := whereArgs{N: uint32(numel(out)), Rank: 3, Shape: fill6(i32s(out)),
		SC: fill6(strides(cs, out)), SA: fill6(strides(xs, out)), SB: fill6(strides(zs, out))}
	cb, xb, zb, yb := u8Buf("c", cond), f32Buf("x", x), f32Buf("z", z), newBuf("y", 4*numel(out))
	launch1D(t, "where_f32", numel(out), a, cb, xb, zb, yb)
	for i, got := range yb.f32() {
		want := z[offsetOf(i, out, a.SB[:3])]
		if cond[offsetOf(i, out, a.SC[:3])] != 0 {
			want = x[offsetOf(i, out, a.SA[:3])]
		}
		if got != want {
			t.Fatalf("element %d = %g, want %g", i, got, want)
		}
	}
}
