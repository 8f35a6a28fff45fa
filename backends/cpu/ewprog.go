package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// ewBlock is how many elements an elementwise program runs at a time:
// every register of a block stays in L1.
const ewBlock = 256

// ewKind is how an ewStep computes.
type ewKind uint8

const (
	ewCopy ewKind = iota
	ewUnaryFn
	ewRelu
	ewLeakyRelu
	ewClip
	ewHardSigmoid
	ewHardSwish
	ewSigmoid
	ewErf      // erf32
	ewGelu     // Gelu's exact form on erf32
	ewGeluErf  // Gelu as exporters spell it from Erf (fuseGeluErf)
	ewLeakyMax // LeakyRelu then Max with a constant (fuseLeakyMax)
	ewBinConst // x op c (c op x when constFirst)
	ewBinVec   // x op y
	ewPowConst // x^c
	ewPowVec   // x^y
)

// ewSlot names where a register lives during a block: ewOut is the
// output block, 1..model.EwMaxLive a scratch block, and -1-i input i.
type ewSlot int8

const ewOut ewSlot = 0

// ewStep is one compiled step of an ewProg.
type ewStep struct {
	kind       ewKind
	op         binOp
	constFirst bool
	d, x, y    ewSlot
	c0, c1, c2 float32
	flags      int       // a GeluErf step's
	k          []float32 // c0 as a one-element row, for arithRow
	u          unaryKernel
}

// ewProg is a model.EwProgram compiled for float32 blocks: each step's
// operands and result are assigned to blocks so that a whole program
// needs model.EwMaxLive scratch blocks.
type ewProg struct {
	steps  []ewStep
	inputs int
	// scratch is how many scratch blocks the steps use.
	scratch int
}

// ewScratch is the per-call scratch of an epilogue's ewProg, kept on the
// stack.
type ewScratch [model.EwMaxLive * ewBlock]float32

// compileEw compiles p; inPlace is set for an epilogue, where input 0
// is the output block itself.
func compileEw(p *model.EwProgram, inPlace bool) (*ewProg, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	return compileEwSteps(fuseLeakyMax(fuseGeluErf(p)), inPlace)
}

// compileEwSteps is compileEw on a checked program, taken step for step.
func compileEwSteps(p *model.EwProgram, inPlace bool) (*ewProg, error) {
	if inPlace && p.Inputs != 1 {
		return nil, errs.New(errs.InvalidArtifact, "epilogue program of %d inputs", p.Inputs)
	}
	nreg := p.Inputs + len(p.Steps)
	last := make([]int, nreg)
	for i := range last {
		last[i] = -1
	}
	for s, st := range p.Steps {
		last[st.X] = s
		if st.Y >= 0 {
			last[st.Y] = s
		}
	}
	slot := make([]ewSlot, nreg)
	// busy[w] holds the register in writable slot w, -1 when free.
	var busy [model.EwMaxLive + 1]int
	for i := range busy {
		busy[i] = -1
	}
	for i := range p.Inputs {
		slot[i] = -1 - ewSlot(i)
	}
	if inPlace {
		slot[0], busy[ewOut] = ewOut, 0
	}
	out := &ewProg{inputs: p.Inputs, steps: make([]ewStep, len(p.Steps))}
	final := len(p.Steps) - 1
	for s, st := range p.Steps {
		reg := p.Inputs + s
		// Free the slots of operands that die here; the result may take
		// one of them (steps work element by element, in place).
		dying := func(r int) bool { return r >= 0 && last[r] == s }
		var dst ewSlot = -1
		for _, r := range []int{st.X, st.Y} {
			if dying(r) && slot[r] >= 0 && busy[slot[r]] == r {
				busy[slot[r]] = -1
				if dst < 0 && (s != final || slot[r] == ewOut) {
					dst = slot[r]
				}
			}
		}
		if s == final {
			if busy[ewOut] >= 0 {
				return nil, errs.New(errs.InvalidArtifact, "elementwise program: register %d outlives the result", busy[ewOut])
			}
			dst = ewOut
		}
		for w := range busy {
			if dst >= 0 {
				break
			}
			if busy[w] < 0 {
				dst = ewSlot(w)
			}
		}
		if dst < 0 {
			return nil, errs.New(errs.Unsupported, "elementwise program needs more than %d blocks", model.EwMaxLive+1)
		}
		busy[dst], slot[reg] = reg, dst
		out.scratch = max(out.scratch, int(dst))
		if last[reg] < 0 && s != final {
			busy[dst] = -1 // a result nothing reads
		}
		cs, err := compileEwStep(st)
		if err != nil {
			return nil, err
		}
		cs.d, cs.x = dst, slot[st.X]
		if st.Y >= 0 {
			cs.y = slot[st.Y]
		}
		out.steps[s] = cs
	}
	return out, nil
}

// ewBinOps maps the binary ops of a program to binOp.
var ewBinOps = map[string]binOp{"Add": opAdd, "Sub": opSub, "Mul": opMul, "Div": opDiv, "Max": opMax, "Min": opMin, "Pow": opPow}

// compileEwStep returns st's kind and constants, slots unset.
func compileEwStep(st model.EwStep) (ewStep, error) {
	var s ewStep
	if len(st.K) > 0 {
		s.c0 = st.K[0]
		s.k = []float32{st.K[0]}
	}
	if len(st.K) > 1 {
		s.c1 = st.K[1]
	}
	if op, ok := ewBinOps[st.Op]; ok {
		s.op, s.constFirst = op, st.ConstFirst
		switch {
		case op == opPow && st.Y < 0:
			s.kind = ewPowConst
		case op == opPow:
			s.kind = ewPowVec
		case st.Y < 0:
			s.kind = ewBinConst
		default:
			s.kind = ewBinVec
		}
		return s, nil
	}
	switch st.Op {
	case "Identity":
		s.kind = ewCopy
	case "Relu":
		s.kind = ewRelu
	case "LeakyRelu":
		s.kind = ewLeakyRelu
	case "Clip":
		s.kind = ewClip
	case "HardSigmoid":
		s.kind = ewHardSigmoid
	case "HardSwish":
		s.kind = ewHardSwish
	case "Sigmoid":
		s.kind = ewSigmoid
	case "Gelu":
		s.kind = ewGelu
		if st.Tanh {
			s.kind = ewUnaryFn
			s.u.fn = fnGeluTanh
		}
	case "Erf":
		s.kind = ewErf
	case ewGeluErfOp:
		s.kind = ewGeluErf
		s.c2, s.flags = st.K[2], int(st.K[3])
	case ewLeakyMaxOp:
		s.kind = ewLeakyMax
	default:
		spec, ok := unarySpecs[st.Op]
		if !ok {
			return s, errs.New(errs.Unsupported, "elementwise step %s", st.Op)
		}
		s.kind = ewUnaryFn
		s.u.op, s.u.fn = spec.op, spec.fn
	}
	s.u.a, s.u.b = float64(s.c0), float64(s.c1)
	return s, nil
}

// ewInputs are a program's inputs for one call: x[i] is input i, of the
// output's shape, or broadcast to it as bc[i] says (along one run of axes,
// model.EwSpan, or in general). bc is nil when no input broadcasts.
type ewInputs struct {
	x  [][]float32
	bc []ewBcast
}

// ewBcast is how an input broadcasts: output element e reads its element
// (e/inner)%span; span 0 for an input of the output's shape. Any other
// broadcast (over more than one run of axes, or of the output's first
// input) sets dims, the output's, and strides, the input's element
// strides along them, 0 where it has a dim of 1.
type ewBcast struct {
	inner, span   int
	dims, strides []int
}

// fill sets dst to the input x's values for output elements e0 onwards.
func (b ewBcast) fill(dst, x []float32, e0 int) {
	if b.dims != nil {
		for i := range dst {
			e, at := e0+i, 0
			for a := len(b.dims) - 1; a >= 0; a-- {
				at += e % b.dims[a] * b.strides[a]
				e /= b.dims[a]
			}
			dst[i] = x[at]
		}
		return
	}
	x = x[:b.span]
	if b.inner == 1 {
		j := e0 % b.span
		for len(dst) > 0 {
			n := copy(dst, x[j:])
			dst, j = dst[n:], 0
		}
		return
	}
	for len(dst) > 0 {
		q := e0 / b.inner
		n := min(len(dst), (q+1)*b.inner-e0)
		v := x[q%b.span]
		for i := range dst[:n] {
			dst[i] = v
		}
		dst, e0 = dst[n:], e0+n
	}
}

// uniform returns the input's one value over output elements [b0, b1)
// when they all read the same element.
func (b ewBcast) uniform(x []float32, b0, b1 int) (float32, bool) {
	if b.span == 0 || b.dims != nil || b0/b.inner != (b1-1)/b.inner {
		return 0, false
	}
	return x[(b0/b.inner)%b.span], true
}

// run runs the program on elements [lo, hi) of d with no input but d
// itself: an epilogue, d being input 0 and the output. Its scratch blocks
// live on the stack, which Go zeroes on every call: it takes no more than
// the program uses. A program that needs none works in place on blocks
// of ewNodeBlock, which still stay in L1 from one step to the next, at a
// quarter of the calls.
func (p *ewProg) run(d []float32, lo, hi int) {
	switch p.scratch {
	case 0:
		p.blocks(nil, ewNodeBlock, d, nil, nil, lo, hi)
	case 1:
		var sc [ewBlock]float32
		p.blocks(sc[:], ewBlock, d, nil, nil, lo, hi)
	case 2:
		var sc [2 * ewBlock]float32
		p.blocks(sc[:], ewBlock, d, nil, nil, lo, hi)
	default:
		var sc ewScratch
		p.blocks(sc[:], ewBlock, d, nil, nil, lo, hi)
	}
}

// ewNodeBlock is the block of a standalone program node (ewKernel), whose
// scratch lives in the kernel: longer than an epilogue's, so that the
// steps' calls cost less per element.
const ewNodeBlock = 4 * ewBlock

// scratchSize is how many floats of scratch runNode needs with blocks
// of bs: the program's scratch blocks, then one per input to widen a
// broadcast input into.
func (p *ewProg) scratchSize(bs int) int { return (p.scratch + p.inputs) * bs }

// runNode runs the program on elements [lo, hi): in holds the program's
// inputs, d its output; sc (scratchSize(ewNodeBlock) floats) is this
// run's own scratch, one per concurrent run.
func (p *ewProg) runNode(d []float32, in *ewInputs, sc []float32, lo, hi int) {
	regs := p.scratch * ewNodeBlock
	p.blocks(sc[:regs], ewNodeBlock, d, in, sc[regs:], lo, hi)
}

// blocks runs the program on elements [lo, hi) block by block, bs
// elements at a time, with scratch blocks sc and, for broadcast inputs,
// buf (bs floats per input).
func (p *ewProg) blocks(sc []float32, bs int, d []float32, in *ewInputs, buf []float32, lo, hi int) {
	for b0 := lo; b0 < hi; b0 += bs {
		b1 := min(b0+bs, hi)
		p.block(sc, bs, d[b0:b1], in, buf, b0, b1)
	}
}

// block runs every step on one block.
func (p *ewProg) block(sc []float32, bs int, d []float32, in *ewInputs, buf []float32, b0, b1 int) {
	n := b1 - b0
	// Per broadcast input (the first 64), whether its block is one value
	// (held in its buf's first cell) and whether buf holds its block.
	var uni, filled uint64
	if in != nil && in.bc != nil {
		for i := range min(len(in.bc), 64) {
			if v, ok := in.bc[i].uniform(in.x[i], b0, b1); ok {
				buf[i*bs] = v
				uni |= 1 << i
			}
		}
	}
	at := func(s ewSlot) []float32 {
		switch {
		case s == ewOut:
			return d
		case s > 0:
			return sc[(int(s)-1)*bs:][:n]
		}
		i := -1 - int(s)
		if in.bc != nil && (in.bc[i].span > 0 || in.bc[i].dims != nil) {
			b := buf[i*bs:][:n]
			if i >= 64 || filled&(1<<i) == 0 {
				in.bc[i].fill(b, in.x[i], b0)
				if i < 64 {
					filled |= 1 << i
				}
			}
			return b
		}
		return in.x[i][b0:b1]
	}
	// uniform returns a one-cell row holding the value of slot s over the
	// block when s is a broadcast input that has one there.
	uniform := func(s ewSlot) ([]float32, bool) {
		i := -1 - int(s)
		if s >= 0 || i >= 64 || uni&(1<<i) == 0 {
			return nil, false
		}
		return buf[i*bs:][:1], true
	}
	for i := range p.steps {
		st := &p.steps[i]
		if uni != 0 && st.kind == ewBinVec && binConstCode(st.op, false) >= 0 {
			// A per-channel operand is one value over most blocks: the
			// constant row kernels compute the same IEEE operation.
			if k, ok := uniform(st.y); ok {
				if !constRow32(st.op, false, at(st.d), at(st.x), k[0]) {
					arithRow(st.op, at(st.d), at(st.x), k, 1, 0)
				}
				continue
			}
			if k, ok := uniform(st.x); ok {
				if !constRow32(st.op, true, at(st.d), at(st.y), k[0]) {
					arithRow(st.op, at(st.d), k, at(st.y), 0, 1)
				}
				continue
			}
		}
		dst, x := at(st.d), at(st.x)
		switch st.kind {
		case ewBinVec:
			y := at(st.y)
			if !arithRow32(st.op, dst, x, y, 1, 1) {
				arithRow(st.op, dst, x, y, 1, 1)
			}
			continue
		case ewPowVec:
			powRowF(dst, x, at(st.y), 1, 1)
			continue
		case ewPowConst:
			if st.constFirst {
				powRowF(dst, st.k, x, 0, 1)
			} else {
				powRowF(dst, x, st.k, 1, 0)
			}
			continue
		case ewBinConst:
			if st.constFirst {
				ewConstFirst(st.op, dst, x, st.k)
			} else {
				ewConst(st.op, dst, x, st.k)
			}
			continue
		case ewUnaryFn:
			if op, ok := ewmOf(st.u.op); ok {
				ewMath32(op, dst, x)
			} else {
				unaryFloat(&st.u, dst, x)
			}
			continue
		}
		if &dst[0] != &x[0] {
			copy(dst, x)
		}
		switch st.kind {
		case ewRelu:
			actRelu32(dst)
		case ewLeakyRelu:
			leakyRelu32(dst, st.c0)
		case ewClip:
			actClip32(dst, st.c0, st.c1)
		case ewHardSigmoid:
			actHardSigmoid32(dst, st.c0, st.c1)
		case ewHardSwish:
			actHardSwish32(dst)
		case ewSigmoid:
			sigmoid32s(dst)
		case ewErf:
			erf32s(dst)
		case ewGelu:
			gelu32s(dst)
		case ewGeluErf:
			geluErf32s(dst, st.c0, st.c1, st.c2, st.flags)
		case ewLeakyMax:
			leakyMax32(dst, st.c0, st.c1)
		}
	}
}

// ewConst sets d[i] = x[i] op k[0].
func ewConst(op binOp, d, x, k []float32) {
	if len(d) == 0 {
		return
	}
	c := k[0]
	switch op {
	case opMax:
		if c == c {
			if &d[0] != &x[0] {
				copy(d, x)
			}
			actClip32(d, c, float32(math.Inf(1)))
			return
		}
	case opMin:
		if c == c {
			if &d[0] != &x[0] {
				copy(d, x)
			}
			actClip32(d, float32(math.Inf(-1)), c)
			return
		}
	}
	if !constRow32(op, false, d, x, c) {
		arithRow(op, d, x, k, 1, 0)
	}
}

// ewConstFirst sets d[i] = k[0] op x[i].
func ewConstFirst(op binOp, d, x, k []float32) {
	switch op {
	case opAdd, opMul, opMax, opMin:
		// Commutative, NaN and signed zeros included.
		ewConst(op, d, x, k)
		return
	}
	if !constRow32(op, true, d, x, k[0]) {
		arithRow(op, d, k, x, 0, 1)
	}
}
