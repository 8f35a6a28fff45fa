package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestActivationsMatchGo checks the activations the epilogue runs (the
// assembly ones where the CPU has them) against their Go loops, bit for
// bit, on every length up to 40 with guard cells around the data, on
// random values and the special ones (NaN, ±0, ±Inf, the bounds).
func TestActivationsMatchGo(t *testing.T) {
	needAsm(t)
	negZero := float32(math.Copysign(0, -1))
	addend := make([]float32, 64)
	for i := range addend {
		addend[i] = float32(i%7) - 3.25
	}
	cases := []struct {
		name string
		fast func([]float32)
		ref  func([]float32)
	}{
		{"Relu", actRelu32, actReluGo},
		{"Clip(0,6)", func(d []float32) { actClip32(d, 0, 6) }, func(d []float32) { actClipGo(d, 0, 6) }},
		{"Clip(-0.25,0.5)", func(d []float32) { actClip32(d, -0.25, 0.5) }, func(d []float32) { actClipGo(d, -0.25, 0.5) }},
		{"Clip(-0,0)", func(d []float32) { actClip32(d, negZero, 0) }, func(d []float32) { actClipGo(d, negZero, 0) }},
		{"Clip(-1,-0)", func(d []float32) { actClip32(d, -1, negZero) }, func(d []float32) { actClipGo(d, -1, negZero) }},
		{"HardSigmoid", func(d []float32) { actHardSigmoid32(d, 0.2, 0.5) }, func(d []float32) { actHardSigmoidGo(d, 0.2, 0.5) }},
		{"HardSigmoid(1,-0)", func(d []float32) { actHardSigmoid32(d, 1, negZero) }, func(d []float32) { actHardSigmoidGo(d, 1, negZero) }},
		{"HardSwish", actHardSwish32, actHardSwishGo},
		{"HardSwishDiv6", actHardSwishDiv6F32, actHardSwishDiv6Go},
		{"AddConst", func(d []float32) { addConst32(d, 0.75) }, func(d []float32) { addConstGo(d, 0.75) }},
		{"AddVec", func(d []float32) { addVec32(d, addend[:len(d)]) }, func(d []float32) { addVecGo(d, addend[:len(d)]) }},
		{"MulConst", func(d []float32) { mulConst32(d, 0.3) }, func(d []float32) { scaleRow(d, 0.3) }},
		{"AddConstRelu", func(d []float32) { addConstRelu32(d, -0.75) }, func(d []float32) { addConstGo(d, -0.75); actReluGo(d) }},
		{"AddVecRelu", func(d []float32) { addVecRelu32(d, addend[:len(d)]) }, func(d []float32) { addVecGo(d, addend[:len(d)]); actReluGo(d) }},
		{"LeakyRelu", func(d []float32) { leakyRelu32(d, 0.2) }, func(d []float32) { leakyReluGo(d, 0.2) }},
		{"LeakyRelu(-1.5)", func(d []float32) { leakyRelu32(d, -1.5) }, func(d []float32) { leakyReluGo(d, -1.5) }},
		{"Sigmoid", sigmoid32s, sigmoidGo},
		{"Erf", erf32s, erfGo},
		{"Gelu", gelu32s, geluGo},
		{"Max(x,0)", func(d []float32) { ewConst(opMax, d, d, []float32{0}) }, func(d []float32) { arithRow(opMax, d, d, []float32{0}, 1, 0) }},
		{"Max(x,-0)", func(d []float32) { ewConst(opMax, d, d, []float32{negZero}) }, func(d []float32) { arithRow(opMax, d, d, []float32{negZero}, 1, 0) }},
		{"Min(x,0)", func(d []float32) { ewConst(opMin, d, d, []float32{0}) }, func(d []float32) { arithRow(opMin, d, d, []float32{0}, 1, 0) }},
		{"Min(x,-0)", func(d []float32) { ewConst(opMin, d, d, []float32{negZero}) }, func(d []float32) { arithRow(opMin, d, d, []float32{negZero}, 1, 0) }},
		{"Min(x,2.5)", func(d []float32) { ewConst(opMin, d, d, []float32{2.5}) }, func(d []float32) { arithRow(opMin, d, d, []float32{2.5}, 1, 0) }},
	}
	for code, name := range []string{"Sub", "RSub", "Div", "RDiv", "Add", "Mul"} {
		for _, c := range []float32{6, -0.75, negZero} {
			cases = append(cases, struct {
				name string
				fast func([]float32)
				ref  func([]float32)
			}{fmt.Sprintf("%s(%v)", name, c), func(d []float32) { binConst32(code, d, d, c) }, func(d []float32) { binConstGo(code, d, d, c) }})
		}
	}
	specials := []float32{float32(math.NaN()), 0, negZero, float32(math.Inf(1)), float32(math.Inf(-1)), 3, -3, 6, -6, 0.5, -0.25, 1, -1, 2.5}
	r := rand.New(rand.NewPCG(3, 4))
	const guard = 4
	for _, c := range cases {
		for n := range 41 {
			x := make([]float32, n+2*guard)
			for i := range x {
				if r.IntN(3) == 0 {
					x[i] = specials[r.IntN(len(specials))]
				} else {
					x[i] = (r.Float32()*2 - 1) * 10
				}
			}
			got, want := append([]float32(nil), x...), append([]float32(nil), x...)
			c.fast(got[guard : guard+n])
			c.ref(want[guard : guard+n])
			for i := range x {
				g, w := got[i], want[i]
				if i < guard || i >= guard+n {
					w = x[i]
				}
				if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
					t.Fatalf("%s n=%d: element %d of %v is %v (%#x), want %v (%#x)", c.name, n, i-guard, x[i], g, math.Float32bits(g), w, math.Float32bits(w))
				}
			}
		}
	}
}
