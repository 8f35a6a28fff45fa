package cpu

import "fmt"

// dwTilePlan runs float32 depthwise convolutions of one filter per
// channel over small 2-D planes eight channels at a time, the channels
// in the vector lanes, splitting the blocks of eight across the worker
// pool.
//
// dwPlan's flat runs vectorise along a plane's rows: on small planes
// (14×14, 28×28) each plane pays its copy into stride phases, the phase
// columns past the output's and the rounding of its run to whole blocks,
// so that a plane of 49 outputs costs several times its multiply-adds.
// Here eight planes are transposed into one zero-padded tile of PH×PW
// pixels of eight floats, and every output pixel is eight lanes: tap
// (kh, kw) of output (oh, ow) is the tile's pixel (oh*sh + kh*dh,
// ow*sw + kw*dw), any stride or dilation the same loads. dwTile sums
// eight output pixels of a row at a time (eight FMA chains, the weights
// of a tap one vector), from the bias in tap order as dwRow does; the
// outputs are transposed back into the eight output planes, and the activation runs on them while
// they are in cache. Padding is zeros in the tile: no branch on it.
type dwTilePlan struct {
	key geom
	// pw is the padded width, owr the pixels a row computes (at least a
	// block), tileLen the tile's floats (with the slack that rounded-up
	// outputs read) and offs the taps' offsets in the tile.
	pw, owr, tileLen int
	offs             []int
	scratch          []dwTileScratch
	call             dwTileCall
}

// dwTileScratch is one part's buffers: the transposed input, the padded
// tile, the transposed outputs and the block's weights (taps×8, then
// eight biases).
type dwTileScratch struct {
	flat, tile, out, w []float32
	_                  [cacheLine]byte
}

// dwTileCall is one call, read by every part.
type dwTileCall struct {
	x, w, bias, y []float32
	ep            *gemmEpilogue
	g             *geom
	// channels per image, blocks of eight over the batch, parts.
	channels, blocks, parts int
}

// dwTileMaxFloats bounds a tile (256 KiB, planes up to about 90×90):
// past it the tile leaves the level-two cache, where dwPlan's bands
// (which stay in the level-one cache) did as well on 160×160 planes.
const dwTileMaxFloats = 1 << 16

// dwTileFits reports whether dwTilePlan runs geometry g with mult
// filters per channel: one filter, two spatial dims, some outputs,
// strides up to 8 and a padded plane of at most dwTileMaxFloats/8
// pixels, so that hostile strides and pads cannot size its buffers.
func dwTileFits(g *geom, mult int) bool {
	if mult != 1 || g.k[0] != 1 || g.in[0] != 1 || g.out[0] != 1 || g.s[1] > 8 || g.s[2] > 8 || g.out[1] < 1 || g.out[2] < 1 {
		return false
	}
	ph, pw := g.in[1]+g.pb[1]+g.pe[1], g.in[2]+g.pb[2]+g.pe[2]
	return ph <= dwTileMaxFloats && pw <= dwTileMaxFloats && 8*ph*pw <= dwTileMaxFloats
}

// prepare lays the plan out for g, unless it is laid out for it already.
func (p *dwTilePlan) prepare(g *geom) {
	if p.offs != nil && p.key == *g {
		return
	}
	ph := g.in[1] + g.pb[1] + g.pe[1]
	p.pw = g.in[2] + g.pb[2] + g.pe[2]
	p.owr = max(g.out[2], 8)
	taps := g.k[1] * g.k[2]
	p.offs = grow(p.offs, taps)
	maxOff, t := 0, 0
	for kh := range g.k[1] {
		for kw := range g.k[2] {
			p.offs[t] = (kh*g.d[1]*p.pw + kw*g.d[2]) * 8
			maxOff = max(maxOff, p.offs[t])
			t++
		}
	}
	reach := (g.out[1]-1)*g.s[1]*p.pw*8 + maxOff + (p.owr-1)*g.s[2]*8 + 8
	p.tileLen = max(8*ph*p.pw, reach)
	p.key = *g
	// Tiles laid out for another geometry hold data in its padding.
	for i := range p.scratch {
		s := &p.scratch[i]
		clear(s.tile[:min(len(s.tile), p.tileLen)])
	}
}

// conv convolves the batch×channels planes of x (geometry g) with the
// channels filters of w into the planes of y, each from its bias (nil:
// zero), then applies ep's activation (nil: none), splitting the blocks
// of eight channels across pool's threads.
func (p *dwTilePlan) conv(pool *workerPool, g *geom, x, w, bias, y []float32, batch, channels int, ep *gemmEpilogue) {
	taps := g.k[1] * g.k[2]
	inSz, outSz := g.in[1]*g.in[2], g.out[1]*g.out[2]
	if batch*channels == 0 || outSz == 0 {
		return
	}
	p.prepare(g)
	if len(x) < batch*channels*inSz || len(w) < channels*taps || len(y) < batch*channels*outSz || (bias != nil && len(bias) < channels) {
		panic(fmt.Sprintf("depthwise tiles: %d inputs, %d weights, %d outputs, %d biases for %d planes of %d taps", len(x), len(w), len(y), len(bias), batch*channels, taps))
	}
	blocks := batch * ceilDiv(channels, 8)
	parts := 1
	if pool != nil {
		parts = min(pool.size(), blocks, max(1, batch*channels*outSz*taps/(1<<16)))
	}
	for len(p.scratch) < parts {
		p.scratch = append(p.scratch, dwTileScratch{})
	}
	for i := range parts {
		s := &p.scratch[i]
		if len(s.tile) < p.tileLen {
			s.tile = make([]float32, p.tileLen)
		}
		s.flat = growF32(&s.flat, 8*inSz)
		s.out = growF32(&s.out, 8*(g.out[1]-1)*g.out[2]+8*p.owr)
		s.w = growF32(&s.w, 8*taps+8)
	}
	p.call = dwTileCall{x: x, w: w, bias: bias, y: y, ep: ep, g: g, channels: channels, blocks: blocks, parts: parts}
	if parts == 1 {
		p.runPart(0)
	} else {
		pool.run(p, parts)
	}
	p.call = dwTileCall{}
}

// runPart computes blocks [part*blocks/parts, (part+1)*blocks/parts) of
// the current call.
func (p *dwTilePlan) runPart(part int) {
	cl := &p.call
	g := cl.g
	s := &p.scratch[part]
	IH, IW := g.in[1], g.in[2]
	OH, OW := g.out[1], g.out[2]
	inSz, outSz := IH*IW, OH*OW
	pbh, pbw, pw, owr := g.pb[1], g.pb[2], p.pw, p.owr
	taps := len(p.offs)
	nb := ceilDiv(cl.channels, 8)
	tile, out := s.tile[:p.tileLen], s.out
	wv, bv := s.w[:8*taps], s.w[8*taps:8*taps+8]
	for b := part * cl.blocks / cl.parts; b < (part+1)*cl.blocks/cl.parts; b++ {
		c0 := b % nb * 8
		k := min(8, cl.channels-c0)
		plane := b/nb*cl.channels + c0
		src := cl.x[plane*inSz : (plane+k)*inSz]
		if IW < 8 || k < 8 {
			flat := s.flat[:8*inSz]
			transpose8(flat, src, inSz, inSz, k)
			copyStrided(tile[8*(pbh*pw+pbw):], 8*pw, flat, 8*IW, 8*IW, IH)
		} else {
			for ih := range IH {
				transpose8(tile[8*((ih+pbh)*pw+pbw):], src[ih*IW:], inSz, IW, 8)
			}
		}
		for c := range 8 {
			var bc float32
			if c < k {
				ch := c0 + c
				for t := range taps {
					wv[8*t+c] = cl.w[ch*taps+t]
				}
				if cl.bias != nil {
					bc = cl.bias[ch]
				}
			} else {
				for t := range taps {
					wv[8*t+c] = 0
				}
			}
			bv[c] = bc
		}
		// Rows of fewer than eight outputs compute eight, into the next
		// row's (computed after) and the slack after the last.
		dwTile(out, owr, OH, 8*OW, tile, 8*g.s[1]*pw, 8*g.s[2], p.offs, wv, bv)
		y := cl.y[plane*outSz : (plane+k)*outSz]
		untranspose8(y, outSz, out, outSz, k)
		if cl.ep != nil {
			cl.ep.act.apply(y)
		}
	}
}

// transpose8Go sets dst[j*8+c] = src[c*stride+j] for j < n and c < k
// (k <= 8): k planes into pixels of eight lanes, lanes k to 7 left as
// they are.
func transpose8Go(dst, src []float32, stride, n, k int) {
	for j := range n {
		d := dst[8*j : 8*j+k]
		for c := range d {
			d[c] = src[c*stride+j]
		}
	}
}

// untranspose8Go sets dst[c*stride+j] = src[j*8+c] for j < n and c < k:
// lanes 0 to k-1 of pixels of eight into k planes.
func untranspose8Go(dst []float32, stride int, src []float32, n, k int) {
	for c := range k {
		d := dst[c*stride : c*stride+n]
		for j := range d {
			d[j] = src[8*j+c]
		}
	}
}

// dwTileGo sets, for rows r < rows, pixels i < n and lanes c < 8,
// dst[r*dstride+8i+c] = bias[c] + Σ_t w[8t+c]*src[r*sstride+offs[t]+i*step+c],
// summed in increasing t, rows in order. Products are rounded before the
// add (float32(x*y)), so the compiler never fuses them.
func dwTileGo(dst []float32, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	dwTileCheck(dst, n, rows, dstride, src, sstride, step, offs, w, bias)
	for r := range rows {
		for i := range n {
			for c := range 8 {
				acc := bias[c]
				for t, o := range offs {
					acc += float32(w[8*t+c] * src[r*sstride+o+i*step+c])
				}
				dst[r*dstride+8*i+c] = acc
			}
		}
	}
}

// dwTileCheck panics when dwTile would read or write outside its
// slices.
func dwTileCheck(dst []float32, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	if n <= 0 || rows <= 0 {
		return
	}
	if len(dst) < (rows-1)*dstride+8*n || len(w) < 8*len(offs) || len(bias) < 8 || step < 0 || sstride < 0 || dstride < 0 {
		panic(fmt.Sprintf("dwTile: %d rows of %d pixels, %d apart, into %d floats, %d weights for %d taps, %d biases, steps %d, %d", rows, n, dstride, len(dst), len(w), len(offs), len(bias), step, sstride))
	}
	for _, o := range offs {
		if o < 0 || (rows-1)*sstride+o+(n-1)*step+8 > len(src) {
			panic(fmt.Sprintf("dwTile: tap at %d, %d rows %d apart of %d pixels %d apart, outside %d", o, rows, sstride, n, step, len(src)))
		}
	}
}
