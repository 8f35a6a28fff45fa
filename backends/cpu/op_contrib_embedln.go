package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// embedLNKernel runs EmbedLayerNormalization (com.microsoft;
// model.EmbedLNAttrs) in float32 (float16 tables through viaF32): each
// token's rows are summed, then normalised in float64 with the mean
// taken out first, as ONNX Runtime does in two passes. Ids outside
// their table are a run-time error. The position_ids input is refused:
// each token's position is its place in the sequence.
type embedLNKernel struct {
	n   *model.Node
	eps float64
}

func (k *embedLNKernel) run(in, out []*tensor) error {
	ids := in[0].i32()
	B, S := in[0].shape[0], in[0].shape[1]
	word, pos := in[2], in[3]
	gamma, beta := in[5].f32(), in[6].f32()
	H := len(gamma)
	var segIDs []int32
	var seg *tensor
	if t := optIn(in, 1); t != nil {
		segIDs, seg = t.i32(), in[4]
	}
	y := out[0].f32()
	var sum []float32
	if len(out) > 2 && len(out[2].data) > 0 {
		sum = out[2].f32()
	}
	w, p := word.f32(), pos.f32()
	for b := range B {
		for i := range S {
			t := b*S + i
			wid, pid := int(ids[t]), i
			if wid < 0 || wid >= word.shape[0] || pid < 0 || pid >= pos.shape[0] {
				return shapeErr(k.n, "token %d: word id %d or position %d outside the tables (%d and %d rows)", t, wid, pid, word.shape[0], pos.shape[0])
			}
			yr := y[t*H : (t+1)*H]
			wr, pr := w[wid*H:][:H], p[pid*H:][:H]
			for j := range yr {
				yr[j] = wr[j] + pr[j]
			}
			if seg != nil {
				sid := int(segIDs[t])
				if sid < 0 || sid >= seg.shape[0] {
					return shapeErr(k.n, "token %d: segment id %d outside the table of %d rows", t, sid, seg.shape[0])
				}
				for j, v := range seg.f32()[sid*H:][:H] {
					yr[j] += v
				}
			}
			if sum != nil {
				copy(sum[t*H:(t+1)*H], yr)
			}
			var s float64
			for _, v := range yr {
				s += float64(v)
			}
			mu := s / float64(H)
			var sq float64
			for _, v := range yr {
				d := float64(v) - mu
				sq += d * d
			}
			den := math.Sqrt(sq/float64(H) + k.eps)
			for j, v := range yr {
				yr[j] = float32((float64(v)-mu)/den)*gamma[j] + beta[j]
			}
		}
	}
	if len(out) > 1 && len(out[1].data) > 0 {
		mi := out[1].i32()
		clear(mi)
		if t := optIn(in, 7); t != nil {
			m := t.i32()
			for b := range B {
				for _, v := range m[b*S : (b+1)*S] {
					if v == 1 {
						mi[b]++
					}
				}
			}
		}
	}
	return nil
}

func init() {
	registerMS("EmbedLayerNormalization", viaF32(func(c *buildCtx) (kernel, error) {
		for _, i := range []int{0, 1, 7, 8} {
			if c.n.Input(i) != "" && c.inType(i) != payload.Int32 {
				return nil, c.unsupported("input %d of type %s (lintel reads int32 ids and masks)", i, c.inType(i))
			}
		}
		for _, i := range []int{2, 3, 4, 5, 6} {
			if c.n.Input(i) != "" && c.inType(i) != payload.Float32 {
				return nil, c.unsupported("input %d of type %s", i, c.inType(i))
			}
		}
		if c.n.Input(8) != "" {
			return nil, c.unsupported("the position_ids input")
		}
		a := c.rule.(*model.EmbedLNAttrs)
		return &embedLNKernel{n: c.n, eps: float64(a.Epsilon)}, nil
	}, 0, 1, 7, 8))
}
