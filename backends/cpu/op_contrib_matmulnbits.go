package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// nbitsTileBytes bounds the float32 scratch of one tile of dequantized
// weights.
const nbitsTileBytes = 512 << 10

// matMulNBitsKernel runs MatMulNBits (com.microsoft;
// model.MatMulNBitsAttrs) with 4-bit weights, in float32 (float16 runs
// through viaF32). The weights are never dequantized whole: with a few
// rows of A (decoding) each column's dot products are taken straight
// from its codes (runPart); otherwise the columns are taken a tile at a
// time, the tile's weights dequantized into scratch packed as the SGEMM
// reads B, and multiplied straight into Y's columns. accuracy_level
// is ignored: the product computes in float32, as ONNX Runtime's CPU
// kernel does by default.
type matMulNBitsKernel struct {
	a  *model.MatMulNBitsAttrs
	gc *gemmCtx
	// zpU8 is set when zero_points is packed like B (uint8).
	zpU8 bool
	// tile is the number of columns dequantized at once, and w their
	// scratch.
	tile   int
	w, col []float32
	// call is the state of a few-row call, read by runPart; asum holds
	// each row's sum of A over each block.
	call nbitsCall
	asum []float32
	// ad holds the call's rows of A deinterleaved for nbitsCols, zp8 a
	// row of default zero points (8), zpConst the constant uint8 zero
	// points widened at load, and zpf those of a call's non-constant
	// uint8 zero points.
	ad, zp8, zpConst, zpf []float32
}

// nbitsFewRows is the most rows of A for which the product is taken
// straight from the 4-bit codes, column by column, with no scratch
// weights: a dot product of each block's codes with A, less the zero
// point times A's block sum, times the scale.
const nbitsFewRows = 4

// nbitsCall is one few-row call's operands.
type nbitsCall struct {
	a, y, scales, zf []float32
	q, zu            []uint8
	m, parts         int
	// wide is set when the columns run on nbitsCols with A
	// deinterleaved in ad and zero points zp, zs apart per column.
	wide bool
	zp   []float32
	zs   int
}

func (k *matMulNBitsKernel) run(in, out []*tensor) error {
	a, y := in[0].f32(), out[0].f32()
	K, N := int(k.a.K), int(k.a.N)
	if K == 0 || len(y) == 0 {
		return nil
	}
	m := len(y) / N
	q, scales := in[1].u8(), in[2].f32()
	var zf []float32
	var zu []uint8
	if t := optIn(in, 3); t != nil {
		if k.zpU8 {
			zu = t.u8()
		} else {
			zf = t.f32()
		}
	}
	var bias []float32
	if t := optIn(in, 5); t != nil {
		bias = t.f32()
	}
	bs := int(k.a.BlockSize)
	kb := k.a.KBlocks()
	blob := bs / 2
	zpRow := (kb + 1) / 2
	if m <= nbitsFewRows {
		asum := growF32(&k.asum, m*kb)
		for r := range m {
			ar := a[r*K : (r+1)*K]
			for b := range kb {
				var s float32
				for _, v := range ar[b*bs : min((b+1)*bs, K)] {
					s += v
				}
				asum[r*kb+b] = s
			}
		}
		k.call = nbitsCall{a: a, y: y, scales: scales, zf: zf, q: q, zu: zu, m: m, parts: 1}
		if K%bs == 0 && nbitsWide(bs) {
			k.wideCall(m, K, kb, zpRow)
		}
		if pool := k.gc.pool; pool != nil {
			k.call.parts = max(1, min(pool.size(), N*K/(1<<16)))
		}
		if k.call.parts == 1 {
			k.runPart(0)
		} else {
			k.gc.pool.run(k, k.call.parts)
		}
		k.call = nbitsCall{}
		addRowBias(y, bias, m, N)
		return nil
	}
	w := growF32(&k.w, roundUp(k.tile, gemmNR)*K)
	cols := growF32(&k.col, gemmNR*K)
	// Blocks that fill K are dequantized a column at a time.
	whole := K%bs == 0
	var zp []float32
	var zs int
	if whole {
		zp, zs = k.zeroPoints(zf, zu, kb, zpRow)
	}
	for n0 := 0; n0 < N; n0 += k.tile {
		nt := min(k.tile, N-n0)
		np := roundUp(nt, gemmNR)
		// Each panel's columns are dequantized into cols, one after
		// another, then transposed into the panel's rows.
		for j0 := 0; j0 < np; j0 += gemmNR {
			for j := range gemmNR {
				col := cols[j*K : (j+1)*K]
				n := n0 + j0 + j
				if j0+j >= nt {
					clear(col)
					continue
				}
				if whole {
					nibblesCol(col, q[n*kb*blob:], kb, bs, scales[n*kb:], zp[n*zs:])
					continue
				}
				qr := q[n*kb*blob:]
				for b := range kb {
					sc := scales[n*kb+b]
					zp := nbitsZeroPoint(zf, zu, n, b, kb, zpRow)
					k0 := b * bs
					qb := qr[b*blob : (b+1)*blob]
					nibbles4(col[k0:min(k0+bs, K)], qb, sc, zp)
				}
			}
			packPanel(w, cols, j0, np, K)
		}
		k.gc.run(m, nt, K, 1, gemmA{data: a, ld: K}, gemmB{packed: w[:np*K]}, 0, y[n0:], N)
	}
	addRowBias(y, bias, m, N)
	return nil
}

// packPanel writes the panel of gemmNR columns from j0 of B (column j's
// K values at cols[j*K:]) into w, B packed as the SGEMM packs it (packB)
// for np columns: blocks of gemmKC rows, each a run of panels of gemmNR
// columns, row by row.
func packPanel(w, cols []float32, j0, np, K int) {
	for p0 := 0; p0 < K; p0 += gemmKC {
		kcb := min(gemmKC, K-p0)
		transposeStrided(w[p0*np+j0*kcb:], cols[p0:], gemmNR, kcb, gemmNR, K)
	}
}

// addRowBias adds bias (n values; none when nil) to each of y's m rows.
func addRowBias(y, bias []float32, m, n int) {
	if bias == nil {
		return
	}
	for r := range m {
		row := y[r*n : (r+1)*n]
		for i, b := range bias[:n] {
			row[i] += b
		}
	}
}

// wideCall readies a few-row call of m rows for nbitsCols: A's rows
// deinterleaved and the zero points as floats, per column (zs = kb) or
// one shared row of 8s (zs = 0).
func (k *matMulNBitsKernel) wideCall(m, K, kb, zpRow int) {
	c := &k.call
	c.wide = true
	ad := growF32(&k.ad, m*K)
	deinterleave32(ad, c.a[:m*K])
	c.zp, c.zs = k.zeroPoints(c.zf, c.zu, kb, zpRow)
}

// zeroPoints returns the call's zero points as floats, zs apart per
// column: the float input (zs = kb), the uint8 one widened (at load
// when constant), or one shared row of 8s (zs = 0).
func (k *matMulNBitsKernel) zeroPoints(zf []float32, zu []uint8, kb, zpRow int) (zp []float32, zs int) {
	switch {
	case zf != nil:
		return zf, kb
	case zu != nil && k.zpConst != nil:
		return k.zpConst, kb
	case zu != nil:
		zp = growF32(&k.zpf, int(k.a.N)*kb)
		widenZeroPoints(zp, zu, int(k.a.N), kb, zpRow)
		return zp, kb
	}
	if len(k.zp8) < kb {
		k.zp8 = growF32(&k.zp8, kb)
		for i := range k.zp8 {
			k.zp8[i] = 8
		}
	}
	return k.zp8, 0
}

// nbitsZeroPoint returns column n's zero point of block b: from the
// packed uint8 zu (zpRow bytes a column, low nibble first) or the float
// zf (kb a column) when given, else 8.
func nbitsZeroPoint(zf []float32, zu []uint8, n, b, kb, zpRow int) float32 {
	switch {
	case zu != nil:
		return float32(zu[n*zpRow+b/2] >> (4 * (b & 1)) & 15)
	case zf != nil:
		return zf[n*kb+b]
	}
	return 8
}

// widenZeroPoints sets dst[n*kb+b] to column n's zero point of block b,
// packed two to a byte, zpRow bytes a column, low nibble first.
func widenZeroPoints(dst []float32, zu []uint8, n, kb, zpRow int) {
	for j := range n {
		for b := range kb {
			dst[j*kb+b] = nbitsZeroPoint(nil, zu, j, b, kb, zpRow)
		}
	}
}

// runPart computes columns [part·N/parts, (part+1)·N/parts) of a
// few-row call.
func (k *matMulNBitsKernel) runPart(part int) {
	c := &k.call
	K, N := int(k.a.K), int(k.a.N)
	bs := int(k.a.BlockSize)
	kb := k.a.KBlocks()
	blob := bs / 2
	zpRow := (kb + 1) / 2
	if c.wide {
		n0, n1 := part*N/c.parts, (part+1)*N/c.parts
		if n1 <= n0 {
			return
		}
		for r := range c.m {
			nbitsCols(c.y[r*N+n0:r*N+n1], c.q[n0*kb*blob:], kb*blob, k.ad[r*K:(r+1)*K], c.scales[n0*kb:], c.zp[n0*c.zs:], c.zs,
				k.asum[r*kb:(r+1)*kb], kb, bs, n1-n0)
		}
		return
	}
	var acc [nbitsFewRows]float32
	for n := part * N / c.parts; n < (part+1)*N/c.parts; n++ {
		clear(acc[:])
		for b := range kb {
			sc := c.scales[n*kb+b]
			zp := nbitsZeroPoint(c.zf, c.zu, n, b, kb, zpRow)
			k0 := b * bs
			w := min(bs, K-k0)
			qb := c.q[(n*kb+b)*blob:][:(w+1)/2]
			for r := range c.m {
				ar := c.a[r*K+k0:][:w]
				d := nibbleDot(qb, ar)
				acc[r] += sc * (d - zp*k.asum[r*kb+b])
			}
		}
		for r := range c.m {
			c.y[r*N+n] = acc[r]
		}
	}
}

// nibbleDot returns the dot product of a with the 4-bit codes of q, low
// nibble first; a may end on a low nibble.
func nibbleDot(q []uint8, a []float32) float32 {
	var s0, s1 float32
	i := 0
	for ; i+1 < len(a); i += 2 {
		v := q[i/2]
		s0 += float32(v&15) * a[i]
		s1 += float32(v>>4) * a[i+1]
	}
	if i < len(a) {
		s0 += float32(q[i/2]&15) * a[i]
	}
	return s0 + s1
}

// nibbles4 dequantizes the 4-bit values of q, low nibble first, into
// dst (which may be shorter than 2·len(q) at K's end): (v - zp)·sc.
func nibbles4(dst []float32, q []uint8, sc, zp float32) {
	for i := 0; i+1 < len(dst); i += 2 {
		v := q[i/2]
		dst[i] = (float32(v&15) - zp) * sc
		dst[i+1] = (float32(v>>4) - zp) * sc
	}
	if len(dst)%2 == 1 {
		i := len(dst) - 1
		dst[i] = (float32(q[i/2]&15) - zp) * sc
	}
}

func init() {
	registerMS("MatMulNBits", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		a := c.rule.(*model.MatMulNBitsAttrs)
		if a.Bits != 4 {
			return nil, c.unsupported("bits %d (lintel runs 4-bit weights)", a.Bits)
		}
		if c.inType(1) != payload.Uint8 {
			return nil, c.invalid("B is %s, want uint8", c.inType(1))
		}
		if c.inType(2) != payload.Float32 {
			return nil, c.invalid("scales is %s, A is %s", c.inType(2), c.inType(0))
		}
		k := &matMulNBitsKernel{a: a, gc: c.gemmCtx()}
		if c.n.Input(3) != "" {
			switch c.inType(3) {
			case payload.Uint8:
				k.zpU8 = true
			case payload.Float32:
			default:
				return nil, c.invalid("zero_points is %s, want uint8 or A's type", c.inType(3))
			}
		}
		if c.n.Input(4) != "" {
			return nil, c.unsupported("the g_idx input")
		}
		if c.n.Input(5) != "" && c.inType(5) != payload.Float32 {
			return nil, c.invalid("bias is %s, A is %s", c.inType(5), c.inType(0))
		}
		k.tile = int(min(max(nbitsTileBytes/4/a.K, 16), a.N))
		// Constant uint8 zero points are widened once, for nbitsCols.
		if t := c.constInput(3); t != nil && k.zpU8 && nbitsWide(int(a.BlockSize)) {
			kb := a.KBlocks()
			zu, err := model.View[uint8](t)
			if err == nil && len(zu) >= int(a.N)*((kb+1)/2) {
				k.zpConst = make([]float32, int(a.N)*kb)
				widenZeroPoints(k.zpConst, zu, int(a.N), kb, (kb+1)/2)
			}
		}
		return k, nil
	}))
}
