package model

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "MatMulNBits",
		Versions:   []Version{{Since: 1, MinIn: 3, MaxIn: 6, MaxOut: 1}},
		InputNames: []string{"A", "B", "scales", "zero_points", "g_idx", "bias"},
		Bind:       bindMatMulNBits,
	})
}

func bindMatMulNBits(n *Node, _ int64) (Rule, error) {
	a := &MatMulNBitsAttrs{}
	var err error
	if a.K, err = n.Int("K", 0); err != nil {
		return nil, err
	}
	if a.N, err = n.Int("N", 0); err != nil {
		return nil, err
	}
	if a.Bits, err = n.Int("bits", 4); err != nil {
		return nil, err
	}
	if a.BlockSize, err = n.Int("block_size", 0); err != nil {
		return nil, err
	}
	if a.AccuracyLevel, err = n.Int("accuracy_level", 0); err != nil {
		return nil, err
	}
	switch {
	case !n.Has("K") || !n.Has("N"):
		return nil, attrErr(n, "the K and N attributes are required")
	case !n.Has("block_size"):
		return nil, attrMissing(n, "block_size")
	case a.K <= 0 || a.N <= 0 || a.K > math.MaxInt32 || a.N > math.MaxInt32:
		return nil, attrErr(n, "K %d and N %d must be positive", a.K, a.N)
	case a.K*a.N > 1<<48:
		return nil, attrErr(n, "K %d times N %d is too large", a.K, a.N)
	case a.BlockSize < 16 || a.BlockSize > math.MaxInt32 || a.BlockSize&(a.BlockSize-1) != 0:
		return nil, attrErr(n, "block_size %d is not a power of 2 of at least 16", a.BlockSize)
	case a.Bits < 1 || a.Bits > 8:
		return nil, attrErr(n, "bits %d out of range", a.Bits)
	}
	return a, nil
}

// MatMulNBitsAttrs are the attributes of ONNX Runtime's MatMulNBits
// (com.microsoft): Y = A·dequantize(B)ᵀ + bias, where A is (..., K) and
// Y (..., N). B holds the N×K weights transposed, quantized to Bits bits
// in blocks of BlockSize along K: (N, k_blocks, BlockSize·Bits/8) bytes,
// with k_blocks = ceil(K/BlockSize), the first element of each byte in
// its low bits. Weight (n, k) is (q - zero_point)·scale, with the scale
// and zero point of its block: scales holds N·k_blocks values of A's
// type; zero_points, optional, holds them as A's type or packed like B
// (N rows of ceil(k_blocks·Bits/8) bytes), 2^(Bits-1) when absent.
type MatMulNBitsAttrs struct {
	K, N, Bits, BlockSize int64
	// AccuracyLevel is the lowest precision the product may compute in;
	// lintel computes in float32 whatever it says.
	AccuracyLevel int64
}

// KBlocks returns the number of blocks along K.
func (a *MatMulNBitsAttrs) KBlocks() int { return int((a.K + a.BlockSize - 1) / a.BlockSize) }

// Infer implements Rule.
func (a *MatMulNBitsAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	kb := a.KBlocks()
	blob := int(a.BlockSize * a.Bits / 8)
	n := int(a.N)
	want := [6]int{1: n * kb * blob, 2: n * kb, 5: n}
	for i := 1; i < 6; i++ {
		if i == 4 || !c.Has(i) {
			continue
		}
		d, ok := c.Dims(i)
		if !ok {
			continue
		}
		w := want[i]
		if i == 3 {
			w = n * kb
			if c.DType(3) == payload.Uint8 {
				w = n * ((kb*int(a.Bits) + 7) / 8)
			}
		}
		got, known, err := c.Numel(d)
		if err != nil {
			return err
		}
		if known && got != w {
			return c.Errorf("input %d has shape %v, want %d elements", i, d, w)
		}
	}
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	if len(x) == 0 || dimsConflict(x[len(x)-1], int(a.K)) {
		return c.Errorf("A has shape %v, want a last dim of K = %d", x, a.K)
	}
	s := c.OutDims(0, len(x))
	copy(s, x)
	s[len(s)-1] = n
	return nil
}
