//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
)

// The comparison of lintel's float32 kernels with github.com/viterin/vek's
// vek32 routines that do the same work (ADR 27). vek is a test-only
// dependency: this file is all that imports it.

// vekPair is one lintel kernel and the vek32 routine that does its work,
// each a closure over the same inputs and its own output.
type vekPair struct {
	name         string
	lintel, vek  func()
	lout, vout   []float32
	lscal, vscal *float32 // reductions: the result, in place of an output
	tol          float64  // allowed |lintel − vek|, relative to max(1, |lintel|)
}

// vekInputs are the operands of one size: a in [-4, 4), b in [0.5, 1.5)
// (safe divisors), pos in (0, 8] (for Log and Sqrt).
type vekInputs struct {
	a, b, pos []float32
}

func newVekInputs(n int) vekInputs {
	r := rand.New(rand.NewPCG(uint64(n), 27))
	in := vekInputs{a: make([]float32, n), b: make([]float32, n), pos: make([]float32, n)}
	for i := range n {
		in.a[i] = float32(r.Float64()*8 - 4)
		in.b[i] = float32(r.Float64() + 0.5)
		in.pos[i] = float32(r.Float64()*8) + 1e-3
	}
	return in
}

// vekPairs builds the elementwise and reduction pairs of size n.
func vekPairs(n int) []vekPair {
	in := newVekInputs(n)
	a, b, pos := in.a, in.b, in.pos
	out := func() ([]float32, []float32) { return make([]float32, n), make([]float32, n) }
	var ps []vekPair
	bin := func(name string, op binOp, vekInto func(d, x, y []float32) []float32) {
		l, v := out()
		ps = append(ps, vekPair{name: name + " vv", lout: l, vout: v,
			lintel: func() {
				if !arithRow32(op, l, a, b, 1, 1) {
					arithRow(op, l, a, b, 1, 1)
				}
			},
			vek: func() { vekInto(v, a, b) }})
	}
	bin("Add", opAdd, vek32.Add_Into)
	bin("Sub", opSub, vek32.Sub_Into)
	bin("Mul", opMul, vek32.Mul_Into)
	bin("Div", opDiv, vek32.Div_Into)
	bin("Max", opMax, vek32.Maximum_Into)
	bin("Min", opMin, vek32.Minimum_Into)
	scal := func(name string, op binOp, vekInto func(d, x []float32, c float32) []float32) {
		l, v := out()
		c := []float32{0.75}
		ps = append(ps, vekPair{name: name + " vs", lout: l, vout: v,
			lintel: func() {
				if !arithRow32(op, l, a, c, 1, 0) {
					arithRow(op, l, a, c, 1, 0)
				}
			},
			vek: func() { vekInto(v, a, c[0]) }})
	}
	scal("Add", opAdd, vek32.AddNumber_Into)
	scal("Sub", opSub, vek32.SubNumber_Into)
	scal("Mul", opMul, vek32.MulNumber_Into)
	scal("Div", opDiv, vek32.DivNumber_Into)
	scal("Max", opMax, vek32.MaximumNumber_Into)
	scal("Min", opMin, vek32.MinimumNumber_Into)

	// In place, as the fused epilogues run: d += b, d += c, d *= c.
	{
		l, v := out()
		ps = append(ps, vekPair{name: "Add vv in place", lout: l, vout: v,
			lintel: func() { copy(l, a); addVec32(l, b) },
			vek:    func() { copy(v, a); vek32.Add_Inplace(v, b) }})
	}
	{
		l, v := out()
		ps = append(ps, vekPair{name: "Mul vs in place", lout: l, vout: v,
			lintel: func() { copy(l, a); mulConst32(l, 0.75) },
			vek:    func() { copy(v, a); vek32.MulNumber_Inplace(v, 0.75) }})
	}
	{
		l, v := out()
		ps = append(ps, vekPair{name: "Relu in place", lout: l, vout: v,
			lintel: func() { copy(l, a); actRelu32(l) },
			vek:    func() { copy(v, a); vek32.MaximumNumber_Inplace(v, 0) }})
	}
	{
		l, v := out()
		ps = append(ps, vekPair{name: "Clip in place", lout: l, vout: v,
			lintel: func() { copy(l, a); actClip32(l, -1, 1) },
			vek: func() {
				copy(v, a)
				vek32.MaximumNumber_Inplace(v, -1)
				vek32.MinimumNumber_Inplace(v, 1)
			}})
	}

	// Unary math: lintel's Exp, Log and Sqrt ops (float64 math per
	// element), and Softmax's exp(x−m) with its sum.
	un := func(name string, fn mathFn, x []float32, vekInto func(d, x []float32) []float32, tol float64) {
		l, v := out()
		k := &unaryKernel{op: uFn, fn: fn}
		ps = append(ps, vekPair{name: name, lout: l, vout: v, tol: tol,
			lintel: func() { unaryFloat(k, l, x) },
			vek:    func() { vekInto(v, x) }})
	}
	un("Exp", fnExp, a, vek32.Exp_Into, 1e-6)
	un("Log", fnLog, pos, vek32.Log_Into, 1e-6)
	un("Sqrt", fnSqrt, pos, vek32.Sqrt_Into, 1e-6)
	{
		l, v := out()
		var ls, vs float32
		ps = append(ps, vekPair{name: "Softmax exp(x−m), sum", lout: l, vout: v, lscal: &ls, vscal: &vs, tol: 1e-5,
			lintel: func() { ls = expSub32(l, a, 4) },
			vek: func() {
				vek32.SubNumber_Into(v, a, 4)
				vek32.Exp_Inplace(v)
				vs = vek32.Sum(v)
			}})
	}

	// Reductions.
	red := func(name string, tol float64, l func() float32, v func() float32) {
		var ls, vs float32
		ps = append(ps, vekPair{name: name, lscal: &ls, vscal: &vs, tol: tol,
			lintel: func() { ls = l() }, vek: func() { vs = v() }})
	}
	red("Sum", 1e-4, func() float32 { return float32(sum32(a)) }, func() float32 { return vek32.Sum(a) })
	maxK := &reducePart{op: redMax}
	minK := &reducePart{op: redMin}
	sumAcc := make([]float32, 1)
	red("Max (reduce)", 0, func() float32 { reduceAll(maxK, sumAcc, a); return sumAcc[0] }, func() float32 { return vek32.Max(a) })
	red("Min (reduce)", 0, func() float32 { reduceAll(minK, sumAcc, a); return sumAcc[0] }, func() float32 { return vek32.Min(a) })
	g := newGemmCtx(nil)
	dot := make([]float32, 1)
	red("Dot (1×k·k×1 product)", 1e-4, func() float32 {
		g.sgemm(false, false, 1, 1, n, 1, a, n, b, 1, 0, dot, 1)
		return dot[0]
	}, func() float32 { return vek32.Dot(a, b) })
	return ps
}

// vekMatPairs builds matrix products m×k·k×n: lintel's packed SGEMM (B
// packed per call, as for a MatMul of two inputs) against vek32.MatMul.
func vekMatPairs() []vekPair {
	var ps []vekPair
	for _, s := range [][3]int{{1, 256, 256}, {1, 1024, 1024}, {64, 64, 64}, {64, 256, 256}, {256, 256, 256}, {512, 512, 512}} {
		m, k, n := s[0], s[1], s[2]
		in := newVekInputs(max(m*k, k*n))
		a, b := in.a[:m*k], in.b[:k*n]
		l, v := make([]float32, m*n), make([]float32, m*n)
		g := newGemmCtx(nil)
		ps = append(ps, vekPair{name: fmt.Sprintf("MatMul %d×%d·%d×%d", m, k, k, n), lout: l, vout: v, tol: 1e-4,
			lintel: func() { g.sgemm(false, false, m, n, k, 1, a, k, b, n, 0, l, n) },
			vek:    func() { vek32.MatMul_Into(v, a, b, k) }})
		bp := prepackB(b, n, false, k, n)
		l2 := make([]float32, m*n)
		ps = append(ps, vekPair{name: fmt.Sprintf("MatMul %d×%d·%d×%d, B constant (prepacked)", m, k, k, n), lout: l2, vout: v, tol: 1e-4,
			lintel: func() { g.run(m, n, k, 1, gemmA{data: a, ld: k}, gemmB{packed: bp}, 0, l2, n) },
			vek:    func() { vek32.MatMul_Into(v, a, b, k) }})
	}
	return ps
}

// reduceAll reduces x to d[0] with k's operation, as a ReduceMax or
// ReduceMin over every axis runs.
func reduceAll(k *reducePart, d, x []float32) {
	k.it.init([]int{len(x)}, []int{1})
	reduceFloat(k, d, x, len(x))
}

// vekCheck reports how far vek's result is from lintel's on p.
func vekCheck(p vekPair) (worst float64, ok bool) {
	p.lintel()
	p.vek()
	diff := func(l, v float32) float64 {
		if l != l || v != v {
			if l != l && v != v {
				return 0
			}
			return math.Inf(1)
		}
		return math.Abs(float64(l)-float64(v)) / max(1, math.Abs(float64(l)))
	}
	for i := range p.lout {
		worst = max(worst, diff(p.lout[i], p.vout[i]))
	}
	if p.lscal != nil {
		worst = max(worst, diff(*p.lscal, *p.vscal))
	}
	return worst, worst <= p.tol
}

// TestVekCompare times lintel's kernels against vek32's, one thread,
// interleaved, medians, at 64, 1024, 16384 and 262144 elements, and
// logs a Markdown table (bench/RESULTS.md). It runs only with
// VEK_COMPARE=1:
//
//	VEK_COMPARE=1 go test -count=1 -run TestVekCompare -v ./backends/cpu
func TestVekCompare(t *testing.T) {
	if os.Getenv("VEK_COMPARE") == "" {
		t.Skip("timing run: set VEK_COMPARE=1")
	}
	// vek's MatMul splits rows over runtime.NumCPU goroutines; one P
	// runs them one after another, so both sides use one thread.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rounds := 21
	t.Logf("special values: lintel's result and vek's\n%s", vekEdges())
	t.Logf("assembly: lintel's AVX2 kernels against vek's AVX2 routines\n%s", vekTable(rounds, true))
	// The portable paths: lintel's pure-Go twins (its assembly switched
	// off as on a CPU without AVX2) against vek's Go fallbacks.
	saved := hasAVX
	hasAVX = false
	vek.SetAcceleration(false)
	defer func() { hasAVX = saved; vek.SetAcceleration(true) }()
	t.Logf("Go: lintel's pure-Go kernels against vek's Go fallbacks\n%s", vekTable(rounds, false))
}

// vekTable times every pair and formats the results; mat adds the
// matrix products.
func vekTable(rounds int, mat bool) string {
	sizes := []int{64, 1024, 16384, 262144}
	type cell struct {
		l, v  time.Duration
		worst float64
		ok    bool
	}
	res := map[string]map[int]cell{}
	var names []string
	for _, n := range sizes {
		for _, p := range vekPairs(n) {
			if res[p.name] == nil {
				res[p.name] = map[int]cell{}
				names = append(names, p.name)
			}
			worst, ok := vekCheck(p)
			ts := vekInterleave(p.lintel, p.vek, rounds, 4*time.Millisecond)
			res[p.name][n] = cell{ts[0], ts[1], worst, ok}
		}
	}
	var b strings.Builder
	b.WriteString("| kernel | " + strings.Join(mapStrings(sizes, func(n int) string { return fmt.Sprintf("n=%d lintel / vek", n) }), " | ") + " | max rel. diff |\n|---|")
	for range sizes {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for _, name := range names {
		b.WriteString("| " + name)
		worst, ok := 0.0, true
		for _, n := range sizes {
			c := res[name][n]
			fmt.Fprintf(&b, " | %s / %s (%.2f×)", ns(c.l), ns(c.v), float64(c.v)/float64(c.l))
			worst, ok = max(worst, c.worst), ok && c.ok
		}
		mark := ""
		if !ok {
			mark = " (differs)"
		}
		fmt.Fprintf(&b, " | %.1e%s |\n", worst, mark)
	}
	if !mat {
		return b.String()
	}
	b.WriteString("\n| product | lintel | vek | vek / lintel | max rel. diff |\n|---|---|---|---|---|\n")
	for _, p := range vekMatPairs() {
		worst, ok := vekCheck(p)
		ts := vekInterleave(p.lintel, p.vek, rounds, 10*time.Millisecond)
		mark := ""
		if !ok {
			mark = " (differs)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f× | %.1e%s |\n", p.name, ns(ts[0]), ns(ts[1]), float64(ts[1])/float64(ts[0]), worst, mark)
	}
	return fmt.Sprintf("%d rounds, medians; the factor is vek's time over lintel's (above 1: lintel is faster)\n%s", rounds, b.String())
}

// vekEdges formats lintel's and vek's results on the inputs where
// float32 math has edges: NaN, infinities, overflow, underflow to
// subnormals and zero.
func vekEdges() string {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	var b strings.Builder
	b.WriteString("| routine | x | lintel | vek |\n|---|---|---|---|\n")
	row := func(name string, xs []float32, fn mathFn, vekInto func(d, x []float32) []float32) {
		// vek's assembly takes whole groups of 8; a tail runs in Go.
		for len(xs)%8 != 0 {
			xs = append(xs, 1)
		}
		l, v := make([]float32, len(xs)), make([]float32, len(xs))
		unaryFloat(&unaryKernel{op: uFn, fn: fn}, l, xs)
		vekInto(v, xs)
		for i, x := range xs {
			if l[i] != v[i] && !(l[i] != l[i] && v[i] != v[i]) {
				fmt.Fprintf(&b, "| %s | %v | %v | %v |\n", name, x, l[i], v[i])
			}
		}
	}
	row("Exp", []float32{nan, inf, -inf, 88.7, 89, -88, -100, -103}, fnExp, vek32.Exp_Into)
	row("Log", []float32{nan, inf, 0, -1, 1e-40}, fnLog, vek32.Log_Into)
	row("Sqrt", []float32{nan, inf, -1, float32(math.Copysign(0, -1))}, fnSqrt, vek32.Sqrt_Into)
	l, v := []float32{0, 0}, vek32.Maximum([]float32{nan, 1}, []float32{1, nan})
	arithRow(opMax, l, []float32{nan, 1}, []float32{1, nan}, 1, 1)
	fmt.Fprintf(&b, "| Max vv | (NaN, 1), (1, NaN) | %v | %v |\n", l, v)
	fmt.Fprintf(&b, "| Max (reduce) | [1 NaN 2] | NaN | %v |\n", vek32.Max([]float32{1, nan, 2}))
	return b.String()
}

// vekInterleave times f and g in alternating rounds of about target
// each and returns their median times per call.
func vekInterleave(f, g func(), rounds int, target time.Duration) [2]time.Duration {
	fs := [2]func(){f, g}
	var reps [2]int
	for i, h := range fs {
		h()
		t0 := time.Now()
		for range 3 {
			h()
		}
		d := time.Since(t0) / 3
		reps[i] = max(1, int(target/max(d, 10*time.Nanosecond)))
	}
	var times [2][]time.Duration
	for range rounds {
		for i, h := range fs {
			t0 := time.Now()
			for range reps[i] {
				h()
			}
			times[i] = append(times[i], time.Since(t0)/time.Duration(reps[i]))
		}
	}
	var out [2]time.Duration
	for i := range fs {
		slices.Sort(times[i])
		out[i] = times[i][rounds/2]
	}
	return out
}

func mapStrings(xs []int, f func(int) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// ns formats a duration with a unit that suits it.
func ns(d time.Duration) string {
	if d < 10*time.Microsecond {
		return fmt.Sprintf("%.0f ns", float64(d.Nanoseconds()))
	}
	return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
}
