package testmodels

import (
	"math"
	"strconv"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
)

// nbitsBlock is the block size of the 4-bit weights Contrib4Bit writes.
const nbitsBlock = 32

// weight adds the constant MatMul weight w ([K, N] float32) and returns
// a reference to it for mm: its name, or, with nbits, the name of a
// MatMulNBits weight set (see quantize4) prefixed with "nbits:".
func (b *tb) weight(w onnxbuild.Tensor, nbits bool) string {
	if !nbits {
		return b.add(w)
	}
	k, n := w.Shape[0], w.Shape[1]
	q, sc, zp := quantize4(rawFloats(w.Raw), int(k), int(n), nbitsBlock)
	kb := (k + nbitsBlock - 1) / nbitsBlock
	b.add(onnxbuild.TensorOf(w.Name+"_q4", []int64{n, kb, nbitsBlock / 2}, q))
	b.add(onnxbuild.TensorOf(w.Name+"_scales", []int64{n * kb}, sc))
	b.add(onnxbuild.TensorOf(w.Name+"_zp", []int64{int64(len(zp))}, zp))
	return "nbits:" + w.Name + ":" + strconv.FormatInt(k, 10) + ":" + strconv.FormatInt(n, 10)
}

// mm adds x times the weight w (a reference from weight): a MatMul, or
// a com.microsoft MatMulNBits of 4 bits.
func (b *tb) mm(x, w string) string {
	if len(w) < 6 || w[:6] != "nbits:" {
		return b.op("MatMul", []string{x, w})
	}
	var parts []string
	for rest := w[6:]; ; {
		i := 0
		for i < len(rest) && rest[i] != ':' {
			i++
		}
		parts = append(parts, rest[:i])
		if i == len(rest) {
			break
		}
		rest = rest[i+1:]
	}
	name := parts[0]
	k, _ := strconv.ParseInt(parts[1], 10, 64)
	n, _ := strconv.ParseInt(parts[2], 10, 64)
	return b.ms("MatMulNBits", []string{x, name + "_q4", name + "_scales", name + "_zp"}, 1,
		onnxbuild.AInt("K", k), onnxbuild.AInt("N", n), onnxbuild.AInt("bits", 4), onnxbuild.AInt("block_size", nbitsBlock))[0]
}

// quantize4 quantizes w ([k, n], row-major) to 4 bits per column in
// blocks of bs rows, asymmetrically: per block the scale (max − min)/15
// over the block's values and 0, the zero point round(−min/scale) and
// codes clamp(round(v/scale) + zp, 0, 15). It returns the codes
// [n][blocks][bs/2] (low nibble first, a last partial block padded with
// zero codes), the scales [n·blocks] and the zero points packed two to a
// byte, ceil(blocks/2) bytes a column, low nibble first.
func quantize4(w []float32, k, n, bs int) (q []uint8, sc []float32, zp []uint8) {
	kb := (k + bs - 1) / bs
	zpRow := (kb + 1) / 2
	q = make([]uint8, n*kb*bs/2)
	sc = make([]float32, n*kb)
	zp = make([]uint8, n*zpRow)
	for j := range n {
		for b := range kb {
			lo, hi := float32(0), float32(0)
			for i := b * bs; i < min((b+1)*bs, k); i++ {
				lo, hi = min(lo, w[i*n+j]), max(hi, w[i*n+j])
			}
			s := (hi - lo) / 15
			if s == 0 {
				s = 1
			}
			z := uint8(min(max(math.Round(float64(-lo/s)), 0), 15))
			sc[j*kb+b] = s
			zp[j*zpRow+b/2] |= z << (4 * (b & 1))
			for i := b * bs; i < min((b+1)*bs, k); i++ {
				c := uint8(min(max(math.Round(float64(w[i*n+j]/s))+float64(z), 0), 15))
				q[(j*kb+b)*bs/2+(i-b*bs)/2] |= c << (4 * ((i - b*bs) & 1))
			}
		}
	}
	return q, sc, zp
}
