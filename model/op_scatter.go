package model

import "github.com/lintel-ml/lintel/internal/errs"

func init() {
	RegisterOp(&Op{
		Type:       "Scatter",
		Versions:   []Version{{Since: 9, MinIn: 3, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"data", "indices", "updates"},
		Bind:       bindScatter(false),
	})
	RegisterOp(&Op{
		Type:       "ScatterElements",
		Versions:   []Version{{Since: 11, MinIn: 3, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"data", "indices", "updates"},
		Bind:       bindScatter(false),
	})
	RegisterOp(&Op{
		Type:       "ScatterND",
		Versions:   []Version{{Since: 11, MinIn: 3, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"data", "indices", "updates"},
		Bind:       bindScatter(true),
	})
}

// Reduction is how a scatter combines an update with the element it
// lands on.
type Reduction uint8

// The scatter reductions.
const (
	// ReduceNone overwrites: with repeated indices, the last update wins.
	ReduceNone Reduction = iota
	ReduceAdd
	ReduceMul
	ReduceMax
	ReduceMin
)

var reductionNames = []string{"none", "add", "mul", "max", "min"}

// String returns the reduction attribute's value.
func (r Reduction) String() string {
	if int(r) < len(reductionNames) {
		return reductionNames[r]
	}
	return "unknown"
}

func bindScatter(nd bool) func(n *Node, opset int64) (Rule, error) {
	return func(n *Node, opset int64) (Rule, error) {
		a := &ScatterAttrs{ND: nd}
		if !nd {
			var err error
			if a.Axis, err = n.Int("axis", 0); err != nil {
				return nil, err
			}
		}
		if opset < 16 || n.OpType == "Scatter" {
			return a, nil
		}
		s, err := n.String("reduction", "none")
		if err != nil {
			return nil, err
		}
		for r, name := range reductionNames {
			if s == name {
				a.Reduction = Reduction(r)
			}
		}
		switch {
		case a.Reduction == ReduceNone && s != "none":
			return nil, invalidAttr(n, "unknown reduction %q", s)
		case a.Reduction >= ReduceMax && opset < 18:
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): reduction %q needs opset 18, the model has %d", n.Label(), n.OpType, s, opset)
		}
		return a, nil
	}
}

// ScatterAttrs are a Scatter, ScatterElements or ScatterND node's
// attributes. The output is a copy of the data with the updates written
// at the indices, combined by Reduction. ScatterElements (and the older
// Scatter) writes one element per index, at the index's position with
// its Axis coordinate replaced by the index; ScatterND writes the slice
// of the data that each row of the last indices axis addresses.
type ScatterAttrs struct {
	// ND selects ScatterND.
	ND bool
	// Axis is the axis ScatterElements indexes; negatives count from the
	// end.
	Axis int64
	// Reduction combines updates with the data (opset 16 on).
	Reduction Reduction
}

// Infer implements Rule.
func (a *ScatterAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if dt := c.DType(2); dt != c.DType(0) && dt != 0 && c.DType(0) != 0 {
		return c.Errorf("updates have element type %s, data %s", dt, c.DType(0))
	}
	x, okx := c.Dims(0)
	idx, oki := c.Dims(1)
	upd, oku := c.Dims(2)
	if a.ND {
		return a.inferND(c, x, okx, idx, oki, upd, oku)
	}
	if okx {
		ax, err := c.Axis(a.Axis, len(x))
		if err != nil {
			return err
		}
		if oki {
			if len(idx) != len(x) {
				return c.Errorf("indices shape %v and data shape %v differ in rank", idx, x)
			}
			for d := range idx {
				if d != ax && idx[d] >= 0 && x[d] >= 0 && idx[d] > x[d] {
					return c.Errorf("indices shape %v exceeds data shape %v", idx, x)
				}
			}
		}
	}
	if oki && oku {
		if len(idx) != len(upd) {
			return c.Errorf("indices shape %v and updates shape %v differ", idx, upd)
		}
		for d := range idx {
			if idx[d] >= 0 && upd[d] >= 0 && idx[d] != upd[d] {
				return c.Errorf("indices shape %v and updates shape %v differ", idx, upd)
			}
		}
	}
	return nil
}

// inferND checks ScatterND's shapes: indices [..., k] address slices of
// the data's trailing dims past k, and the updates have shape
// indices[:-1] + data[k:].
func (a *ScatterAttrs) inferND(c *InferCtx, x []int, okx bool, idx []int, oki bool, upd []int, oku bool) error {
	if !oki {
		return nil
	}
	q := len(idx)
	if q == 0 {
		return c.Errorf("the indices are a scalar, want rank 1 or more")
	}
	k := idx[q-1]
	if k < 0 || !okx {
		return nil
	}
	if k > len(x) {
		return c.Errorf("indices shape %v addresses %d dims of a rank-%d data", idx, k, len(x))
	}
	if !oku {
		return nil
	}
	if len(upd) != q-1+len(x)-k {
		return c.Errorf("updates shape %v, want indices shape %v without its last dim followed by data shape %v from dim %d", upd, idx, x, k)
	}
	for d := range upd {
		w := idx[min(d, q-1)]
		if d >= q-1 {
			w = x[k+d-(q-1)]
		}
		if w >= 0 && upd[d] >= 0 && w != upd[d] {
			return c.Errorf("updates shape %v, want indices shape %v without its last dim followed by data shape %v from dim %d", upd, idx, x, k)
		}
	}
	return nil
}
