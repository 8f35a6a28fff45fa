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
		dr, xr := d[r*w:(r+1)*w], x[r*ld:]
		for j := range dr {
			dr[j] = xr[j] + b[j]
		}
	}
	return d
}

// growMask returns a mask of n values in m's scratch.
func (m *msAttnCore) growMask(n int) []float32 { return growF32(&m.mask, n) }
