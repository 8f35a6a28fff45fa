package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// nbitsTileBytes bounds the float32 scratch of one tile of dequantized
// weights.
const nbitsTileBytes = 128 << 10

// matMulNBitsKernel runs MatMulNBits (com.microsoft;
// model.MatMulNBitsAttrs) with 4-bit weights, in float32 (float16 runs
// through viaF32). The weights are never dequantized whole: the columns
// are taken a tile at a time, the tile's weights dequantized into
// scratch (each column's K values contiguous, as B stores them) and
// multiplied with the SGEMM straight into Y's columns. accuracy_level
// is ignored: the product computes in float32, as ONNX Runtime's CPU
// kernel does by default.
type matMulNBitsKernel struct {
	a  *model.MatMulNBitsAttrs
	gc *gemmCtx
	// zpU8 is set when zero_points is packed like B (uint8).
	zpU8 bool
	// tile is the number of columns dequantized at once, and w their
	// scratch.
	tile int
	w    []float32
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
	w := growF32(&k.w, k.tile*K)
	for n0 := 0; n0 < N; n0 += k.tile {
		nt := min(k.tile, N-n0)
		for j := range nt {
			n := n0 + j
			wr := w[j*K : (j+1)*K]
			qr := q[n*kb*blob:]
			for b := range kb {
				sc := scales[n*kb+b]
				zp := float32(8)
				switch {
				case zu != nil:
					zp = float32(zu[n*zpRow+b/2] >> (4 * (b & 1)) & 15)
				case zf != nil:
					zp = zf[n*kb+b]
				}
				k0 := b * bs
				qb := qr[b*blob : (b+1)*blob]
				dst := wr[k0:min(k0+bs, K)]
				nibbles4(dst, qb, sc, zp)
			}
		}
		k.gc.sgemm(false, true, m, nt, K, 1, a, K, w, K, 0, y[n0:], N)
	}
	if bias != nil {
		for r := range m {
			row := y[r*N : (r+1)*N]
			for i, b := range bias[:N] {
				row[i] += b
			}
		}
	}
	return nil
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
		return k, nil
	}))
}
