package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:       "NonMaxSuppression",
		Versions:   []Version{{Since: 10, MinIn: 2, MaxIn: 5, MaxOut: 1}},
		InputNames: []string{"boxes", "scores", "max_output_boxes_per_class", "iou_threshold", "score_threshold"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			cp, err := n.Int("center_point_box", 0)
			if err != nil {
				return nil, err
			}
			if cp != 0 && cp != 1 {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): center_point_box %d", n.Label(), n.OpType, cp)
			}
			return &NonMaxSuppressionAttrs{CenterPointBox: cp == 1}, nil
		},
	})
}

// NonMaxSuppressionAttrs are a NonMaxSuppression node's attributes. boxes
// is B×N×4 and scores B×C×N; the output, int64 K×3, lists the
// (batch, class, box) of each box kept, class by class, best score first.
// K depends on the inputs' contents: the rule leaves it unknown (-1) and
// backends fill it in.
type NonMaxSuppressionAttrs struct {
	// CenterPointBox is center_point_box 1: a box is (x centre, y centre,
	// width, height); otherwise two opposite corners (y1, x1, y2, x2).
	CenterPointBox bool
}

// Infer implements Rule.
func (a *NonMaxSuppressionAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Int64)
	b, bok := c.Dims(0)
	s, sok := c.Dims(1)
	if bok && (len(b) != 3 || (b[2] >= 0 && b[2] != 4)) {
		return c.Errorf("boxes of shape %v: want batches×boxes×4", b)
	}
	if sok && len(s) != 3 {
		return c.Errorf("scores of shape %v: want batches×classes×boxes", s)
	}
	if bok && sok && (dimsConflict(b[0], s[0]) || dimsConflict(b[1], s[2])) {
		return c.Errorf("boxes of shape %v and scores of shape %v disagree", b, s)
	}
	for i := 2; i < 5; i++ {
		if r := c.Rank(i); r > 1 {
			return c.Errorf("input %d has rank %d: want a scalar or one value", i, r)
		}
	}
	out := c.OutDims(0, 2)
	out[0], out[1] = -1, 3
	return nil
}
