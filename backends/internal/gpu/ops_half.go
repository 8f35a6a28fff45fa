package gpu

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Half-precision weights on a device that runs GEMM steps with 16-bit
// operands (Config.HalfGemm, compute.Options.WeightType; ADR 22).
//
// A GEMM step with one constant float32 operand (the weights of Gemm and
// MatMul, the filters of a Conv lowered to im2col) binds that constant
// rounded to nearest even into the 16-bit type, converted once per model,
// and the other operand converted to the same type at run time by a
// cast_any launch into a scratch value: a vendor mixed-precision GEMM
// needs A and B of one type. C (the bias) and Y stay float32, and so do
// the products' sums. A step whose operands are both computed (attention's
// products) keeps float32.

// halfWeights is a model's choice of 16-bit weights and the narrowed
// copies of its initializers, shared by all its plans.
type halfWeights struct {
	dt   payload.DType // payload.Float16 or payload.BF16
	code uint32        // TF16 or TBF16
	// orig is the model's graph: only its initializers are narrowed into
	// narrowed, which lives as long as the model; constants folded for
	// one input shape are narrowed into tensors of that plan alone.
	orig     *model.Graph
	narrowed map[*model.Tensor]*model.Tensor
}

// weightType returns the 16-bit weights opts asks for on a backend of
// cfg: nil for float32 weights, or when cfg does not run half GEMMs (the
// field is then ignored). Any type other than float32, float16 and
// bfloat16 is refused with ErrUnsupported naming it.
func weightType(cfg *Config, dt payload.DType, g *model.Graph) (*halfWeights, error) {
	h := &halfWeights{dt: dt, orig: g, narrowed: map[*model.Tensor]*model.Tensor{}}
	switch dt {
	case payload.Undefined, payload.Float32:
		return nil, nil
	case payload.Float16:
		h.code = TF16
	case payload.BF16:
		h.code = TBF16
	default:
		return nil, errs.New(errs.Unsupported, "%s: weight type %s is not supported (want float32, float16 or bfloat16)", cfg.Name, dt)
	}
	if !cfg.HalfGemm {
		return nil, nil
	}
	return h, nil
}

// CheckWeightType returns the error Load gives for weight type dt on the
// backend named name: nil for float32, float16 and bfloat16 (which a
// backend without Config.HalfGemm ignores), ErrUnsupported naming any
// other.
func CheckWeightType(name string, dt payload.DType) error {
	_, err := weightType(&Config{Name: name}, dt, nil)
	return err
}

// owns reports whether t is one of the model's narrowed initializers,
// which outlive every plan.
func (h *halfWeights) owns(t *model.Tensor) bool {
	if h == nil {
		return false
	}
	for _, n := range h.narrowed {
		if n == t {
			return true
		}
	}
	return false
}

// halfGemm turns a's operands x and w into 16-bit ones when the model
// stores weights in 16 bits and exactly one of them is a float32
// constant: that one is replaced by its narrowed copy, the other is cast
// into a scratch value by a launch emitted now, and a.ABType says which
// type they hold. Otherwise x and w come back unchanged.
func (c *buildCtx) halfGemm(a *GemmArgs, x, w *val) (*val, *val, error) {
	h := c.pl.half
	if h == nil {
		return x, w, nil
	}
	xc, wc := constWhole(x), constWhole(w)
	if xc == nil && wc == nil || xc != nil && wc != nil {
		return x, w, nil
	}
	act, cv := x, wc
	if xc != nil {
		act, cv = w, xc
	}
	nt, err := c.narrowConst(cv)
	if err != nil {
		return nil, nil, err
	}
	nv := c.halfConstVal(nt)
	cast, err := c.temp(h.dt, act.shape)
	if err != nil {
		return nil, nil, err
	}
	ca := CastArgs{N: u32(act.numel()), From: TF32, To: h.code}
	c.emit1D(KCast, Pack(nil, &ca), act.numel(), act, cast)
	a.ABType = h.code
	if xc != nil {
		return nv, cast, nil
	}
	return cast, nv, nil
}

// constWhole returns the float32 constant whose bytes v binds from their
// start, or nil.
func constWhole(v *val) *model.Tensor {
	if v.c == nil || v.dt != payload.Float32 || v.c.DType != payload.Float32 || v.root.loc.kind != locConst ||
		v.locNow().off != 0 || len(v.c.Raw) != v.size {
		return nil
	}
	return v.c
}

// narrowConst returns t narrowed to the model's 16-bit type: converted
// once per model for an initializer, once per plan for a folded constant.
// float16 refuses a finite value beyond its range, naming the weight.
func (c *buildCtx) narrowConst(t *model.Tensor) (*model.Tensor, error) {
	h := c.pl.half
	if n := h.narrowed[t]; n != nil {
		return n, nil
	}
	n, err := h.narrow(t)
	if err != nil {
		return nil, c.unsupported("%v", err)
	}
	if h.orig.Initializers[t.Name] == t {
		h.narrowed[t] = n
	}
	return n, nil
}

// narrow returns a new tensor holding t's float32 values in h's type,
// rounded to nearest even.
func (h *halfWeights) narrow(t *model.Tensor) (*model.Tensor, error) {
	n := t.NumElems()
	if len(t.Raw) != 4*n {
		return nil, errs.New(errs.InvalidArtifact, "weight %q: %d bytes for %d float32 values", t.Name, len(t.Raw), n)
	}
	raw := make([]byte, 2*n)
	for i := range n {
		f := math.Float32frombits(binary.LittleEndian.Uint32(t.Raw[4*i:]))
		var b uint16
		if h.dt == payload.Float16 {
			if abs := math.Abs(float64(f)); abs > 65504 && !math.IsInf(abs, 0) {
				return nil, errs.New(errs.Unsupported, "weight %q holds %g, beyond float16's range (±65504): use bfloat16 or float32 weights", t.Name, f)
			}
			b = float16.Fromfloat32(f).Bits()
		} else {
			b = uint16(payload.BFloat16From(f))
		}
		binary.LittleEndian.PutUint16(raw[2*i:], b)
	}
	return &model.Tensor{Name: t.Name + ":" + h.dt.String(), DType: h.dt, Shape: append([]int(nil), t.Shape...), Raw: raw}, nil
}

// halfConstVal returns a value binding the narrowed tensor t, a plan
// constant uploaded once per model (or per plan for a folded constant).
func (c *buildCtx) halfConstVal(t *model.Tensor) *val {
	return c.pl.constVal(c.freshName("half"), t)
}

// pruneConsts drops the constants that no step binds and no output is,
// renumbering the others: with 16-bit weights, the float32 weights a
// GEMM step replaced by their narrowed copies are not uploaded.
func (p *plan) pruneConsts() {
	used := make([]bool, len(p.consts))
	for _, st := range p.steps {
		for _, b := range st.bufs {
			if b.kind == locConst {
				used[b.idx] = true
			}
		}
	}
	for _, o := range p.outputs {
		if o.loc.kind == locConst {
			used[o.loc.idx] = true
		}
	}
	idx := make([]int, len(p.consts))
	kept := p.consts[:0]
	for i, t := range p.consts {
		idx[i] = len(kept)
		if used[i] {
			kept = append(kept, t)
		}
	}
	clear(p.consts[len(kept):])
	p.consts = kept
	for i := range p.steps {
		for j := range p.steps[i].bufs {
			if b := &p.steps[i].bufs[j]; b.kind == locConst {
				b.idx = idx[b.idx]
			}
		}
	}
	for i := range p.outputs {
		if l := &p.outputs[i].loc; l.kind == locConst {
			l.idx = idx[l.idx]
		}
	}
}
