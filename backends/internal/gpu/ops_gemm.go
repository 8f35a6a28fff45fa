package gpu

import "github.com/lintel-ml/lintel/payload"

func init() {
	register(buildGemm, "Gemm")
	register(buildMatMul, "MatMul")
}

// emitGemm launches the tiled gemm kernel over [batch, m, n] outputs,
// with 16-bit operands when the model stores its weights so (halfGemm).
func (c *buildCtx) emitGemm(a *GemmArgs, x, w, bias, y *val) error {
	x, w, err := c.halfGemm(a, x, w)
	if err != nil {
		return err
	}
	if bias == nil {
		// Buffer 3 is not read without has_c; bind something valid.
		bias = y
	}
	groups := [3]uint32{u32((int(a.N) + GemmTile - 1) / GemmTile), u32((int(a.M) + GemmTile - 1) / GemmTile), max(a.Batch, 1)}
	c.emit(KGemm, Pack(nil, a), groups, [3]uint32{GemmTile, GemmTile, 1}, x, w, bias, y)
	return nil
}

func buildGemm(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	w, err := c.input(1)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	for _, v := range []*val{x, w, y} {
		if err := c.want(v, payload.Float32); err != nil {
			return err
		}
	}
	if len(x.shape) != 2 || len(w.shape) != 2 {
		return c.invalid("Gemm takes 2-D A and B, got %v and %v", x.shape, w.shape)
	}
	ta, err := c.n.Int("transA", 0)
	if err != nil {
		return err
	}
	tb, err := c.n.Int("transB", 0)
	if err != nil {
		return err
	}
	alpha, err := c.n.Float("alpha", 1)
	if err != nil {
		return err
	}
	beta, err := c.n.Float("beta", 1)
	if err != nil {
		return err
	}
	m, k := x.shape[0], x.shape[1]
	a := GemmArgs{Alpha: alpha, Beta: beta, Batch: 1}
	a.SAM, a.SAK = int32(k), 1
	if ta != 0 {
		m, k = k, m
		a.SAM, a.SAK = 1, int32(m)
	}
	kb, n := w.shape[0], w.shape[1]
	a.SBK, a.SBN = int32(n), 1
	if tb != 0 {
		kb, n = n, kb
		a.SBK, a.SBN = 1, int32(kb)
	}
	if kb != k || !sameShape(y.shape, []int{m, n}) {
		return c.invalid("A %v and B %v (transA %d, transB %d) do not give %v", x.shape, w.shape, ta, tb, y.shape)
	}
	a.M, a.N, a.K = u32(m), u32(n), u32(k)
	var bias *val
	if len(c.in) > 2 && c.in[2] != nil {
		bias = c.in[2]
		if err := c.want(bias, payload.Float32); err != nil {
			return err
		}
		s, ok := broadcastStrides(bias.shape, y.shape)
		if !ok {
			return c.invalid("C %v does not broadcast to %v", bias.shape, y.shape)
		}
		a.HasC, a.SCM, a.SCN = 1, int32(s[0]), int32(s[1])
	}
	if y.numel() == 0 {
		return nil
	}
	return c.emitGemm(&a, x, w, bias, y)
}

func buildMatMul(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	w, err := c.input(1)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	for _, v := range []*val{x, w, y} {
		if err := c.want(v, payload.Float32); err != nil {
			return err
		}
	}
	xs, ws := x.shape, w.shape
	if len(xs) == 0 || len(ws) == 0 {
		return c.invalid("MatMul of a scalar")
	}
	if len(xs) == 1 {
		xs = []int{1, xs[0]}
	}
	if len(ws) == 1 {
		ws = []int{ws[0], 1}
	}
	m, k := xs[len(xs)-2], xs[len(xs)-1]
	kb, n := ws[len(ws)-2], ws[len(ws)-1]
	if k != kb {
		return c.invalid("inner dims %d and %d differ", k, kb)
	}
	xb, wb := xs[:len(xs)-2], ws[:len(ws)-2]
	rb := max(len(xb), len(wb))
	if rb > MaxBatchRank {
		return c.unsupported("%d batch dims; the kernel takes at most %d", rb, MaxBatchRank)
	}
	bshape := make([]int, rb)
	for i := range bshape {
		dx, dw := 1, 1
		if j := i - (rb - len(xb)); j >= 0 {
			dx = xb[j]
		}
		if j := i - (rb - len(wb)); j >= 0 {
			dw = wb[j]
		}
		switch {
		case dx == dw || dw == 1:
			bshape[i] = dx
		case dx == 1:
			bshape[i] = dw
		default:
			return c.invalid("batch dims %v and %v do not broadcast", xb, wb)
		}
	}
	bsa, _ := broadcastStrides(xb, bshape)
	bsb, _ := broadcastStrides(wb, bshape)
	batch := payload.NumElems(bshape)
	if batch*m*n != y.numel() {
		return c.invalid("A %v and B %v do not give %v", x.shape, w.shape, y.shape)
	}
	a := GemmArgs{M: u32(m), N: u32(n), K: u32(k), Batch: u32(batch), BRank: u32(rb), Alpha: 1,
		SAM: int32(k), SAK: 1, SBK: int32(n), SBN: 1}
	for i := range bshape {
		bsa[i] *= m * k
		bsb[i] *= k * n
	}
	fill(a.BShape[:], bshape)
	fill(a.BSA[:], bsa)
	fill(a.BSB[:], bsb)
	if y.numel() == 0 {
		return nil
	}
	return c.emitGemm(&a, x, w, nil, y)
}
