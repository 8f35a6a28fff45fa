package cpu

import (
	"math"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// attentionKernel runs Attention (opsets 23 and 24) in float32, and in
// float16 by widening the inputs to float32 and narrowing the outputs.
// Per batch item and key/value head it computes the scores of the query
// heads that read it with the packed SGEMM, then softcap, bias and
// softmax row by row in place, then the scores times V with the SGEMM
// again, straight into Y (3-D inputs are read and written with strides:
// no transposes); see compute. Long rows with no qk output run tiled
// instead, with an online softmax, so that no sequence×sequence matrix
// is held (op_attention_tiled.go). The descriptor's rule
// (model.AttentionAttrs) has checked the shapes.
//
// It follows ONNX's reference and the backend test suite where ONNX
// Runtime 1.24 departs from them: the softcap applies before the mask (so
// -inf stays -inf), a row with every key masked gives zeros, and
// nonpad_kv_seqlen masks each batch item's padded keys.
type attentionKernel struct {
	n  *model.Node
	a  *model.AttentionAttrs
	dt payload.DType
	gc *gemmCtx
	// maskBool is set when attn_mask is a bool tensor.
	maskBool bool
	// used[j] reports whether the node names output j.
	used [4]bool
	// call is the current call's state; workers hold each part's
	// scratch.
	call    attnCall
	workers []attnWorker
	// kv holds the keys and values, past and new, when present_key and
	// present_value are not outputs to hold them.
	kv [2][]float32
	// wide holds the float16 inputs and outputs widened, by the index
	// of attnBuf*.
	wide [attnBufs][]float32
	// inPlace[kv] is set when present_key (kv 0) or present_value (1)
	// is a carried value kept in place (compute.Options.Carries): that
	// output's bytes are the past input's, MaxSequence rows per head,
	// and the call appends the new rows after the past ones.
	inPlace [2]bool
}

// The buffers of a float16 call, in attentionKernel.wide.
const (
	attnBufQ = iota
	attnBufK
	attnBufV
	attnBufMask
	attnBufPastK
	attnBufPastV
	attnBufY
	attnBufPresK
	attnBufPresV
	attnBufQK
	attnBufs
)

// attnMat locates the (batch, head) matrices of a 3-D or 4-D operand:
// matrix (b, h) starts at b*bs + h*hs and its rows are ld apart.
type attnMat struct {
	data       []float32
	bs, hs, ld int
}

// at returns matrix (b, h) and the rest of the data after it; nil when
// the operand is empty there (a zero dim), where the SGEMM reads
// nothing.
func (m attnMat) at(b, h int) []float32 {
	if o := b*m.bs + h*m.hs; o < len(m.data) {
		return m.data[o:]
	}
	return nil
}

// attnLayout returns the layout of an operand of the given rank with
// heads heads of seq rows of width d each.
func attnLayout(data []float32, rank, heads, seq, d int) attnMat {
	if rank == 3 {
		return attnMat{data: data, bs: seq * heads * d, hs: d, ld: heads * d}
	}
	return attnMat{data: data, bs: heads * seq * d, hs: seq * d, ld: d}
}

// attnShape is one call's sizes.
type attnShape struct {
	rank                                 int
	b, hq, hkv, sq, skv, d, dv, past, tl int
}

// shapeOf reads the sizes from the inputs' shapes, which the rule has
// checked.
func (k *attentionKernel) shapeOf(in []*tensor) attnShape {
	q, kk, v := in[0].shape, in[1].shape, in[2].shape
	s := attnShape{rank: len(q)}
	if s.rank == 3 {
		s.b, s.sq, s.skv = q[0], q[1], kk[1]
		s.hq, s.hkv = int(k.a.QNumHeads), int(k.a.KVNumHeads)
		s.d, s.dv = q[2]/s.hq, v[2]/s.hkv
	} else {
		s.b, s.hq, s.sq, s.d = q[0], q[1], q[2], q[3]
		s.hkv, s.skv, s.dv = kk[1], kk[2], v[3]
	}
	if pk := optIn(in, 4); pk != nil {
		s.past = pk.shape[2]
	}
	s.tl = s.past + s.skv
	return s
}

func (k *attentionKernel) run(in, out []*tensor) error {
	s := k.shapeOf(in)
	if k.dt == payload.Float32 {
		var o [4][]float32
		for j := range out {
			if k.used[j] {
				o[j] = out[j].f32()
			}
		}
		var pk, pv, mask []float32
		if t := optIn(in, 4); t != nil {
			pk, pv = t.f32(), in[5].f32()
		}
		if t := optIn(in, 3); t != nil && !k.maskBool {
			mask = t.f32()
		}
		k.compute(s, in, in[0].f32(), in[1].f32(), in[2].f32(), mask, pk, pv, o)
		return nil
	}
	// float16: widen, compute, narrow.
	w := func(i int, t *tensor) []float32 {
		if t == nil {
			return nil
		}
		src := elems[uint16](t)
		b := growF32(&k.wide[i], len(src))
		halfF16.widenAll(b, src)
		return b
	}
	var mask []float32
	if !k.maskBool {
		mask = w(attnBufMask, optIn(in, 3))
	}
	var o [4][]float32
	for j := range out {
		if k.used[j] {
			o[j] = growF32(&k.wide[attnBufY+j], out[j].numel())
		}
	}
	k.compute(s, in, w(attnBufQ, in[0]), w(attnBufK, in[1]), w(attnBufV, in[2]), mask, w(attnBufPastK, optIn(in, 4)), w(attnBufPastV, optIn(in, 5)), o)
	for j := range out {
		if k.used[j] {
			d := elems[float16.Float16](out[j])
			for i, v := range o[j][:len(d)] {
				d[i] = float16.Fromfloat32(v)
			}
		}
	}
	return nil
}

// attnSeg is one run of keys and values: past_key and past_value, or K
// and V, or the present outputs holding both.
type attnSeg struct {
	k, v attnMat
	// rows is the segment's key count and col0 its first column in the
	// scores.
	rows, col0 int
}

// attnCall is one call's state, read by runPart.
type attnCall struct {
	s     attnShape
	q, y  attnMat
	qk    []float32
	segs  [2]attnSeg
	nseg  int
	bias  attnBias
	scale float32
	group int // query heads per unit
	qld   int // row strides of a unit's Q and Y rows
	yld   int
	units int
	parts int
	// capRows is the rows per head of an in-place cache (the scratch is
	// sized for them once), 0 otherwise.
	capRows int
	single  *gemmCtx // the SGEMM context of a one-part call
}

// attnWorker is one part's scratch: its scores and, when the call is
// split across threads, a one-thread SGEMM context of its own.
type attnWorker struct {
	gc   *gemmCtx
	s    []float32
	kq   []float32
	ends []int
	// mx and sum are the tiled path's running maxima and sums.
	mx, sum []float32
	// inv holds, per query row of a unit, the factor its row of Y takes
	// after the products (attnExpRow).
	inv []float32
}

// attnFewRows is the most query rows per unit for which the scores are
// computed as K·Qᵀ.
const attnFewRows = 8

// compute runs the op in float32: q, k and v are the inputs, mask the
// float attn_mask (nil when absent or bool), pk and pv the past keys and
// values (nil when absent), and o the outputs (nil when unused).
//
// The work is split into units of query rows that read one key/value
// head: every query head of a group when their rows are evenly spaced
// (4-D inputs, or 3-D with one query), else one head. Each unit's
// scores are two SGEMMs at most, one per key segment, so past and new
// keys are not copied together unless present outputs are asked for;
// units run in parallel on the model's threads.
func (k *attentionKernel) compute(s attnShape, in []*tensor, q, kd, vd, mask, pk, pv []float32, o [4][]float32) {
	cl := &k.call
	*cl = attnCall{s: s, qk: o[3]}
	cl.q = attnLayout(q, s.rank, s.hq, s.sq, s.d)
	cl.y = attnLayout(o[0], s.rank, s.hq, s.sq, s.dv)
	km := attnLayout(kd, s.rank, s.hkv, s.skv, s.d)
	vm := attnLayout(vd, s.rank, s.hkv, s.skv, s.dv)
	switch {
	case o[1] != nil || o[2] != nil:
		// The present outputs hold past and new keys and values: fill
		// them and read them. An output left out gets scratch.
		dk, dv := o[1], o[2]
		if dk == nil {
			dk = growF32(&k.kv[0], s.b*s.hkv*s.tl*s.d)
		}
		if dv == nil {
			dv = growF32(&k.kv[1], s.b*s.hkv*s.tl*s.dv)
		}
		ck, cv := attnConcat, attnConcat
		if k.inPlace[0] {
			ck = attnAppend
			cl.capRows = len(dk) / max(s.b*s.hkv*s.d, 1)
		}
		if k.inPlace[1] {
			cv = attnAppend
		}
		cl.segs[0] = attnSeg{k: ck(dk, pk, km, s.b, s.hkv, s.past, s.skv, s.d), v: cv(dv, pv, vm, s.b, s.hkv, s.past, s.skv, s.dv), rows: s.tl}
		cl.nseg = 1
	case pk != nil:
		cl.segs[0] = attnSeg{k: attnLayout(pk, 4, s.hkv, s.past, s.d), v: attnLayout(pv, 4, s.hkv, s.past, s.dv), rows: s.past}
		cl.segs[1] = attnSeg{k: km, v: vm, rows: s.skv, col0: s.past}
		cl.nseg = 2
	default:
		cl.segs[0] = attnSeg{k: km, v: vm, rows: s.skv}
		cl.nseg = 1
	}
	cl.scale = k.a.Scale
	if !k.a.HasScale {
		cl.scale = float32(1 / math.Sqrt(float64(s.d)))
	}
	cl.bias.init(k, s, in, mask)
	k.launch()
}

// attnStacked reports whether the rows of consecutive heads of m, sq
// rows each, form one matrix, and its row stride.
func attnStacked(m attnMat, sq int) (int, bool) {
	if sq == 1 {
		return m.hs, true
	}
	if m.hs == sq*m.ld {
		return m.ld, true
	}
	return 0, false
}

// launch runs the call k.call describes: its shape, Q and Y, key and
// value segments, qk output, scale and bias set.
func (k *attentionKernel) launch() {
	cl := &k.call
	s := cl.s
	grp := max(s.hq/max(s.hkv, 1), 1)
	cl.group, cl.qld, cl.yld = 1, cl.q.ld, cl.y.ld
	if qs, ok := attnStacked(cl.q, s.sq); ok {
		if ys, ok := attnStacked(cl.y, s.sq); ok {
			cl.group, cl.qld, cl.yld = grp, qs, ys
		}
	}
	cl.units = s.b * (s.hq / cl.group)
	work := cl.group * s.sq * s.tl * (s.d + s.dv)
	cl.parts = 1
	if pool := k.gc.pool; pool != nil {
		cl.parts = max(1, min(pool.size(), cl.units, cl.units*work/(1<<16)))
	}
	if len(k.workers) < cl.parts {
		k.workers = append(k.workers, make([]attnWorker, cl.parts-len(k.workers))...)
	}
	if cl.parts == 1 {
		cl.single = k.gc
		k.runPart(0)
	} else {
		k.gc.pool.run(k, cl.parts)
	}
	k.call = attnCall{}
}

// runPart computes units [part*units/parts, (part+1)*units/parts) of
// the current call.
func (k *attentionKernel) runPart(part int) {
	cl := &k.call
	s := &cl.s
	w := &k.workers[part]
	gc := cl.single
	if gc == nil {
		if w.gc == nil {
			w.gc = newGemmCtx(nil)
		}
		gc = w.gc
	}
	m := cl.group * s.sq
	tl := s.tl
	if r := cl.capRows; r > 0 {
		// An in-place cache grows a row a call: pack for its full size
		// once.
		w := max(s.d, s.dv)
		gc.reserve(r, w)
		gc.reserve(w, r)
	}
	tiled := cl.attnTiled(m, tl)
	var sc []float32
	if !tiled {
		sc = growF32(&w.s, m*max(tl, cl.capRows))[:m*tl]
	}
	perB := s.hq / cl.group
	grp := max(s.hq/max(s.hkv, 1), 1)
	mode := k.a.Mode
	dec := m <= attnFewRows && attnDecodeFits(s.d, s.dv)
	for u := part * cl.units / cl.parts; u < (part+1)*cl.units/cl.parts; u++ {
		b, h0 := u/perB, (u%perB)*cl.group
		kh := h0 / grp
		if tiled {
			k.tiledUnit(w, gc, b, h0, kh, m)
			continue
		}
		qa := cl.q.at(b, h0)
		for _, g := range cl.segs[:cl.nseg] {
			ka := g.k.at(b, kh)
			if dec {
				attnScores(qa, cl.qld, m, ka, g.k.ld, g.rows, s.d, cl.scale, sc[g.col0:], tl)
				continue
			}
			if m > attnFewRows {
				// Alpha 1 lets the product read Q in place; the scale
				// follows, applied to the sums as ONNX Runtime does.
				gc.sgemm(false, true, m, g.rows, s.d, 1, qa, cl.qld, ka, g.k.ld, 0, sc[g.col0:], tl)
				if cl.scale != 1 {
					for r := range m {
						mulConst32(sc[r*tl+g.col0:][:g.rows], cl.scale)
					}
				}
				continue
			}
			// Few query rows (decoding): Kᵀ as the SGEMM's B would be
			// packed by a strided gather of every key. Compute K·Qᵀ
			// instead, which reads K row by row, and transpose the
			// small result, scaling it (alpha 1 keeps K's packing a
			// plain copy).
			kq := growF32(&w.kq, max(g.rows, cl.capRows)*m)
			gc.sgemm(false, true, g.rows, m, s.d, 1, ka, g.k.ld, qa, cl.qld, 0, kq, m)
			for r := range m {
				dst := sc[r*tl+g.col0:][:g.rows]
				for t := range dst {
					dst[t] = cl.scale * kq[t*m+r]
				}
			}
		}
		var qk []float32
		if cl.qk != nil {
			qk = cl.qk[(b*s.hq+h0)*s.sq*tl:][:m*tl]
		}
		if qk != nil && mode == 0 {
			copy(qk, sc)
		}
		if c := k.a.Softcap; c > 0 {
			for i, v := range sc {
				sc[i] = c * float32(math.Tanh(float64(v/c)))
			}
		}
		if qk != nil && mode == 1 {
			copy(qk, sc)
		}
		// ends[r] is where row r's masked tail starts (causal, padding).
		ends := growInts(&w.ends, m)
		fill := qk != nil && mode == 2
		for r := range m {
			ends[r] = cl.bias.apply(sc[r*tl:(r+1)*tl], b, h0+r/s.sq, r%s.sq, fill)
		}
		if qk != nil && mode == 2 {
			copy(qk, sc)
		}
		// The probabilities are normalised in place only when they are
		// an output; otherwise each row of Y is divided by its row's sum
		// after the products, dv values a row instead of tl.
		norm := qk != nil && mode == 3
		hasMask := cl.bias.mf != nil || cl.bias.mb != nil || cl.bias.window > 0
		inv := growF32(&w.inv, m)
		for r := range m {
			row := sc[r*tl : (r+1)*tl]
			if norm {
				attnSoftmax(row[:ends[r]], hasMask)
				inv[r] = 1
			} else {
				inv[r] = attnExpRow(row[:ends[r]])
			}
			clear(row[ends[r]:])
		}
		if norm {
			copy(qk, sc)
		}
		ya := cl.y.at(b, h0)
		for i, g := range cl.segs[:cl.nseg] {
			if dec {
				attnPV(sc[g.col0:], tl, m, g.v.at(b, kh), g.v.ld, g.rows, s.dv, i > 0, ya, cl.yld)
				continue
			}
			beta := float32(1)
			if i == 0 {
				beta = 0
			}
			gc.sgemm(false, false, m, s.dv, g.rows, 1, sc[g.col0:], tl, g.v.at(b, kh), g.v.ld, beta, ya, cl.yld)
		}
		for r, f := range inv {
			if f != 1 {
				mulConst32(ya[r*cl.yld:][:s.dv], f)
			}
		}
	}
}

// attnAppend writes the new rows of src after the np past ones of each
// head in dst, a carried cache whose heads hold len(dst)/(batch·heads)
// rows each, and returns its layout; past is dst itself and is not read.
func attnAppend(dst, past []float32, src attnMat, batch, heads, np, seq, d int) attnMat {
	rows := len(dst) / max(batch*heads*d, 1)
	m := attnMat{data: dst, bs: heads * rows * d, hs: rows * d, ld: d}
	for b := range batch {
		for h := range heads {
			c, s := m.at(b, h), src.at(b, h)
			for i := range seq {
				copy(c[(np+i)*d:(np+i+1)*d], s[i*src.ld:])
			}
		}
	}
	return m
}

// attnConcat writes past (4-D, nil when absent) then the new rows of
// src into dst, 4-D with past+seq rows per head, and returns dst's
// layout.
func attnConcat(dst, past []float32, src attnMat, batch, heads, np, seq, d int) attnMat {
	tl := np + seq
	for b := range batch {
		for h := range heads {
			bh := b*heads + h
			m := dst[bh*tl*d:]
			if np > 0 {
				copy(m[:np*d], past[bh*np*d:])
			}
			s := src.at(b, h)
			for i := range seq {
				copy(m[(np+i)*d:(np+i+1)*d], s[i*src.ld:])
			}
		}
	}
	return attnMat{data: dst, bs: heads * tl * d, hs: tl * d, ld: d}
}

// attnBias adds the bias of one score row: attn_mask, the causal mask
// and the padding mask of nonpad_kv_seqlen.
type attnBias struct {
	mf []float32
	mb []bool
	// mlen is the mask's last dim; keys from mlen on are masked.
	mlen int
	// splat is set when the mask's last dim is 1 and MaskExact asks it
	// to broadcast over every key, as the Add that FuseAttention
	// replaced did; mlen is then the number of keys.
	splat bool
	// mstr are the mask's strides for batch, head and query row, 0
	// where it broadcasts.
	mstr [3]int
	// causal is set for is_causal; off is the causal offset, or offs
	// per batch item when nonpad_kv_seqlen sets it.
	causal bool
	off    int
	offs   []int64
	// nonpad is nonpad_kv_seqlen, nil when absent.
	nonpad []int64
	sq     int
	// window, when positive, masks with the causal mask the keys window
	// or more before the query's own position: each query sees window
	// keys at most, its own included (ONNX Runtime's local_window_size).
	window int
}

// init reads the masks of one call.
func (m *attnBias) init(k *attentionKernel, s attnShape, in []*tensor, mask []float32) {
	m.sq = s.sq
	if t := optIn(in, 3); t != nil {
		if k.maskBool {
			m.mb = t.bools()
		} else {
			m.mf = mask
		}
		r := len(t.shape)
		m.mlen = t.shape[r-1]
		st := m.mlen
		m.splat = k.a.MaskExact && m.mlen == 1 && s.tl > 1
		if m.splat {
			m.mlen = s.tl
		}
		for i := 1; i <= 3; i++ {
			ax := r - 1 - i
			if ax < 0 || t.shape[ax] == 1 {
				m.mstr[3-i] = 0
			} else {
				m.mstr[3-i] = st
			}
			if ax >= 0 {
				st *= t.shape[ax]
			}
		}
	} else {
		m.mlen, m.splat = s.tl, false
	}
	if t := optIn(in, 6); t != nil {
		m.nonpad = t.i64()
	}
	if k.a.IsCausal {
		m.causal = true
		if s.past == 0 && optIn(in, 4) == nil && m.nonpad != nil {
			m.offs = m.nonpad
		}
		m.off = s.past
	}
}

// apply adds the bias to row, the scores of query i of head h of batch
// item b, and returns where the row's masked tail starts: the keys from
// there on are masked by the causal mask, the padding mask or the end
// of attn_mask, and are set to -inf when fill is set (the softmax
// clears them either way).
func (m *attnBias) apply(row []float32, b, h, i int, fill bool) int {
	end := m.applyAt(row, b, h, i, 0, len(row))
	if fill {
		ninf := float32(math.Inf(-1))
		for j := end; j < len(row); j++ {
			row[j] = ninf
		}
	}
	return end
}

// attnExpRow sets each score of row to its exponential less the row's
// maximum and returns the factor that normalises them, 1/sum, which the
// caller applies to the row or to what the row weighs. A row holding NaN
// or +inf is normalised in place by softmaxRow and a row whose every
// score is -inf (every key masked) cleared, as ONNX's reference gives
// zeros: both return 1. A masked score leaves exp(-86), the vectorised
// exp's floor, which weighs nothing against a sum of at least 1.
func attnExpRow(row []float32) float32 {
	m, nan, _ := attnRowMax(row)
	switch {
	case nan || m > math.MaxFloat32:
		softmaxRow(row, row, false)
		return 1
	case m < -math.MaxFloat32:
		clear(row)
		return 1
	}
	return 1 / expSub32(row, row, m)
}

// attnSoftmax normalises one score row in place. A row whose every
// score is -inf (every key masked) gives zeros, as ONNX's reference
// does. mayMask says the row may hold -inf scores (from attn_mask).
func attnSoftmax(row []float32, mayMask bool) {
	m, nan, masked := attnRowMax(row)
	masked = masked && mayMask
	switch {
	case nan || m > math.MaxFloat32:
		softmaxRow(row, row, false)
	case m < -math.MaxFloat32:
		clear(row)
	default:
		sum := expSub32(row, row, m)
		mulConst32(row, 1/sum)
		if masked {
			// The vectorised exp clamps its argument at -86, so a
			// masked score leaves exp(-86)/sum, below 1e-37, where
			// the reference has 0; clear those (an unmasked score that
			// small is 0 within any tolerance).
			for j, v := range row {
				if v < 1e-37 {
					row[j] = 0
				}
			}
		}
	}
}

func init() {
	register("Attention", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float16); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		for _, i := range []int{1, 2, 4, 5} {
			if i < c.n.NumInputs() && c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.invalid("input %d is %s, Q is %s", i, c.inType(i), dt)
			}
		}
		k := &attentionKernel{n: c.n, a: c.rule.(*model.AttentionAttrs), dt: dt, gc: c.gemmCtx()}
		if c.n.NumInputs() > 3 && c.n.Input(3) != "" {
			switch c.inType(3) {
			case payload.Bool:
				k.maskBool = true
			case dt:
			default:
				return nil, c.invalid("attn_mask is %s, want bool or %s", c.inType(3), dt)
			}
		}
		if c.n.NumInputs() > 6 && c.n.Input(6) != "" && c.inType(6) != payload.Int64 {
			return nil, c.invalid("nonpad_kv_seqlen is %s, want int64", c.inType(6))
		}
		for j, name := range c.n.Outputs {
			k.used[j] = name != ""
		}
		return k, nil
	})
}
