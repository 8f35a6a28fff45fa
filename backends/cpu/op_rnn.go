package cpu

import "github.com/lintel-ml/lintel/model"

func init() {
	register("RNN", func(c *buildCtx) (kernel, error) {
		return buildRecurrent(c, cellRNN, &c.rule.(*model.RNNAttrs).RecurrentAttrs)
	})
}

// stepRNN runs step s of direction d for every item still running:
// Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb), the input of f clipped.
func (k *rnnKernel[E]) stepRNN(d, s int, reverse bool, y []E) {
	H, B := k.hidden, k.batch
	k.mm(B, k.h, H, &k.r[d], 0, k.gates, H, nil)
	f := k.acts[d][0]
	for b := range B {
		t, ok := k.stepTime(s, b, reverse)
		if !ok {
			continue
		}
		gt := k.gates[b*H : (b+1)*H]
		addClip(gt, k.proj[k.row(t, b)*H:], k.clip)
		f(gt)
		copy(k.h[b*H:(b+1)*H], gt)
		if y != nil {
			copy(y[k.yOff(t, d, b):], gt)
		}
	}
}
