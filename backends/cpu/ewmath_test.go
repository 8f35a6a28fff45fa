package cpu

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ewmInputs returns n inputs for op: mostly in the range where the
// function varies, some far out, and the special values.
func ewmInputs(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 0.25, -0.25, 88.7, 89.5, -103, -110,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for i := range x {
		switch r.IntN(8) {
		case 0:
			x[i] = special[r.IntN(len(special))]
		case 1:
			x[i] = (r.Float32()*2 - 1) * 200
		case 2:
			x[i] = (r.Float32()*2 - 1) * 0.3
		default:
			x[i] = (r.Float32()*2 - 1) * 12
		}
	}
	return x
}

// ewmRef is op's float64 reference.
func ewmRef(op ewmOp, v float32) float64 {
	x := float64(v)
	switch op {
	case ewmExp:
		return math.Exp(x)
	case ewmTanh:
		return math.Tanh(x)
	case ewmErf:
		return math.Erf(x)
	case ewmAbs:
		return math.Abs(x)
	case ewmSoftplus:
		return softplus(x)
	}
	return -x
}

// ewmClose reports whether got is within ulps float32 units of want
// (relative), or both are NaN, or both round to the same infinity or
// are below the smallest normal float32.
func ewmClose(got float32, want float64, ulps float64) bool {
	g := float64(got)
	switch {
	case math.IsNaN(want) || math.IsNaN(g):
		return math.IsNaN(want) && math.IsNaN(g)
	case math.Abs(want) < 0x1p-126:
		return math.Abs(g) < 0x1p-125
	case want > math.MaxFloat32 || want < -math.MaxFloat32:
		return math.IsInf(g, int(math.Copysign(1, want)))
	}
	return math.Abs(g-want) <= ulps*math.Abs(want)*0x1p-23
}

var ewmNames = map[ewmOp]string{ewmExp: "exp", ewmTanh: "tanh", ewmErf: "erf", ewmAbs: "abs", ewmNeg: "neg", ewmSoftplus: "softplus"}

// TestEwMathAccuracy checks ewMath32 (assembly where the CPU has it)
// and ewMathGo against the float64 functions on every length up to 40
// and a long slice, with guard cells around the output: exp within 3
// units of the float32 result, tanh and softplus within 4, erf within
// erfTol32, abs and neg exact.
func TestEwMathAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 41))
	tol := map[ewmOp]float64{ewmExp: 3, ewmTanh: 4, ewmErf: 0, ewmAbs: 0, ewmNeg: 0, ewmSoftplus: 4}
	const guard = 3
	for op, name := range ewmNames {
		for fname, f := range map[string]func(ewmOp, []float32, []float32){"ewMath32": ewMath32, "ewMathGo": ewMathGo} {
			for _, n := range append(lengths(40), 1000) {
				x := ewmInputs(r, n)
				d := make([]float32, n+2*guard)
				for i := range d {
					d[i] = 7
				}
				f(op, d[guard:guard+n], x)
				for i := range d {
					if i < guard || i >= guard+n {
						if d[i] != 7 {
							t.Fatalf("%s %s n=%d: guard cell %d written", fname, name, n, i-guard)
						}
						continue
					}
					v, got, want := x[i-guard], d[i], ewmRef(op, x[i-guard])
					ok := ewmClose(got, want, tol[op])
					if op == ewmErf {
						ok = math.Abs(float64(got)-want) <= erfTol32 || math.IsNaN(want) && got != got
					}
					if !ok {
						t.Fatalf("%s %s(%v) = %v, want %v", fname, name, v, got, want)
					}
				}
			}
		}
	}
}

// TestEwMathTwin compares the assembly with its Go twin, in place too,
// with guard cells around the output: bit for bit but where exp runs
// (exp, softplus), whose fused multiply-adds the twin rounds through
// float64, there within 1 unit; tanh's rational function is bit for bit.
// The second input set stays within [-86, 86], exp's normal range, where
// the assembly takes its fast path, but for one vector that leaves it.
func TestEwMathTwin(t *testing.T) {
	if !asmRuns() {
		t.Skip("no assembly here: ewMath32 is ewMathGo, compared with itself")
	}
	r := rand.New(rand.NewPCG(42, 43))
	inRange := make([]float32, 1029)
	for i := range inRange {
		inRange[i] = r.Float32()*172 - 86
	}
	inRange[100], inRange[300], inRange[301] = -87, 86.5, 86
	for i, op := range append(slices.Sorted(maps.Keys(ewmNames)), ewmExp, ewmTanh, ewmSoftplus) {
		name := ewmNames[op]
		x := ewmInputs(r, 517)
		if i >= len(ewmNames) {
			x = inRange
		}
		got, want := make([]float32, len(x)+2), make([]float32, len(x))
		ewMathGo(op, want, x)
		got[0], got[len(x)+1] = 5, 5
		copy(got[1:], x)
		ewMath32(op, got[1:len(x)+1], got[1:len(x)+1])
		if got[0] != 5 || got[len(x)+1] != 5 {
			t.Fatalf("%s: guard cell written", name)
		}
		for i, w := range want {
			g := got[i+1]
			same := math.Float32bits(g) == math.Float32bits(w) || g != g && w != w
			if !same && (op == ewmExp || op == ewmSoftplus) {
				same = ewmClose(g, float64(w), 1)
			}
			if !same {
				t.Fatalf("%s(%v): assembly %v, Go %v", name, x[i], g, w)
			}
		}
	}
}

// TestMaxNaNSubDiv checks maxNaN32 and subDiv32 against their Go twins
// on every length up to 40, with a NaN placed at each position in turn
// for maxNaN32 and guard cells after subDiv32's output.
func TestMaxNaNSubDiv(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 45))
	for _, n := range lengths(40) {
		x := make([]float32, n)
		for i := range x {
			x[i] = (r.Float32()*2 - 1) * 100
		}
		m, nan := maxNaN32(x)
		wm, _ := maxNaNGo(x)
		if nan || (n > 0 && m != wm) || (n == 0 && !math.IsInf(float64(m), -1)) {
			t.Fatalf("n=%d: maxNaN32 = %v, %v; want %v, false", n, m, nan, wm)
		}
		for j := range n {
			y := append([]float32(nil), x...)
			y[j] = float32(math.NaN())
			if _, nan := maxNaN32(y); !nan {
				t.Fatalf("n=%d: NaN at %d not reported", n, j)
			}
		}
		for _, div := range []bool{false, true} {
			b := make([]float32, n)
			for i := range b {
				b[i] = r.Float32() + 0.5
			}
			got, want := make([]float32, n+2), make([]float32, n+2)
			got[n], got[n+1], want[n], want[n+1] = 3, 3, 3, 3
			subDiv32(div, got[:n], x, b)
			subDivGo(div, want[:n], x, b)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("div=%v n=%d: element %d is %v, want %v", div, n, i, got[i], want[i])
				}
			}
		}
	}
}

// lengths returns 0..n.
func lengths(n int) []int {
	l := make([]int, n+1)
	for i := range l {
		l[i] = i
	}
	return l
}

// TestLerp32 checks lerp32 (assembly where the CPU has it) against lerpGo
// bit for bit on every length up to 40, in place too, with guard cells
// after the output.
func TestLerp32(t *testing.T) {
	r := rand.New(rand.NewPCG(46, 47))
	for _, n := range lengths(40) {
		a, b := fuseRand(r, n, 3), fuseRand(r, n, 3)
		wa, wb := r.Float32(), r.Float32()
		got, want := make([]float32, n+2), make([]float32, n+2)
		got[n], got[n+1], want[n], want[n+1] = 3, 3, 3, 3
		lerp32(got[:n], a, b, wa, wb)
		lerpGo(want[:n], a, b, wa, wb)
		inPlace := append([]float32(nil), a...)
		lerp32(inPlace, inPlace, b, wa, wb)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: element %d is %v, want %v", n, i, got[i], want[i])
			}
			if i < n && inPlace[i] != want[i] {
				t.Fatalf("n=%d in place: element %d is %v, want %v", n, i, inPlace[i], want[i])
			}
		}
	}
}
