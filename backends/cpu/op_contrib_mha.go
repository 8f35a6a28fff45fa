package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// mhaKernel runs MultiHeadAttention (com.microsoft; model.MHAAttrs) on
// msAttnCore. It refuses, as ONNX Runtime's CPU kernel does, packed
// QKV and packed KV; and past_sequence_length, cache_indirection (beam
// search), the qk output, and the bias with 4-D key and value. key_padding_mask is int32 of shape (batch) (each item's key
// count), (batch, total sequence) or (batch, sequence, total sequence)
// (0 masks the key); ONNX Runtime's other mask forms are refused.
type mhaKernel struct {
	n    *model.Node
	a    *model.MHAAttrs
	core *msAttnCore
	used [3]bool
}

// mhaGeom reads a call's sizes from its inputs, which the rule checked.
func (k *mhaKernel) geom(in []*tensor) model.MHAGeom {
	q := in[0].shape
	n := int(k.a.NumHeads)
	g := model.MHAGeom{B: q[0], S: q[1], N: n}
	kt := in[1]
	switch {
	case len(kt.shape) == 4:
		g.KV4D = true
		g.H, g.Hv, g.L = kt.shape[3], in[2].shape[3], kt.shape[2]
	default:
		g.H, g.Hv, g.L = q[2]/n, in[2].shape[2]/n, kt.shape[1]
	}
	if pk := optIn(in, 6); pk != nil {
		g.Past = pk.shape[2]
	}
	return g
}

func (k *mhaKernel) run(in, out []*tensor) error {
	g := k.geom(in)
	B, S, N, H, L, Hv, P := g.B, g.S, g.N, g.H, g.L, g.Hv, g.Past
	T := P + L
	c := k.core
	x := in[0].f32()
	var bias []float32
	if t := optIn(in, 3); t != nil {
		bias = t.f32()
	}
	var qm, km, vm attnMat
	switch {
	case g.KV4D:
		qm, km, vm = rowsMat(x, S, N*H, H), attnLayout(in[1].f32(), 4, N, L, H), attnLayout(in[2].f32(), 4, N, L, Hv)
	default:
		kd, vd := in[1].f32(), in[2].f32()
		if bias != nil {
			d, dv := N*H, N*Hv
			x = c.addBias(0, x, B*S, d, d, bias[:d])
			kd = c.addBias(1, kd, B*L, d, d, bias[d:2*d])
			vd = c.addBias(2, vd, B*L, dv, dv, bias[2*d:2*d+dv])
		}
		qm, km, vm = rowsMat(x, S, N*H, H), rowsMat(kd, L, N*H, H), rowsMat(vd, L, N*Hv, Hv)
	}
	ym := rowsMat(out[0].f32(), S, N*Hv, Hv)
	var segs [2]attnSeg
	nseg := 1
	var pk, pv []float32
	if t := optIn(in, 6); t != nil {
		pk, pv = t.f32(), in[7].f32()
	}
	switch {
	case k.used[1] || k.used[2]:
		var dk, dv []float32
		if k.used[1] {
			dk = out[1].f32()
		} else {
			dk = growF32(&c.kv[0], B*N*T*H)
		}
		if k.used[2] {
			dv = out[2].f32()
		} else {
			dv = growF32(&c.kv[1], B*N*T*Hv)
		}
		segs[0] = attnSeg{k: attnConcat(dk, pk, km, B, N, P, L, H), v: attnConcat(dv, pv, vm, B, N, P, L, Hv), rows: T}
	case pk != nil:
		segs[0] = attnSeg{k: attnLayout(pk, 4, N, P, H), v: attnLayout(pv, 4, N, P, Hv), rows: P}
		segs[1] = attnSeg{k: km, v: vm, rows: L, col0: P}
		nseg = 2
	default:
		segs[0] = attnSeg{k: km, v: vm, rows: L}
	}
	mask := k.core.buildMask(optIn(in, 4), optIn(in, 5), k.a.MaskFilterValue, B, S, T)
	s := attnShape{rank: 3, b: B, hq: N, hkv: N, sq: S, skv: L, d: H, dv: Hv, past: P, tl: T}
	c.attend(s, qm, ym, segs[:nseg], mask, k.a.Unidirectional, P, 0)
	return nil
}

func init() {
	registerMS("MultiHeadAttention", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		a := c.rule.(*model.MHAAttrs)
		has := func(i int) bool { return c.n.Input(i) != "" }
		for _, i := range []int{1, 2, 3, 5, 6, 7} {
			if has(i) && c.inType(i) != payload.Float32 {
				return nil, c.invalid("input %d is %s, query is %s", i, c.inType(i), c.inType(0))
			}
		}
		if has(8) || has(9) {
			return nil, c.unsupported("past_sequence_length and cache_indirection")
		}
		if has(4) && c.inType(4) != payload.Int32 {
			return nil, c.unsupported("key_padding_mask of type %s (lintel reads int32)", c.inType(4))
		}
		if has(4) && c.in[4].RankKnown && len(c.in[4].Shape) > 3 {
			return nil, c.unsupported("a key_padding_mask of rank %d", len(c.in[4].Shape))
		}
		if len(c.n.Outputs) > 3 && c.n.Outputs[3] != "" {
			return nil, c.unsupported("the qk output")
		}
		// ONNX Runtime's CPU kernel runs neither packed form either.
		if !has(1) || !has(2) || !c.in[0].RankKnown || !c.in[1].RankKnown || len(c.in[0].Shape) != 3 || (len(c.in[1].Shape) != 3 && len(c.in[1].Shape) != 4) {
			return nil, c.unsupported("packed QKV or KV, or query and key of unknown rank (lintel runs 3-D query with 3-D or 4-D key and value)")
		}
		if has(3) && len(c.in[1].Shape) != 3 {
			return nil, c.unsupported("the bias with 4-D key and value")
		}
		k := &mhaKernel{n: c.n, a: a, core: newMSAttnCore(c, a.Scale, 0)}
		for j := 0; j < 3 && j < len(c.n.Outputs); j++ {
			k.used[j] = c.n.Outputs[j] != ""
		}
		return k, nil
	}))
}
