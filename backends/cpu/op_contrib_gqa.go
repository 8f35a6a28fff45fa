package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// gqaKernel runs GroupQueryAttention (com.microsoft; model.GQAAttrs) on
// msAttnCore, one batch item at a time since each has a past length of
// its own: the present outputs (or scratch) are filled first, then each
// item's queries attend its first seqlens_k[b]+1 keys there, causally.
// It follows ONNX Runtime's CPU kernel: a subsequent prompt (sequence
// neither 1 nor total_sequence_length) needs batch 1, rotary positions
// default to each token's place in its item's sequence, and the present
// rows after an item's keys are zero. On a right-padded first prompt
// (seqlens_k[b]+1 < sequence) the queries past an item's length attend
// its keys only: ONNX Runtime's kernel leaves those rows undefined (it
// normalises scores it did not compute), so no parity row covers them.
// It refuses attention_bias,
// head_sink, smooth_softmax and the qk output.
type gqaKernel struct {
	n    *model.Node
	a    *model.GQAAttrs
	core *msAttnCore
	used [3]bool
	pos  []int64
	// past holds each batch item's past length.
	past []int
	// inPlace[kv] is set when present_key (kv 0) or present_value (1) is
	// carried in place (compute.Options.MaxSequence): the output is the
	// past input's own buffer, MaxSequence rows a head, which already
	// holds the past rows, and only the new rows are written.
	inPlace [2]bool
}

func (k *gqaKernel) run(in, out []*tensor) error {
	c := k.core
	qt := in[0]
	B, S, W := qt.shape[0], qt.shape[1], qt.shape[2]
	N, Nkv := int(k.a.NumHeads), int(k.a.KVNumHeads)
	packed := optIn(in, 1) == nil
	H := W / N
	if packed {
		H = W / (N + 2*Nkv)
	}
	P := 0
	var pk, pv []float32
	if t := optIn(in, 3); t != nil {
		P = t.shape[2]
		pk, pv = t.f32(), in[4].f32()
	}
	total := int(elems[int32](in[6])[0])
	T := max(total, P)
	seqlens := in[5].i32()
	first := S == total
	if !first && S > 1 && B != 1 {
		return shapeErr(k.n, "a prompt of %d tokens after past ones needs batch 1, not %d", S, B)
	}
	if !first && S != 1 && S > total {
		return shapeErr(k.n, "sequence %d is longer than total_sequence_length %d", S, total)
	}
	past := growInts(&k.past, B)
	for b := range B {
		tb := int(seqlens[b]) + 1
		pb := 0
		if !first {
			pb = tb - S
		}
		if tb < 1 || tb > T || pb < 0 || pb > P || pb+S > T {
			return shapeErr(k.n, "seqlens_k[%d] = %d does not fit %d new tokens, %d past and total_sequence_length %d", b, seqlens[b], S, P, total)
		}
		past[b] = pb
	}
	// The operands: query, key and value rows, ld apart.
	qd := qt.f32()
	var kd, vd []float32
	qld, kld := W, W
	if packed {
		kd, vd = qd[N*H:], qd[(N+Nkv)*H:]
	} else {
		kd, vd = in[1].f32(), in[2].f32()
		kld = Nkv * H
	}
	if k.a.DoRotary {
		if err := k.rotate(in, &qd, &kd, B, S, N, Nkv, H, qld, kld, first, packed); err != nil {
			return err
		}
		if packed {
			vd = qd[(N+Nkv)*H:]
		}
	}
	// Present keys and values: item b's past rows, then its new ones,
	// rows[kv] rows a head (T, or MaxSequence in place).
	dk, dv := c.presentBufs(out, k.used, B*Nkv*T*H)
	pres := [2][]float32{dk, dv}
	pasts := [2][]float32{pk, pv}
	news := [2][]float32{kd, vd}
	var rows [2]int
	for kv, d := range pres {
		rows[kv] = T
		if k.inPlace[kv] {
			rows[kv] = len(d) / max(B*Nkv*H, 1)
			if rows[kv] < T {
				return shapeErr(k.n, "the carried cache holds %d positions, the call needs %d", rows[kv], T)
			}
		} else {
			clear(d)
		}
		for b := range B {
			pb := past[b]
			for h := range Nkv {
				o := (b*Nkv + h) * rows[kv] * H
				if pb > 0 && !k.inPlace[kv] {
					po := (b*Nkv + h) * P * H
					copy(d[o:o+pb*H], pasts[kv][po:])
				}
				for i := range S {
					r := (b*S+i)*kld + h*H
					copy(d[o+(pb+i)*H:o+(pb+i+1)*H], news[kv][r:])
				}
			}
		}
	}
	c.capRows = 0
	if k.inPlace[0] {
		c.capRows = rows[0]
	}
	y := out[0].f32()
	window := 0
	if k.a.LocalWindow > 0 {
		window = int(k.a.LocalWindow)
	}
	for b := range B {
		pb, tb := past[b], int(seqlens[b])+1
		s := attnShape{rank: 3, b: 1, hq: N, hkv: Nkv, sq: S, skv: S, d: H, dv: H, past: pb, tl: tb}
		seg := [1]attnSeg{{
			k:    attnMat{data: dk[b*Nkv*rows[0]*H:], hs: rows[0] * H, ld: H},
			v:    attnMat{data: dv[b*Nkv*rows[1]*H:], hs: rows[1] * H, ld: H},
			rows: tb,
		}}
		c.attend(s, rowsMat(qd[b*S*qld:], S, qld, H), rowsMat(y[b*S*N*H:], S, N*H, H), seg[:], msMask{}, true, pb, window)
	}
	return nil
}

// rotate copies the new queries and keys into scratch and rotates them
// there, pointing *qd and *kd at the copies.
func (k *gqaKernel) rotate(in []*tensor, qd, kd *[]float32, B, S, N, Nkv, H, qld, kld int, first, packed bool) error {
	c := k.core
	cs, sn := in[7], in[8]
	half := cs.shape[1]
	rows := int64(cs.shape[0])
	pos := growInt64(&k.pos, B*S)
	if t := optIn(in, 9); t != nil {
		copy(pos, t.i64())
	} else {
		for b := range B {
			for i := range S {
				pos[b*S+i] = int64(i)
				if !first {
					pos[b*S+i] += int64(k.past[b])
				}
			}
		}
	}
	for _, p := range pos {
		if p < 0 || p >= rows {
			return shapeErr(k.n, "position %d out of range for caches of %d positions", p, rows)
		}
	}
	q := growF32(&c.scratch[0], len(*qd))
	copy(q, *qd)
	*qd = q
	if packed {
		*kd = q[N*H:]
	} else {
		kk := growF32(&c.scratch[1], len(*kd))
		copy(kk, *kd)
		*kd = kk
	}
	inter := k.a.RotaryInterleaved
	gq := rotaryGeom{b: B, h: N, s: S, d: H, half: half, bs: S * qld, hs: H, ss: qld}
	rotaryRun(inter, gq, *qd, *qd, cs.f32(), sn.f32(), pos)
	gk := rotaryGeom{b: B, h: Nkv, s: S, d: H, half: half, bs: S * kld, hs: H, ss: kld}
	rotaryRun(inter, gk, *kd, *kd, cs.f32(), sn.f32(), pos)
	return nil
}

// presentBufs returns the present key and value outputs, or scratch of
// n values for those the node leaves out.
func (m *msAttnCore) presentBufs(out []*tensor, used [3]bool, n int) (dk, dv []float32) {
	if used[1] {
		dk = out[1].f32()
	} else {
		dk = growF32(&m.kv[0], n)
	}
	if used[2] {
		dv = out[2].f32()
	} else {
		dv = growF32(&m.kv[1], n)
	}
	return dk, dv
}

func init() {
	registerMS("GroupQueryAttention", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		a := c.rule.(*model.GQAAttrs)
		has := func(i int) bool { return c.n.Input(i) != "" }
		for _, i := range []int{1, 2, 3, 4, 7, 8} {
			if has(i) && c.inType(i) != payload.Float32 {
				return nil, c.invalid("input %d is %s, query is %s", i, c.inType(i), c.inType(0))
			}
		}
		if c.inType(5) != payload.Int32 || c.inType(6) != payload.Int32 {
			return nil, c.invalid("seqlens_k and total_sequence_length are %s and %s, want int32", c.inType(5), c.inType(6))
		}
		if has(9) && c.inType(9) != payload.Int64 {
			return nil, c.invalid("position_ids is %s, want int64", c.inType(9))
		}
		switch {
		case has(10) || has(11):
			return nil, c.unsupported("attention_bias and head_sink")
		case a.SmoothSoftmax:
			return nil, c.unsupported("smooth_softmax")
		case a.QKOutput != 0 || len(c.n.Outputs) > 3 && c.n.Outputs[3] != "":
			return nil, c.unsupported("the qk output")
		case has(9) && !a.DoRotary:
			return nil, c.unsupported("position_ids without do_rotary")
		}
		k := &gqaKernel{n: c.n, a: a, core: newMSAttnCore(c, a.Scale, a.Softcap)}
		for j := 0; j < 3 && j < len(c.n.Outputs); j++ {
			k.used[j] = c.n.Outputs[j] != ""
		}
		return k, nil
	}))
}
