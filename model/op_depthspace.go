package model

import "github.com/lintel-ml/lintel/internal/errs"

// maxBlocksize bounds DepthToSpace's and SpaceToDepth's blocksize.
const maxBlocksize = 1 << 15

func init() {
	bind := func(toSpace bool) func(n *Node, opset int64) (Rule, error) {
		return func(n *Node, opset int64) (Rule, error) {
			b, err := n.Int("blocksize", 0)
			if err != nil {
				return nil, err
			}
			if !n.Has("blocksize") {
				return nil, attrMissing(n, "blocksize")
			}
			if b < 1 || b > maxBlocksize {
				return nil, attrInvalid(n, "blocksize %d", b)
			}
			a := &DepthSpaceAttrs{ToSpace: toSpace, Blocksize: int(b)}
			if toSpace && opset >= 11 {
				mode, err := n.String("mode", "DCR")
				if err != nil {
					return nil, err
				}
				switch mode {
				case "DCR":
				case "CRD":
					a.CRD = true
				default:
					return nil, errs.New(errs.Unsupported, "node %q (%s): mode %q", n.Label(), n.OpType, mode)
				}
			}
			return a, nil
		}
	}
	RegisterOp(&Op{
		Type:       "DepthToSpace",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind:       bind(true),
	})
	RegisterOp(&Op{
		Type:       "SpaceToDepth",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind:       bind(false),
	})
}

// DepthSpaceAttrs are a DepthToSpace or SpaceToDepth node's attributes.
// On NCHW input, DepthToSpace moves blocks of Blocksize² channels into
// Blocksize×Blocksize spatial blocks; SpaceToDepth does the reverse.
type DepthSpaceAttrs struct {
	// ToSpace selects DepthToSpace.
	ToSpace bool
	// Blocksize is the block edge, in [1, 1<<15].
	Blocksize int
	// CRD selects DepthToSpace's column-row-depth channel order (mode
	// "CRD", opset 11) over the default depth-column-row ("DCR").
	CRD bool
}

// Infer implements Rule.
func (a *DepthSpaceAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	s, known := c.Dims(0)
	if !known {
		c.SetUnknownDims(0, 4)
		return nil
	}
	if len(s) != 4 {
		return c.Errorf("input rank %d, want 4", len(s))
	}
	b := a.Blocksize
	out := c.OutDims(0, 4)
	out[0] = s[0]
	var err error
	if a.ToSpace {
		if out[1], err = divDim(c, s[1], b*b); err != nil {
			return err
		}
		if out[2], err = mulSmall(c, s[2], b); err != nil {
			return err
		}
		out[3], err = mulSmall(c, s[3], b)
		return err
	}
	if out[1], err = mulSmall(c, s[1], b*b); err != nil {
		return err
	}
	if out[2], err = divDim(c, s[2], b); err != nil {
		return err
	}
	out[3], err = divDim(c, s[3], b)
	return err
}

// mulSmall returns d*k for an unknown (-1) or known dim d and k >= 1.
func mulSmall(c *InferCtx, d, k int) (int, error) {
	if d < 0 {
		return -1, nil
	}
	if d > maxDimValue/k {
		return 0, c.Errorf("dim %d times %d overflows", d, k)
	}
	return d * k, nil
}

// divDim returns d/k for an unknown (-1) or known dim d that k divides.
func divDim(c *InferCtx, d, k int) (int, error) {
	if d < 0 {
		return -1, nil
	}
	if d%k != 0 {
		return 0, c.Errorf("dim %d not divisible by %d", d, k)
	}
	return d / k, nil
}
