package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Activation kinds of an epilogue.
const (
	actNone = iota
	actRelu
	actClip
	actHardSigmoid
	actHardSwish
	actHardSwishDiv6
	actSigmoid
	actTanh
	// actProg runs the activation first (its kind, none included) and
	// then an elementwise program (model.Fusion.Prog).
	actProg
)

// epilogue is the activation a kernel applies to its float32 outputs as
// it computes them (model.Fusion). Each function computes exactly what
// the unfused op's kernel computes, so fusing never changes a bit.
type epilogue struct {
	act    int
	p0, p1 float32
	// first and prog are actProg's activation (the kinds above, before
	// actProg) and program.
	first int
	prog  *ewProg
}

// newEpilogue returns the epilogue of node n's fusion (none when nil),
// or an error naming the node for an activation the backend lacks.
func newEpilogue(c *buildCtx, fu *model.Fusion) (epilogue, error) {
	if fu == nil {
		return epilogue{}, nil
	}
	e, err := newActEpilogue(c, fu)
	if err != nil || fu.Prog == nil {
		return e, err
	}
	p, err := compileEw(fu.Prog, true)
	if err != nil {
		return e, c.invalid("fused program: %v", err)
	}
	e.first, e.act, e.prog = e.act, actProg, p
	return e, nil
}

// newActEpilogue returns the epilogue of the fusion's activation alone.
func newActEpilogue(c *buildCtx, fu *model.Fusion) (epilogue, error) {
	if fu.Act == "" {
		return epilogue{}, nil
	}
	var e epilogue
	want := 0
	switch fu.Act {
	case model.ActRelu:
		e.act = actRelu
	case model.ActClip:
		e.act, want = actClip, 2
	case model.ActHardSigmoid:
		e.act, want = actHardSigmoid, 2
	case model.ActHardSwish:
		e.act = actHardSwish
	case model.ActHardSwishDiv6:
		e.act = actHardSwishDiv6
	case model.ActSigmoid:
		e.act = actSigmoid
	case model.ActTanh:
		e.act = actTanh
	default:
		return e, c.unsupported("fused activation %q", fu.Act)
	}
	if len(fu.Params) != want {
		return e, c.invalid("fused activation %s with %d parameters, want %d", fu.Act, len(fu.Params), want)
	}
	if want == 2 {
		e.p0, e.p1 = fu.Params[0], fu.Params[1]
	}
	return e, nil
}

// fusedEpilogue returns the gemmEpilogue of c's node, nil when nothing
// is fused into it. Only float32 nodes take fusions, and only a MatMul
// (bias true) a bias.
func fusedEpilogue(c *buildCtx, dt payload.DType, bias bool) (*gemmEpilogue, error) {
	fu := c.n.Fused
	if fu == nil {
		return nil, nil
	}
	if dt != payload.Float32 {
		return nil, c.unsupported("fusion on element type %s", dt)
	}
	if fu.Bias && !bias {
		return nil, c.invalid("fused bias on %s", c.n.OpType)
	}
	e, err := newEpilogue(c, fu)
	if err != nil {
		return nil, err
	}
	return &gemmEpilogue{act: e}, nil
}

// apply applies the activation to d in place.
func (e *epilogue) apply(d []float32) {
	switch e.act {
	case actRelu:
		actRelu32(d)
	case actClip:
		actClip32(d, e.p0, e.p1)
	case actHardSigmoid:
		actHardSigmoid32(d, e.p0, e.p1)
	case actHardSwish:
		actHardSwish32(d)
	case actHardSwishDiv6:
		actHardSwishDiv6F32(d)
	case actSigmoid:
		for i, v := range d {
			d[i] = sigmoid32(v)
		}
	case actTanh:
		ewMath32(ewmTanh, d, d)
	case actProg:
		if e.first != actNone {
			f := epilogue{act: e.first, p0: e.p0, p1: e.p1}
			f.apply(d)
		}
		e.prog.run(d, 0, len(d))
	}
}

// The Go loops below compute exactly what the unfused ops' kernels
// compute (op_unary.go, op_activation.go, op_binary_rows.go); the
// assembly versions match them bit for bit. Products are rounded
// (float32(x*y)) so that no build fuses them into an FMA.

// actReluGo is Relu: NaN and negatives give 0.
func actReluGo(d []float32) {
	for i, v := range d {
		if v > 0 {
			d[i] = v
		} else {
			d[i] = 0
		}
	}
}

// actClipGo is Clip.
func actClipGo(d []float32, lo, hi float32) {
	for i, v := range d {
		d[i] = min(max(v, lo), hi)
	}
}

// actHardSigmoidGo is HardSigmoid.
func actHardSigmoidGo(d []float32, a, b float32) {
	for i, v := range d {
		d[i] = max(0, min(1, float32(a*v)+b))
	}
}

// actHardSwishGo is HardSwish.
func actHardSwishGo(d []float32) {
	for i, v := range d {
		d[i] = v * max(0, min(1, float32(v*(1.0/6))+0.5))
	}
}

// actHardSwishDiv6Go computes (v * min(max(v+3, 0), 6)) / 6 with the
// roundings of the Add, Clip, Mul and Div it replaces.
func actHardSwishDiv6Go(d []float32) {
	for i, v := range d {
		c := min(max(v+3, 0), 6)
		d[i] = (v * c) / 6
	}
}

// addVecGo adds b[i] to d[i].
func addVecGo(d, b []float32) {
	b = b[:len(d)]
	for i := range d {
		d[i] += b[i]
	}
}

// addConstGo adds c to every d[i].
func addConstGo(d []float32, c float32) {
	for i := range d {
		d[i] += c
	}
}

// sumGo returns the sum of x, accumulated in float64.
func sumGo(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	return s
}

// normGo sets d[i] = (x[i]-mu)/den*s[i] + b[i], each operation rounded
// in turn.
func normGo(d, x, s, b []float32, mu, den float32) {
	x, s, b = x[:len(d)], s[:len(d)], b[:len(d)]
	for i, v := range x {
		d[i] = float32((v-mu)/den*s[i]) + b[i]
	}
}
