package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// The pooling kinds of PoolAttrs and GlobalPoolAttrs.
const (
	// PoolMax takes the maximum of each window.
	PoolMax = iota
	// PoolAverage takes the mean.
	PoolAverage
	// PoolLp takes the Lp norm.
	PoolLp
)

func init() {
	one := []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}}
	RegisterOp(&Op{
		Type: "MaxPool",
		// Opset 8 adds the Indices output.
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}, {Since: 8, MinIn: 1, MaxIn: 1, MaxOut: 2}},
		InputNames: []string{"X"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return bindPool(n, opset, PoolMax) },
	})
	RegisterOp(&Op{
		Type: "AveragePool", Versions: one, InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) { return bindPool(n, opset, PoolAverage) },
	})
	RegisterOp(&Op{
		Type: "LpPool", Versions: one, InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) { return bindPool(n, opset, PoolLp) },
	})
	for _, g := range []struct {
		op   string
		kind int
	}{{"GlobalMaxPool", PoolMax}, {"GlobalAveragePool", PoolAverage}, {"GlobalLpPool", PoolLp}} {
		RegisterOp(&Op{
			Type: g.op, Versions: one, InputNames: []string{"X"},
			Bind: func(n *Node, opset int64) (Rule, error) {
				a := &GlobalPoolAttrs{Kind: g.kind}
				if g.kind == PoolLp {
					var err error
					if a.P, err = bindP(n, opset); err != nil {
						return nil, err
					}
				}
				return a, nil
			},
		})
	}
}

// bindP reads LpPool's and GlobalLpPool's p: a float before opset 2, an
// integer from it. lintel takes p of at least 1.
func bindP(n *Node, opset int64) (float64, error) {
	var p float64
	if opset < 2 && n.Attr("p") != nil && n.Attr("p").Type == AttrFloat {
		f, err := n.Float("p", 2)
		if err != nil {
			return 0, err
		}
		p = float64(f)
	} else {
		v, err := n.Int("p", 2)
		if err != nil {
			return 0, err
		}
		p = float64(v)
	}
	if !(p >= 1) {
		return 0, errs.New(errs.Unsupported, "node %q (%s): p %v", n.Label(), n.OpType, p)
	}
	return p, nil
}

func bindPool(n *Node, opset int64, kind int) (Rule, error) {
	a := &PoolAttrs{Kind: kind}
	var err error
	if a.Window, err = bindWindow(n, true); err != nil {
		return nil, err
	}
	if a.Window.KernelShape == nil {
		return nil, attrMissing(n, "kernel_shape")
	}
	switch kind {
	case PoolMax:
		so, err := n.Int("storage_order", 0)
		if err != nil {
			return nil, err
		}
		if so != 0 && so != 1 {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): storage_order %d", n.Label(), n.OpType, so)
		}
		a.ColumnMajor = so == 1
	case PoolAverage:
		cip, err := n.Int("count_include_pad", 0)
		if err != nil {
			return nil, err
		}
		a.CountIncludePad = cip != 0
	case PoolLp:
		if a.P, err = bindP(n, opset); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// PoolAttrs are the attributes of a MaxPool, AveragePool or LpPool node.
// X is N×C×D1…Dk; the output is N×C×O1…Ok, each Oi as Window.Dim
// computes it, and so is MaxPool's optional second output, Indices
// (int64): each maximum's flat index in X.
type PoolAttrs struct {
	// Kind is PoolMax, PoolAverage or PoolLp.
	Kind int
	// Window is the window; KernelShape is always set.
	Window Window
	// ColumnMajor is MaxPool's storage_order 1: Indices count the
	// spatial dims in column-major order.
	ColumnMajor bool
	// CountIncludePad is AveragePool's count_include_pad: the pads count
	// in each window's divisor.
	CountIncludePad bool
	// P is LpPool's p.
	P float64
}

// Infer implements Rule.
func (a *PoolAttrs) Infer(c *InferCtx) error {
	w := &a.Window
	nd := len(w.KernelShape)
	c.SetType(0, c.DType(0))
	c.SetType(1, payload.Int64)
	x, ok := c.Dims(0)
	if !ok {
		if err := c.RankOK(nd + 2); err != nil {
			return err
		}
		c.SetUnknownDims(0, nd+2)
		if c.NumOut() > 1 {
			c.SetUnknownDims(1, nd+2)
		}
		return nil
	}
	out, err := poolOutDims(c, w, x, 2)
	if err != nil {
		return err
	}
	if c.NumOut() > 1 {
		c.SetDims(1, out)
	}
	return nil
}

// poolOutDims sets output 0's dims for the pooling window w over x, of
// rank len(KernelShape)+2 with its spatial dims from sp on (2 for NCHW,
// 1 for channels last), and returns them: x's other dims, and each
// spatial dim as Window.Dim computes it (unknown where x's is).
func poolOutDims(c *InferCtx, w *Window, x []int, sp int) ([]int, error) {
	nd := len(w.KernelShape)
	if len(x) != nd+2 {
		return nil, c.Errorf("kernel_shape %v for input rank %d", w.KernelShape, len(x))
	}
	if !w.Fits(nd) {
		return nil, w.fitErr(c, nd)
	}
	out := c.OutDims(0, len(x))
	copy(out, x)
	for i := range nd {
		if x[sp+i] < 0 {
			out[sp+i] = -1
			continue
		}
		d, err := w.Dim(i, nd, x[sp+i], clampDim(w.KernelShape[i]))
		if err != nil {
			return nil, c.Errorf("spatial dim %d: %v", i, err)
		}
		out[sp+i] = d.Out
	}
	return out, nil
}

// GlobalPoolAttrs are the attributes of a GlobalMaxPool,
// GlobalAveragePool or GlobalLpPool node. X is N×C×D1…Dk; the output is
// N×C×1…1, one value per (N, C) plane.
type GlobalPoolAttrs struct {
	// Kind is PoolMax, PoolAverage or PoolLp.
	Kind int
	// P is GlobalLpPool's p.
	P float64
}

// Infer implements Rule.
func (a *GlobalPoolAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	if len(x) < 2 {
		return c.Errorf("input of shape %v: want N×C×D1…", x)
	}
	out := c.OutDims(0, len(x))
	out[0], out[1] = x[0], x[1]
	for i := 2; i < len(out); i++ {
		out[i] = 1
	}
	return nil
}
