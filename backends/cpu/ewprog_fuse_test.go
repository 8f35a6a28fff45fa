package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// geluSpellings are programs of one input that spell Gelu from Erf as
// exporters write it, each with how many GeluErf steps fuseGeluErf
// should leave.
var geluSpellings = []struct {
	name  string
	p     model.EwProgram
	fused int
}{
	{"torch nn.GELU: Div, Erf, Add, Mul, Mul", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Div", X: 0, Y: -1, K: []float32{float32(math.Sqrt2)}},
		{Op: "Erf", X: 1, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 2, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 0, Y: 3},
		{Op: "Mul", X: 4, Y: -1, K: []float32{0.5}},
	}}, 1},
	{"x·(1/√2), constant first, operands swapped", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Mul", X: 0, Y: -1, K: []float32{1 / float32(math.Sqrt2)}, ConstFirst: true},
		{Op: "Erf", X: 1, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 2, Y: -1, K: []float32{1}, ConstFirst: true},
		{Op: "Mul", X: 3, Y: 0},
		{Op: "Mul", X: 4, Y: -1, K: []float32{0.5}, ConstFirst: true},
	}}, 1},
	{"Hugging Face: x·0.5·(1 + erf(x/√2))", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Mul", X: 0, Y: -1, K: []float32{0.5}},
		{Op: "Div", X: 0, Y: -1, K: []float32{1.4142135}},
		{Op: "Erf", X: 2, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 3, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 1, Y: 4},
	}}, 1},
	{"after a bias, then a step that follows", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Add", X: 0, Y: -1, K: []float32{0.25}},
		{Op: "Div", X: 1, Y: -1, K: []float32{1.4142135}},
		{Op: "Erf", X: 2, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 3, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 1, Y: 4},
		{Op: "Mul", X: 5, Y: -1, K: []float32{0.5}},
		{Op: "Sub", X: 6, Y: 1},
	}}, 1},
	{"other constants", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Div", X: 0, Y: -1, K: []float32{3}},
		{Op: "Erf", X: 1, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 2, Y: -1, K: []float32{-2}},
		{Op: "Mul", X: 0, Y: 3},
		{Op: "Mul", X: 4, Y: -1, K: []float32{1e30}},
	}}, 1},
	{"x·h first, other constants", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Mul", X: 0, Y: -1, K: []float32{0.3}},
		{Op: "Mul", X: 0, Y: -1, K: []float32{0.7}},
		{Op: "Erf", X: 2, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 3, Y: -1, K: []float32{1.7}},
		{Op: "Mul", X: 4, Y: 1},
	}}, 1},
	{"erf read again: not fused", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Div", X: 0, Y: -1, K: []float32{1.4142135}},
		{Op: "Erf", X: 1, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 2, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 0, Y: 3},
		{Op: "Mul", X: 4, Y: -1, K: []float32{0.5}},
		{Op: "Add", X: 5, Y: 2},
	}}, 0},
	{"c divided by x: not fused", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Div", X: 0, Y: -1, K: []float32{1.4142135}, ConstFirst: true},
		{Op: "Erf", X: 1, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 2, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 0, Y: 3},
		{Op: "Mul", X: 4, Y: -1, K: []float32{0.5}},
	}}, 0},
	{"another value multiplied: not fused", model.EwProgram{Inputs: 2, Steps: []model.EwStep{
		{Op: "Div", X: 0, Y: -1, K: []float32{1.4142135}},
		{Op: "Erf", X: 2, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 3, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 1, Y: 4},
		{Op: "Mul", X: 5, Y: -1, K: []float32{0.5}},
	}}, 0},
	{"two in a row", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
		{Op: "Div", X: 0, Y: -1, K: []float32{1.4142135}},
		{Op: "Erf", X: 1, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 2, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 0, Y: 3},
		{Op: "Mul", X: 4, Y: -1, K: []float32{0.5}},
		{Op: "Mul", X: 5, Y: -1, K: []float32{0.5}},
		{Op: "Div", X: 5, Y: -1, K: []float32{1.4142135}},
		{Op: "Erf", X: 7, Y: -1, K: []float32{0, 0}},
		{Op: "Add", X: 8, Y: -1, K: []float32{1}},
		{Op: "Mul", X: 6, Y: 9},
	}}, 2},
}

// TestFuseGeluErf checks that each spelling of Gelu from Erf compiles
// to the expected number of GeluErf steps and that the compiled program
// gives the bits of its steps compiled one by one, on lengths with
// vector blocks and tails, random values and special ones.
func TestFuseGeluErf(t *testing.T) {
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -1e-40, 1e-38, 4, -4, 6, -6}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range geluSpellings {
		t.Run(c.name, func(t *testing.T) {
			if err := c.p.Check(); err != nil {
				t.Fatal(err)
			}
			q := fuseGeluErf(&c.p)
			got := 0
			for _, st := range q.Steps {
				if st.Op == ewGeluErfOp {
					got++
				}
			}
			if got != c.fused {
				t.Fatalf("%d GeluErf steps, want %d", got, c.fused)
			}
			if got > 0 && len(q.Steps) != len(c.p.Steps)-4*got {
				t.Errorf("%d steps, want %d", len(q.Steps), len(c.p.Steps)-4*got)
			}
			checkFusedSteps(t, &c.p, r, 8, specials)
		})
	}
}

// TestGeluErfMatchesGo checks the vector loops of the GeluErf step
// against geluErfGo bit for bit, every flag, across [-6, 6] and on
// special values, with guard cells after the slice that must not change.
func TestGeluErfMatchesGo(t *testing.T) {
	needAsm(t)
	const n = 240007
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i-n/2) * 5e-5
	}
	copy(xs, []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32, 1e-45, -1e-40})
	const guard = 1234.5
	for f := range 4 {
		for _, c := range [][3]float32{{float32(math.Sqrt2), 1, 0.5}, {1 / float32(math.Sqrt2), 1, 0.5}, {0.3, -2, 1e20}} {
			got := append(append([]float32(nil), xs...), guard, guard, guard)
			want := append([]float32(nil), xs...)
			geluErf32s(got[:n], c[0], c[1], c[2], f)
			geluErfGo(want, c[0], c[1], c[2], f)
			for i := range want {
				if !sameF32(got[i], want[i]) {
					t.Fatalf("flags %d, constants %v: element %d of %v is %v, want %v", f, c, i, xs[i], got[i], want[i])
				}
			}
			for i, v := range got[n:] {
				if v != guard {
					t.Fatalf("flags %d: guard cell %d is %v", f, i, v)
				}
			}
		}
	}
}

// TestFuseLeakyMax checks that LeakyRelu followed by Max with a constant
// compiles to one LeakyMax step where nothing else reads the LeakyRelu,
// and that the compiled program gives the bits of its steps compiled one
// by one, on lengths with vector blocks and tails, random values and
// special ones, signed zeros included.
func TestFuseLeakyMax(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		name  string
		p     model.EwProgram
		fused int
	}{
		{"LeakyRelu, Max", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
			{Op: "LeakyRelu", X: 0, Y: -1, K: []float32{0.2, 0}},
			{Op: "Max", X: 1, Y: -1, K: []float32{-0.5}},
		}}, 1},
		{"then a step that reads the input and the result", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
			{Op: "Add", X: 0, Y: -1, K: []float32{0.1}},
			{Op: "LeakyRelu", X: 1, Y: -1, K: []float32{0.01, 0}},
			{Op: "Max", X: 2, Y: -1, K: []float32{0}, ConstFirst: true},
			{Op: "Mul", X: 3, Y: 1},
			{Op: "LeakyRelu", X: 4, Y: -1, K: []float32{3, 0}},
			{Op: "Max", X: 5, Y: -1, K: []float32{negZero}},
		}}, 2},
		{"LeakyRelu read again: not fused", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
			{Op: "LeakyRelu", X: 0, Y: -1, K: []float32{0.2, 0}},
			{Op: "Max", X: 1, Y: -1, K: []float32{-0.5}},
			{Op: "Sub", X: 2, Y: 1},
		}}, 0},
		{"Max of NaN: not fused", model.EwProgram{Inputs: 1, Steps: []model.EwStep{
			{Op: "LeakyRelu", X: 0, Y: -1, K: []float32{0.2, 0}},
			{Op: "Max", X: 1, Y: -1, K: []float32{float32(math.NaN())}},
		}}, 0},
		{"Max of two values: not fused", model.EwProgram{Inputs: 2, Steps: []model.EwStep{
			{Op: "LeakyRelu", X: 0, Y: -1, K: []float32{0.2, 0}},
			{Op: "Max", X: 2, Y: 1},
		}}, 0},
	}
	specials := []float32{float32(math.NaN()), 0, negZero, float32(math.Inf(1)), float32(math.Inf(-1)), -0.5, 0.5, -1e-40}
	r := rand.New(rand.NewPCG(6, 7))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.p.Check(); err != nil {
				t.Fatal(err)
			}
			q := fuseLeakyMax(&c.p)
			got := 0
			for _, st := range q.Steps {
				if st.Op == ewLeakyMaxOp {
					got++
				}
			}
			if got != c.fused {
				t.Fatalf("%d LeakyMax steps, want %d", got, c.fused)
			}
			if len(q.Steps) != len(c.p.Steps)-got {
				t.Errorf("%d steps, want %d", len(q.Steps), len(c.p.Steps)-got)
			}
			checkFusedSteps(t, &c.p, r, 4, specials)
		})
	}
}

// TestLeakyMaxMatchesGo checks leakyMax32's vector loop against
// leakyMaxGo bit for bit on random and special values, signed zeros
// included, with guard cells after the slice.
func TestLeakyMaxMatchesGo(t *testing.T) {
	needAsm(t)
	negZero := float32(math.Copysign(0, -1))
	specials := []float32{float32(math.NaN()), 0, negZero, float32(math.Inf(1)), float32(math.Inf(-1)), -0.5, 0.5}
	r := rand.New(rand.NewPCG(8, 9))
	const n, guard = 1029, 77.5
	for _, c := range [][2]float32{{0.2, -0.5}, {0.01, 0}, {3, 0.25}, {-1, -2}} {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = (r.Float32()*2 - 1) * 4
			if r.IntN(5) == 0 {
				xs[i] = specials[r.IntN(len(specials))]
			}
		}
		got := append(append([]float32(nil), xs...), guard, guard)
		want := append([]float32(nil), xs...)
		leakyMax32(got[:n], c[0], c[1])
		leakyMaxGo(want, c[0], c[1])
		for i := range want {
			if !sameF32(got[i], want[i]) {
				t.Fatalf("a=%v c=%v: element %d of %v is %v, want %v", c[0], c[1], i, xs[i], got[i], want[i])
			}
		}
		if got[n] != guard || got[n+1] != guard {
			t.Fatalf("a=%v c=%v: guard cells %v", c[0], c[1], got[n:])
		}
	}
}

// checkFusedSteps checks that p compiled with compileEw's rewrites gives
// the bits of p compiled step by step, on lengths across the vector
// blocks and tails, inputs uniform in ±scale with one in six a special
// value.
func checkFusedSteps(t *testing.T, p *model.EwProgram, r *rand.Rand, scale float32, specials []float32) {
	t.Helper()
	fused, err := compileEw(p, false)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := compileEwSteps(p, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 31, 255, 256, 1025, 1500} {
		xs := make([][]float32, p.Inputs)
		for i := range xs {
			xs[i] = make([]float32, n)
			for j := range xs[i] {
				xs[i][j] = (r.Float32()*2 - 1) * scale
				if r.IntN(6) == 0 {
					xs[i][j] = specials[r.IntN(len(specials))]
				}
			}
		}
		in := &ewInputs{x: xs}
		got, want := make([]float32, n), make([]float32, n)
		fused.runNode(got, in, make([]float32, fused.scratchSize(ewNodeBlock)), 0, n)
		plain.runNode(want, in, make([]float32, plain.scratchSize(ewNodeBlock)), 0, n)
		for i := range got {
			if !sameF32(got[i], want[i]) {
				t.Fatalf("n=%d: element %d of %v is %v, want %v", n, i, xs[0][i], got[i], want[i])
			}
		}
	}
}
