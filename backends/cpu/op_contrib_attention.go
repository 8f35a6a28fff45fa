package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// msAttentionKernel runs Attention (com.microsoft;
// model.MSAttentionAttrs): the fused projection with the packed SGEMM
// (constant weights packed at load) into scratch, then msAttnCore over
// its Q, K and V columns in place. It refuses do_rotary,
// past_present_share_buffer, past_sequence_length and a 4-D
// (Megatron) mask_index.
type msAttentionKernel struct {
	n    *model.Node
	a    *model.MSAttentionAttrs
	core *msAttnCore
	gc   *gemmCtx
	pb   gemmB
	qkv  []float32
	pres bool
}

func (k *msAttentionKernel) run(in, out []*tensor) error {
	x := in[0].shape
	B, S, Din := x[0], x[1], x[2]
	W := in[1].shape[1]
	dq, dk, dv := k.a.Sizes(W)
	N := int(k.a.NumHeads)
	H, Hv := dk/N, dv/N
	qkv := growF32(&k.qkv, B*S*W)
	gb := gemmB{data: in[1].f32(), ld: W}
	if k.pb.prepacked() {
		gb = k.pb
	}
	k.gc.run(B*S, W, Din, 1, gemmA{data: in[0].f32(), ld: Din}, gb, 0, qkv, W)
	if t := optIn(in, 2); t != nil {
		bias := t.f32()
		for r := range B * S {
			addVec32(qkv[r*W:(r+1)*W], bias[:W])
		}
	}
	qm := rowsMat(qkv, S, W, dq/N)
	km := rowsMat(qkv[dq:], S, W, H)
	vm := rowsMat(qkv[dq+dk:], S, W, Hv)
	P := 0
	var pk, pv []float32
	if t := optIn(in, 4); t != nil {
		P = t.shape[3]
		p := t.f32()
		pk, pv = p[:B*N*P*H], p[B*N*P*H:]
	}
	T := P + S
	c := k.core
	var segs [2]attnSeg
	nseg := 1
	switch {
	case k.pres:
		p := out[1].f32()
		n := B * N * T * H
		segs[0] = attnSeg{k: attnConcat(p[:n], pk, km, B, N, P, S, H), v: attnConcat(p[n:], pv, vm, B, N, P, S, Hv), rows: T}
	case pk != nil:
		segs[0] = attnSeg{k: attnLayout(pk, 4, N, P, H), v: attnLayout(pv, 4, N, P, Hv), rows: P}
		segs[1] = attnSeg{k: km, v: vm, rows: S, col0: P}
		nseg = 2
	default:
		segs[0] = attnSeg{k: km, v: vm, rows: S}
	}
	mask := c.buildMask(optIn(in, 3), optIn(in, 5), k.a.MaskFilterValue, B, S, T)
	s := attnShape{rank: 3, b: B, hq: N, hkv: N, sq: S, skv: S, d: H, dv: Hv, past: P, tl: T}
	c.attend(s, qm, rowsMat(out[0].f32(), S, dv, Hv), segs[:nseg], mask, k.a.Unidirectional, P, 0)
	return nil
}

func init() {
	registerMS("Attention", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		a := c.rule.(*model.MSAttentionAttrs)
		has := func(i int) bool { return c.n.Input(i) != "" }
		for _, i := range []int{1, 2, 4, 5} {
			if has(i) && c.inType(i) != payload.Float32 {
				return nil, c.invalid("input %d is %s, input 0 is %s", i, c.inType(i), c.inType(0))
			}
		}
		switch {
		case a.DoRotary:
			return nil, c.unsupported("do_rotary")
		case a.SharePastPresent || has(6):
			return nil, c.unsupported("past_present_share_buffer and past_sequence_length")
		case has(3) && c.inType(3) != payload.Int32:
			return nil, c.unsupported("mask_index of type %s (lintel reads int32)", c.inType(3))
		case has(3) && c.in[3].RankKnown && len(c.in[3].Shape) > 3:
			return nil, c.unsupported("a mask_index of rank %d", len(c.in[3].Shape))
		case has(3) && !c.in[3].RankKnown:
			return nil, c.unsupported("a mask_index of unknown rank")
		}
		k := &msAttentionKernel{n: c.n, a: a, core: newMSAttnCore(c, a.Scale, 0), gc: c.gemmCtx()}
		k.pres = len(c.n.Outputs) > 1 && c.n.Outputs[1] != ""
		if w := c.constInput(1); w != nil && len(w.Shape) == 2 {
			var err error
			if k.pb, err = sharePackedB(c, w, false, w.Shape[0], w.Shape[1]); err != nil {
				return nil, err
			}
		}
		return k, nil
	}))
}
