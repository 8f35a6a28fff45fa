package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// msAttnCore runs the attention of ONNX Runtime's contrib attention ops
// (MultiHeadAttention, GroupQueryAttention, Attention) on the kernel of
// ONNX's Attention (attentionKernel.launch): the op's kernel lays out
// Q, Y and the key and value segments as attnMats over its inputs,
// outputs or scratch, so that packed and 3-D inputs are read in place,
// and builds the additive mask. Everything runs in float32; float16
// nodes go through viaF32.
type msAttnCore struct {
	k    attentionKernel
	attr model.AttentionAttrs
	// mask is the additive mask of a call, (mb, mh, sq, tl) with mb and
	// mh 1 where it does not vary.
	mask []float32
	// kv holds past and new keys and values when the node has no
	// present outputs to hold them.
	kv [2][]float32
	// scratch holds inputs copied to add a bias or rotate them.
	scratch [3][]float32
	// capRows, when set, is the rows a head of an in-place cache that
	// the keys are read from: the kernel's scratch is sized for it once.
	capRows int
}

func newMSAttnCore(c *buildCtx, scale, softcap float32) *msAttnCore {
	m := &msAttnCore{}
	m.attr = model.AttentionAttrs{Scale: scale, HasScale: scale != 0, Softcap: softcap}
	m.k = attentionKernel{n: c.n, a: &m.attr, dt: payload.Float32, gc: c.gemmCtx()}
	return m
}

// msMask describes an additive mask of shape (mb, mh, sq, tl), mb and
// mh being 1 or the batch and head counts; nil data when there is none.
type msMask struct {
	data   []float32
	mb, mh int
}

// attend computes Y for the call of sizes s (s.tl keys in all) from q,
// the key and value segments segs, the mask, and the causal mask with
// offset off when causal (window > 0 bounds it, see attnBias.window).
func (m *msAttnCore) attend(s attnShape, q, y attnMat, segs []attnSeg, mask msMask, causal bool, off, window int) {
	cl := &m.k.call
	*cl = attnCall{s: s, q: q, y: y}
	cl.nseg = copy(cl.segs[:], segs)
	cl.capRows = m.capRows
	cl.scale = m.attr.Scale
	if !m.attr.HasScale {
		cl.scale = float32(1 / math.Sqrt(float64(s.d)))
	}
	b := &cl.bias
	b.sq, b.mlen = s.sq, s.tl
	if mask.data != nil {
		b.mf = mask.data
		b.mstr[2] = s.tl
		b.mstr[1] = 0
		if mask.mh > 1 {
			b.mstr[1] = s.sq * s.tl
		}
		b.mstr[0] = 0
		if mask.mb > 1 {
			b.mstr[0] = mask.mh * s.sq * s.tl
		}
	}
	b.causal, b.off, b.window = causal, off, window
	m.k.launch()
}

// rowsMat is the layout of a (batch, seq, heads·width) operand whose
// rows are ld apart, head h's values starting at h·hs in its row.
func rowsMat(data []float32, seq, ld, hs int) attnMat {
	return attnMat{data: data, bs: seq * ld, hs: hs, ld: ld}
}

// addBias returns x, (rows, w) with rows ld apart (w of them), with b
// (w) added to every row, in scratch i, as a (rows, w) matrix.
func (m *msAttnCore) addBias(i int, x []float32, rows, w, ld int, b []float32) []float32 {
	d := growF32(&m.scratch[i], rows*w)
	for r := range rows {
		dr := d[r*w : (r+1)*w]
		copy(dr, x[r*ld:])
		addVec32(dr, b[:w])
	}
	return d
}

// growMask returns a mask of n values in m's scratch.
func (m *msAttnCore) growMask(n int) []float32 { return growF32(&m.mask, n) }

// buildMask builds the additive mask of an int32 key mask kpm and a
// float attention bias ab (batch or 1, heads or 1, S, T), either nil:
// a masked key adds filter. kpm is (B) key counts, (2·B) ends then
// starts, (B, T) or (B, S, T) with 0 for a masked key.
func (m *msAttnCore) buildMask(kpm, ab *tensor, filter float32, B, S, T int) msMask {
	if kpm == nil && ab == nil {
		return msMask{}
	}
	mb, mh := 1, 1
	var a0, a1 int
	if ab != nil {
		a0, a1 = ab.shape[0], ab.shape[1]
		mb, mh = a0, a1
	}
	if kpm != nil {
		mb = B
	}
	d := m.growMask(mb * mh * S * T)
	clear(d)
	if ab != nil {
		v := ab.f32()
		for b := range mb {
			for h := range mh {
				copy(d[(b*mh+h)*S*T:][:S*T], v[((b%a0)*a1+h%a1)*S*T:])
			}
		}
	}
	if kpm == nil {
		return msMask{data: d, mb: mb, mh: mh}
	}
	v := kpm.i32()
	for b := range mb {
		for h := range mh {
			for i := range S {
				row := d[((b*mh+h)*S+i)*T:][:T]
				switch {
				case len(kpm.shape) == 1:
					end, start := int(v[b]), 0
					if len(v) == 2*B {
						start = int(v[B+b])
					}
					for j := range row {
						if j < start || j >= end {
							row[j] += filter
						}
					}
				case len(kpm.shape) == 2:
					for j, x := range v[b*T : (b+1)*T] {
						if x == 0 {
							row[j] += filter
						}
					}
				default:
					for j, x := range v[(b*S+i)*T : (b*S+i+1)*T] {
						if x == 0 {
							row[j] += filter
						}
					}
				}
			}
		}
	}
	return msMask{data: d, mb: mb, mh: mh}
}
