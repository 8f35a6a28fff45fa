package cpu

import "github.com/lintel-ml/lintel/model"

func init() {
	register("GRU", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.GRUAttrs)
		k, err := buildRecurrent(c, cellGRU, &a.RecurrentAttrs)
		if err != nil {
			return nil, err
		}
		switch k := k.(type) {
		case *rnnKernel[float32]:
			k.lbr = a.LinearBeforeReset
		case *rnnKernel[float64]:
			k.lbr = a.LinearBeforeReset
		}
		return k, nil
	})
}

// stepGRU runs step s of direction d for every item still running (see
// model.GRUAttrs): zt and rt from the product by R's z and r rows, then
// the product by Rh of Ht-1 (linear_before_reset, Rbh added after it) or
// of rt ⊙ Ht-1, then ht and Ht.
func (k *rnnKernel[E]) stepGRU(d, s int, reverse bool, y []E, in []*tensor) {
	H, B := k.hidden, k.batch
	G := 3 * H
	k.mm(B, k.h, H, &k.r[d], 0, k.gates, G, nil)
	acts := k.acts[d]
	f, g := acts[0], acts[1]
	if k.lbr {
		var rbh []E
		if len(in) > 3 && in[3] != nil {
			rbh = elems[E](in[3])[d*6*H+5*H : d*6*H+6*H]
		}
		k.mm(B, k.h, H, &k.r2[d], 0, k.gates[2*H:], G, rbh)
	}
	for b := range B {
		t, ok := k.stepTime(s, b, reverse)
		if !ok {
			if !k.lbr {
				clear(k.rh[b*H : (b+1)*H])
			}
			continue
		}
		gt := k.gates[b*G : (b+1)*G]
		pr := k.proj[k.row(t, b)*G : (k.row(t, b)+1)*G]
		gz, gr := gt[:H], gt[H:2*H]
		addClip(gz, pr[:H], k.clip)
		f(gz)
		addClip(gr, pr[H:2*H], k.clip)
		f(gr)
		hp := k.h[b*H : (b+1)*H]
		if k.lbr {
			gh := gt[2*H:]
			for j := range gh {
				gh[j] *= gr[j]
			}
			continue
		}
		rh := k.rh[b*H : (b+1)*H]
		for j := range rh {
			rh[j] = gr[j] * hp[j]
		}
	}
	if !k.lbr {
		k.mm(B, k.rh, H, &k.r2[d], 0, k.gates[2*H:], G, nil)
	}
	for b := range B {
		t, ok := k.stepTime(s, b, reverse)
		if !ok {
			continue
		}
		gt := k.gates[b*G : (b+1)*G]
		pr := k.proj[k.row(t, b)*G : (k.row(t, b)+1)*G]
		gz, gh := gt[:H], gt[2*H:]
		addClip(gh, pr[2*H:], k.clip)
		g(gh)
		hp := k.h[b*H : (b+1)*H]
		for j := range hp {
			hp[j] = (1-gz[j])*gh[j] + gz[j]*hp[j]
		}
		if y != nil {
			copy(y[k.yOff(t, d, b):], hp)
		}
	}
}
