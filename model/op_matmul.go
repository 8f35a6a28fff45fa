package model

func init() {
	RegisterOp(&Op{
		Type: "MatMul",
		Versions: []Version{
			// A third input is the bias FuseActivations folds in.
			{Since: 1, MinIn: 2, MaxIn: 3, MaxOut: 1},
		},
		InputNames: []string{"A", "B", "bias"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &MatMulAttrs{Bias: n.Fused != nil && n.Fused.Bias}
			switch {
			case a.Bias && n.Input(2) == "":
				return nil, attrErr(n, "the fused bias input is missing")
			case !a.Bias && n.NumInputs() > 2:
				return nil, attrErr(n, "%d inputs, the op takes 2", n.NumInputs())
			}
			return a, nil
		},
	})
}

// MatMulAttrs are a MatMul node's attributes: it has none of its own. The
// product follows numpy's matmul: a 1-D A is a row and a 1-D B a column,
// each dropped from the output, and the batch dims before the last two
// broadcast.
type MatMulAttrs struct {
	// Bias is set when FuseActivations folded an Add into the node: its
	// third input, N values, is added to every row of the product.
	Bias bool
}

// Infer implements Rule.
func (a *MatMulAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	n, err := matmulDims(c, 0, 1)
	if err != nil || n == unknownN {
		return err
	}
	if a.Bias {
		if bd, ok := c.Dims(2); ok {
			k, known, err := c.Numel(bd)
			if err != nil {
				return err
			}
			if known && dimsConflict(k, n) {
				return c.Errorf("fused bias %v, want %d elements", bd, n)
			}
		}
	}
	return nil
}

// unknownN is what matmulDims returns when an operand's rank is unknown.
const unknownN = -2

// matmulDims sets output 0's dims to the numpy matmul of inputs ia and
// ib (MatMul's, MatMulInteger's, QLinearMatMul's) and returns the
// product's columns N; unknownN, with the output unranked, when either
// rank is unknown.
func matmulDims(c *InferCtx, ia, ib int) (int, error) {
	return matmulDimsT(c, ia, ib, false, false)
}

// matmulDimsT is matmulDims with the last two dims of input ia (transA)
// or ib (transB) swapped first, as FusedMatMul's transA and transB do.
func matmulDimsT(c *InferCtx, ia, ib int, transA, transB bool) (int, error) {
	x, ok1 := c.Dims(ia)
	y, ok2 := c.Dims(ib)
	if !ok1 || !ok2 {
		c.SetUnranked(0)
		return unknownN, nil
	}
	ra, rb := len(x), len(y)
	if ra == 0 || rb == 0 {
		return 0, c.Errorf("operands %v and %v: a scalar operand does not multiply", x, y)
	}
	m, ka := 1, x[ra-1]
	if ra > 1 {
		m = x[ra-2]
		if transA {
			m, ka = ka, m
		}
	}
	kb, n := y[0], 1
	if rb > 1 {
		kb, n = y[rb-2], y[rb-1]
		if transB {
			kb, n = n, kb
		}
	}
	if dimsConflict(ka, kb) {
		return 0, c.Errorf("shapes %v and %v do not multiply (K is %d and %d)", x, y, ka, kb)
	}
	na, nb := max(ra-2, 0), max(rb-2, 0)
	r := max(na, nb)
	out := c.OutDims(0, r+min(ra, 2)+min(rb, 2)-2)
	for i := range r {
		da, db := 1, 1
		if j := i - (r - na); j >= 0 {
			da = x[j]
		}
		if j := i - (r - nb); j >= 0 {
			db = y[j]
		}
		d, ok := bcastDim(da, db)
		if !ok {
			return 0, c.Errorf("batch dims of %v and %v do not broadcast", x, y)
		}
		out[i] = d
	}
	i := r
	if ra > 1 {
		out[i] = m
		i++
	}
	if rb > 1 {
		out[i] = n
	}
	return n, nil
}
