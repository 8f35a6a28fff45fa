package cpu

import "github.com/lintel-ml/lintel/model"

func init() {
	register("LSTM", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.LSTMAttrs)
		k, err := buildRecurrent(c, cellLSTM, &a.RecurrentAttrs)
		if err != nil {
			return nil, err
		}
		switch k := k.(type) {
		case *rnnKernel[float32]:
			k.inputForget = a.InputForget
		case *rnnKernel[float64]:
			k.inputForget = a.InputForget
		}
		return k, nil
	})
}

// stepLSTM runs step s of direction d for every item still running
// (see model.LSTMAttrs): the gates, in W's order i, o, f, c, then Ct and
// Ht. ONNX Runtime's order of operations: peephole products before the
// bias, the clip on every gate's input, ft = 1 - it with input_forget.
func (k *rnnKernel[E]) stepLSTM(d, s int, reverse bool, y []E, in []*tensor) {
	H, B := k.hidden, k.batch
	G := 4 * H
	k.mm(B, k.h, H, &k.r[d], 0, k.gates, G, nil)
	var pi, po, pf []E
	if len(in) > 7 && in[7] != nil {
		p := elems[E](in[7])[d*3*H : (d+1)*3*H]
		pi, po, pf = p[:H], p[H:2*H], p[2*H:]
	}
	acts := k.acts[d]
	f, g, hf := acts[0], acts[1], acts[2]
	for b := range B {
		t, ok := k.stepTime(s, b, reverse)
		if !ok {
			continue
		}
		gt := k.gates[b*G : (b+1)*G]
		pr := k.proj[k.row(t, b)*G : (k.row(t, b)+1)*G]
		gi, gO, gf, gc := gt[:H], gt[H:2*H], gt[2*H:3*H], gt[3*H:]
		cp := k.c[b*H : (b+1)*H]
		if pi != nil {
			peep(gi, pi, cp)
		}
		addClip(gi, pr[:H], k.clip)
		f(gi)
		if k.inputForget {
			for j := range gf {
				gf[j] = 1 - gi[j]
			}
		} else {
			if pf != nil {
				peep(gf, pf, cp)
			}
			addClip(gf, pr[2*H:3*H], k.clip)
			f(gf)
		}
		addClip(gc, pr[3*H:], k.clip)
		g(gc)
		for j := range cp {
			cp[j] = cp[j]*gf[j] + gi[j]*gc[j]
		}
		if po != nil {
			peep(gO, po, cp)
		}
		addClip(gO, pr[H:2*H], k.clip)
		f(gO)
		tmp := k.tmp[:H]
		copy(tmp, cp)
		hf(tmp)
		hb := k.h[b*H : (b+1)*H]
		for j := range hb {
			hb[j] = gO[j] * tmp[j]
		}
		if y != nil {
			copy(y[k.yOff(t, d, b):], hb)
		}
	}
}

// peep adds p ⊙ c to g.
func peep[E float32 | float64](g, p, c []E) {
	p, c = p[:len(g)], c[:len(g)]
	for j := range g {
		g[j] += p[j] * c[j]
	}
}
