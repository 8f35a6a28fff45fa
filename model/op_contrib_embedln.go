package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "EmbedLayerNormalization",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 9, MaxOut: 3}},
		InputNames: []string{"input_ids", "segment_ids", "word_embedding", "position_embedding", "segment_embedding", "gamma", "beta", "mask", "position_ids"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &EmbedLNAttrs{}
			var err error
			if a.Epsilon, err = n.Float("epsilon", 1e-12); err != nil {
				return nil, err
			}
			if !(a.Epsilon >= 0) {
				return nil, attrErr(n, "epsilon %v is negative", a.Epsilon)
			}
			if a.MaskIndexType, err = n.Int("mask_index_type", 1); err != nil {
				return nil, err
			}
			for _, i := range []int{2, 3, 5, 6} {
				if n.Input(i) == "" {
					return nil, attrErr(n, "input %d is required", i)
				}
			}
			if (n.Input(1) == "") != (n.Input(4) == "") {
				return nil, attrErr(n, "segment_ids and segment_embedding must be given together")
			}
			return a, nil
		},
	})
}

// EmbedLNAttrs are the attributes of ONNX Runtime's
// EmbedLayerNormalization (com.microsoft). Each token's embedding is
// the sum of word_embedding's row input_ids, position_embedding's row
// of its position (position_ids, (batch, sequence) or (1, sequence), or
// its place in the sequence) and segment_embedding's row segment_ids,
// when given; output is that sum layer-normalised (gamma and beta,
// hidden), embedding_sum the sum itself, and mask_index each item's
// count of ones in mask (zeros without a mask).
type EmbedLNAttrs struct {
	// Epsilon is added to the variance (default 1e-12).
	Epsilon float32
	// MaskIndexType is mask_index_type; lintel fills mask_index as for
	// the default, 1.
	MaskIndexType int64
}

// Infer implements Rule.
func (a *EmbedLNAttrs) Infer(c *InferCtx) error {
	dt := c.DType(2)
	c.SetType(0, dt)
	if c.NumOut() > 1 {
		c.SetType(1, payload.Int32)
	}
	if c.NumOut() > 2 {
		c.SetType(2, dt)
	}
	ids, ok := c.Dims(0)
	if ok && len(ids) != 2 {
		return c.Errorf("input_ids has shape %v, want [batch sequence]", ids)
	}
	h := -1
	for _, i := range [3]int{2, 3, 4} {
		if d, ok := c.Dims(i); ok {
			if len(d) != 2 || !attnUnify(&h, d[1]) {
				return c.Errorf("input %d has shape %v, want [rows %d]", i, d, h)
			}
		}
	}
	for _, i := range [2]int{5, 6} {
		if d, ok := c.Dims(i); ok && (len(d) != 1 || !attnUnify(&h, d[0])) {
			return c.Errorf("input %d has shape %v, want [%d]", i, d, h)
		}
	}
	b, s := -1, -1
	if ok {
		b, s = ids[0], ids[1]
	}
	for _, i := range [2]int{1, 7} {
		if d, ok := c.Dims(i); ok && (len(d) != 2 || dimsConflict(d[0], b) || dimsConflict(d[1], s)) {
			return c.Errorf("input %d has shape %v, want [%d %d]", i, d, b, s)
		}
	}
	if d, ok := c.Dims(8); ok && (len(d) != 2 || d[0] != 1 && dimsConflict(d[0], b) || dimsConflict(d[1], s)) {
		return c.Errorf("position_ids has shape %v, want [%d or 1, %d]", d, b, s)
	}
	y := c.OutDims(0, 3)
	y[0], y[1], y[2] = b, s, h
	if c.NumOut() > 1 {
		c.OutDims(1, 1)[0] = b
	}
	if c.NumOut() > 2 {
		e := c.OutDims(2, 3)
		e[0], e[1], e[2] = b, s, h
	}
	return nil
}
