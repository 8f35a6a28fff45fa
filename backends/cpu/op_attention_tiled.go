package cpu

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// The tiles of the online-softmax path: query rows per block and keys
// per tile. A block's scores (64×256 float32, 64 KiB) stay in L2.
const (
	attnTileRows = 64
	attnTileCols = 256
)

// attnTiled reports whether a unit of m query rows over tl keys runs
// tiled: when its scores would outgrow one tile and no qk output asks
// for them whole.
func (cl *attnCall) attnTiled(m, tl int) bool {
	return cl.qk == nil && m > attnFewRows && tl > attnTileCols
}

// tiledUnit computes one unit (query rows [0, m) of heads from h0, over
// key/value head kh, of batch item b) without its whole score matrix:
// blocks of attnTileRows query rows walk the keys attnTileCols at a
// time, keeping each row's running maximum and sum (the online softmax)
// and rescaling the rows of Y already accumulated when the maximum
// grows; Y is divided by the sums at the end. A row whose every key is
// masked gives zeros, as the untiled path does.
func (k *attentionKernel) tiledUnit(w *attnWorker, gc *gemmCtx, b, h0, kh, m int) {
	cl := &k.call
	s := &cl.s
	ninf := float32(math.Inf(-1))
	qa, ya := cl.q.at(b, h0), cl.y.at(b, h0)
	sc := growF32(&w.s, attnTileRows*attnTileCols)
	mx := growF32(&w.mx, attnTileRows)
	sum := growF32(&w.sum, attnTileRows)
	for r0 := 0; r0 < m; r0 += attnTileRows {
		rows := min(attnTileRows, m-r0)
		q, y := qa[r0*cl.qld:], ya[r0*cl.yld:]
		for r := range rows {
			mx[r], sum[r] = ninf, 0
			clear(y[r*cl.yld:][:s.dv])
		}
		for _, g := range cl.segs[:cl.nseg] {
			ka, va := g.k.at(b, kh), g.v.at(b, kh)
			for c0 := 0; c0 < g.rows; c0 += attnTileCols {
				n := min(attnTileCols, g.rows-c0)
				gc.sgemm(false, true, rows, n, s.d, cl.scale, q, cl.qld, ka[c0*g.k.ld:], g.k.ld, 0, sc, n)
				if c := k.a.Softcap; c > 0 {
					for i, v := range sc[:rows*n] {
						sc[i] = c * float32(math.Tanh(float64(v/c)))
					}
				}
				for r := range rows {
					row := sc[r*n : (r+1)*n]
					rr := r0 + r
					end := cl.bias.applyAt(row, b, h0+rr/s.sq, rr%s.sq, g.col0+c0, s.tl)
					clear(row[end:])
					row = row[:end]
					mt := ninf
					for _, v := range row {
						if v > mt {
							mt = v
						}
					}
					mn := max(mx[r], mt)
					if mn < -math.MaxFloat32 {
						// Every key so far is masked.
						clear(row)
						continue
					}
					if mn > mx[r] && mx[r] > ninf {
						f := float32(math.Exp(float64(mx[r] - mn)))
						mulConst32(y[r*cl.yld:][:s.dv], f)
						sum[r] *= f
					}
					mx[r] = mn
					sum[r] += expSub32(row, row, mn)
				}
				gc.sgemm(false, false, rows, s.dv, n, 1, sc, n, va[c0*g.v.ld:], g.v.ld, 1, y, cl.yld)
			}
		}
		for r := range rows {
			yr := y[r*cl.yld:][:s.dv]
			if sum[r] > 0 {
				mulConst32(yr, 1/sum[r])
			} else {
				clear(yr)
			}
		}
	}
}

// applyAt adds the bias to row, the scores of keys [c0, c0+len(row)) of
// query i of head h of batch item b, among tl keys in all, and returns
// how many of the row's keys are not masked off at its tail by the
// causal mask, the padding mask or the end of attn_mask.
func (m *attnBias) applyAt(row []float32, b, h, i, c0, tl int) int {
	ninf := float32(math.Inf(-1))
	n := min(m.mlen-c0, len(row))
	if n > 0 && m.splat {
		m.applySplat(row[:n], b*m.mstr[0]+h*m.mstr[1]+i*m.mstr[2])
	} else if n > 0 && m.mf != nil {
		addVec32(row[:n], m.mf[b*m.mstr[0]+h*m.mstr[1]+i*m.mstr[2]+c0:][:n])
	} else if n > 0 && m.mb != nil {
		mr := m.mb[b*m.mstr[0]+h*m.mstr[1]+i*m.mstr[2]+c0:][:n]
		// Eight keys at once: a bool is one byte, 1 for true.
		mbytes := unsafe.Slice((*byte)(unsafe.Pointer(&mr[0])), n)
		j := 0
		for ; j+8 <= n; j += 8 {
			if binary.LittleEndian.Uint64(mbytes[j:]) == 0x0101010101010101 {
				continue
			}
			for t, v := range mr[j : j+8] {
				if !v {
					row[j+t] = ninf
				}
			}
		}
		for ; j < n; j++ {
			if !mr[j] {
				row[j] = ninf
			}
		}
	}
	end := tl
	if m.causal {
		off := m.off
		if m.offs != nil {
			off = int(max(min(m.offs[b], int64(tl)), -int64(tl))) - m.sq
		}
		end = min(end, max(i+off+1, 0))
		if m.window > 0 {
			// A local window: the keys before its start are masked.
			ws := min(max(i+off-m.window+1, 0), end, c0+len(row))
			for j := c0; j < ws; j++ {
				row[j-c0] = ninf
			}
		}
	}
	if m.nonpad != nil {
		end = min(end, int(max(min(m.nonpad[b], int64(tl)), 0)))
	}
	end = min(end, max(m.mlen, 0))
	return min(max(end-c0, 0), len(row))
}

// applySplat adds the mask's one value at offset o, a mask whose last
// dim of 1 broadcasts over the keys, to every score of row: a false bool
// masks them all.
func (m *attnBias) applySplat(row []float32, o int) {
	if m.mf != nil {
		c := m.mf[o]
		for j := range row {
			row[j] += c
		}
		return
	}
	if !m.mb[o] {
		ninf := float32(math.Inf(-1))
		for j := range row {
			row[j] = ninf
		}
	}
}
