package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
)

// ewGeluErfOp is the step that fuseGeluErf writes for a run of steps
// spelling Gelu from Erf. It is this backend's own: no model program
// holds it.
const ewGeluErfOp = "lintel.GeluErf"

// Flags of a GeluErf step, its K[3].
const (
	// geluDiv divides x by the constant (x/√2) instead of multiplying
	// by it (x·(1/√2)).
	geluDiv = 1 << iota
	// geluHalfFirst multiplies x by the half before the sum:
	// (x·h)·(erf+k), not (x·(erf+k))·h.
	geluHalfFirst
)

// fuseGeluErf returns p with each run of five consecutive steps that
// spells Gelu from Erf as exporters write it replaced by one GeluErf
// step, or p itself when it has none. The spellings are
//
//	(x·(erf(x/c) + k))·h      PyTorch's nn.GELU: Div, Erf, Add, Mul, Mul
//	(x·h)·(erf(x/c) + k)      x·0.5·(1 + erf(x/√2)), as Hugging Face writes
//
// with x·c for x/c as well, either operand order of the commutative
// steps, and any constants c, k and h. The step computes the same
// float32 operations in the same order on each element, in one pass:
// the result keeps its bits (geluErfGo). Only a run whose intermediate
// values nothing else reads is replaced.
func fuseGeluErf(p *model.EwProgram) *model.EwProgram {
	var out *model.EwProgram
	for {
		q := fuseGeluErfOnce(p)
		if q == nil {
			if out == nil {
				return p
			}
			return out
		}
		p, out = q, q
	}
}

// fuseGeluErfOnce replaces the first run fuseGeluErf finds, returning
// nil when there is none.
func fuseGeluErfOnce(p *model.EwProgram) *model.EwProgram {
	in := p.Inputs
	reg := func(s int) int { return in + s }
	// uses counts each register's readers.
	uses := make([]int, in+len(p.Steps))
	for _, st := range p.Steps {
		if st.Op == ewGeluErfOp {
			uses[st.X]++
			continue
		}
		uses[st.X]++
		if st.Y >= 0 {
			uses[st.Y]++
		}
	}
	binConst := func(st model.EwStep, op string) bool {
		return st.Op == op && st.Y < 0 && len(st.K) == 1 && (!st.ConstFirst || op != "Div")
	}
	// scaled reports whether st is x/c or x·c, and which.
	scaled := func(st model.EwStep) (div, ok bool) {
		switch {
		case binConst(st, "Div"):
			return true, true
		case binConst(st, "Mul"):
			return false, true
		}
		return false, false
	}
	// mulOf reports whether st multiplies registers a and b, in either
	// order.
	mulOf := func(st model.EwStep, a, b int) bool {
		return st.Op == "Mul" && st.Y >= 0 && ((st.X == a && st.Y == b) || (st.X == b && st.Y == a))
	}
	for i := 0; i+5 <= len(p.Steps); i++ {
		s := p.Steps[i : i+5]
		var x, flags int
		var c, k, h float32
		var mid []int // the run's values read only inside it
		switch {
		case s[1].Op == "Erf" && s[1].X == reg(i):
			// x/c, erf, +k, x·a, ·h.
			div, ok := scaled(s[0])
			if !ok || !binConst(s[2], "Add") || s[2].X != reg(i+1) || !binConst(s[4], "Mul") || s[4].X != reg(i+3) {
				continue
			}
			x = s[0].X
			if !mulOf(s[3], x, reg(i+2)) || x == reg(i+2) {
				continue
			}
			c, k, h = s[0].K[0], s[2].K[0], s[4].K[0]
			if div {
				flags |= geluDiv
			}
			mid = []int{reg(i), reg(i + 1), reg(i + 2), reg(i + 3)}
		case s[2].Op == "Erf" && s[2].X == reg(i+1):
			// x·h, x/c, erf, +k, (x·h)·a.
			div, ok := scaled(s[1])
			if !ok || !binConst(s[0], "Mul") || s[0].X != s[1].X || !binConst(s[3], "Add") || s[3].X != reg(i+2) || !mulOf(s[4], reg(i), reg(i+3)) {
				continue
			}
			x = s[0].X
			c, h, k = s[1].K[0], s[0].K[0], s[3].K[0]
			flags = geluHalfFirst
			if div {
				flags |= geluDiv
			}
			mid = []int{reg(i), reg(i + 1), reg(i + 2), reg(i + 3)}
		default:
			continue
		}
		ok := true
		for _, r := range mid {
			// Each is read once, inside the run.
			if uses[r] != 1 {
				ok = false
			}
		}
		if !ok {
			continue
		}
		q := &model.EwProgram{Inputs: in, Steps: make([]model.EwStep, 0, len(p.Steps)-4)}
		q.Steps = append(q.Steps, p.Steps[:i]...)
		q.Steps = append(q.Steps, model.EwStep{Op: ewGeluErfOp, X: x, Y: -1, K: []float32{c, k, h, float32(flags)}})
		// Registers after the run move down by the four it drops.
		move := func(r int) int {
			if r >= reg(i+5) {
				return r - 4
			}
			if r == reg(i+4) {
				return reg(i)
			}
			return r
		}
		for _, st := range p.Steps[i+5:] {
			st.X = move(st.X)
			if st.Y >= 0 {
				st.Y = move(st.Y)
			}
			q.Steps = append(q.Steps, st)
		}
		return q
	}
	return nil
}

// geluErfGo sets d[i] to the GeluErf step of x[i] with constants c, k
// and h and flags f, as the unfused steps compute it: t = x/c (or x·c),
// a = erf32(t) + k, then (x·a)·h (or (x·h)·a).
func geluErfGo(d []float32, c, k, h float32, f int) {
	for i, x := range d {
		var t float32
		if f&geluDiv != 0 {
			t = x / c
		} else {
			t = x * c
		}
		a := erf32(t) + k
		if f&geluHalfFirst != 0 {
			d[i] = (x * h) * a
		} else {
			d[i] = (x * a) * h
		}
	}
}

// ewLeakyMaxOp is the step that fuseLeakyMax writes for LeakyRelu then
// Max with a constant, as openWakeWord's convolutions end. It is this
// backend's own: no model program holds it.
const ewLeakyMaxOp = "lintel.LeakyMax"

// fuseLeakyMax returns p with each LeakyRelu (slope a) whose result only
// a following Max with a constant c reads replaced, with that Max, by one
// LeakyMax step of constants a and c, or p itself when it has none. The
// step computes the two steps' operations in order on each element, in
// one pass: the result keeps its bits (leakyMax32).
func fuseLeakyMax(p *model.EwProgram) *model.EwProgram {
	in := p.Inputs
	uses := make([]int, in+len(p.Steps))
	for _, st := range p.Steps {
		uses[st.X]++
		if st.Y >= 0 {
			uses[st.Y]++
		}
	}
	var q *model.EwProgram
	for i := 0; i+1 < len(p.Steps); i++ {
		a, m := p.Steps[i], p.Steps[i+1]
		if a.Op != "LeakyRelu" || len(a.K) < 1 || m.Op != "Max" || m.Y >= 0 || len(m.K) != 1 || m.X != in+i || uses[in+i] != 1 || m.K[0] != m.K[0] {
			continue
		}
		if q == nil {
			q = &model.EwProgram{Inputs: in, Steps: append([]model.EwStep(nil), p.Steps...)}
		}
		// The Max's register takes the fused result; the LeakyRelu's
		// becomes an Identity that nothing reads, dropped below.
		q.Steps[i+1] = model.EwStep{Op: ewLeakyMaxOp, X: a.X, Y: -1, K: []float32{a.K[0], m.K[0]}}
		q.Steps[i] = model.EwStep{Op: "Identity", X: a.X, Y: -1}
	}
	if q == nil {
		return p
	}
	return dropDeadIdentities(q)
}

// dropDeadIdentities removes the Identity steps of p whose result
// nothing reads, renumbering the registers after them.
func dropDeadIdentities(p *model.EwProgram) *model.EwProgram {
	in := p.Inputs
	read := make([]bool, in+len(p.Steps))
	for _, st := range p.Steps {
		read[st.X] = true
		if st.Y >= 0 {
			read[st.Y] = true
		}
	}
	last := len(p.Steps) - 1
	move := make([]int, in+len(p.Steps))
	for r := range in {
		move[r] = r
	}
	q := &model.EwProgram{Inputs: in}
	for s, st := range p.Steps {
		if st.Op == "Identity" && !read[in+s] && s != last {
			move[in+s] = -1
			continue
		}
		st.X = move[st.X]
		if st.Y >= 0 {
			st.Y = move[st.Y]
		}
		move[in+s] = in + len(q.Steps)
		q.Steps = append(q.Steps, st)
	}
	return q
}

// leakyMaxGo sets d[i] to Max(LeakyRelu(d[i], a), c) as the unfused
// steps compute it.
func leakyMaxGo(d []float32, a, c float32) {
	leakyReluGo(d, a)
	actClipGo(d, c, float32(math.Inf(1)))
}
