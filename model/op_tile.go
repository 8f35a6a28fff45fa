package model

func init() {
	RegisterOp(&Op{
		Type: "Tile",
		Versions: []Version{
			{Since: 1, MinIn: 3, MaxIn: 3, MaxOut: 1, Values: []int{1, 2}},
			{Since: 6, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}},
		},
		InputNames: []string{"input", "repeats", "axis"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			return &TileAttrs{Legacy: opset < 6}, nil
		},
	})
}

// TileAttrs are a Tile node's attributes. From opset 6 dim k of the
// output is dim k of the input times repeats[k]; before, the input is
// repeated tiles times along one axis, both given as scalar inputs.
type TileAttrs struct {
	// Legacy selects the form of opsets before 6: inputs input, tiles
	// and axis.
	Legacy bool
}

// Infer implements Rule.
func (a *TileAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	s, known := c.Dims(0)
	if !known {
		c.SetUnranked(0)
		return nil
	}
	out := c.OutDims(0, len(s))
	copy(out, s)
	if a.Legacy {
		return a.legacy(c, out)
	}
	if r := c.Rank(1); r >= 0 && r != 1 {
		return c.Errorf("repeats has rank %d, want 1", r)
	}
	reps, ok := c.Ints(1)
	if !ok {
		for i := range out {
			out[i] = -1
		}
		return nil
	}
	if len(reps) != len(s) {
		return c.Errorf("%d repeats for rank %d", len(reps), len(s))
	}
	for i, r := range reps {
		if r < 0 {
			return c.Errorf("negative repeat %d", r)
		}
		if out[i], ok = tileDim(s[i], r); !ok {
			return c.Errorf("tiled dim overflows")
		}
	}
	return nil
}

// tileDim returns d*r for a repeat r >= 0, -1 when d is unknown and r
// not 0, and false when it overflows.
func tileDim(d int, r int64) (int, bool) {
	switch {
	case r == 0:
		return 0, true
	case d < 0:
		return -1, true
	}
	x, ok := mulDim(int64(d), r)
	if !ok || x > int64(maxDimValue) {
		return 0, false
	}
	return int(x), true
}

func (a *TileAttrs) legacy(c *InferCtx, out []int) error {
	tiles, ok1 := c.Ints(1)
	axis, ok2 := c.Ints(2)
	if !ok2 || len(axis) != 1 {
		for i := range out {
			out[i] = -1
		}
		return nil
	}
	ax, err := c.Axis(axis[0], len(out))
	if err != nil {
		return err
	}
	if !ok1 || len(tiles) != 1 {
		out[ax] = -1
		return nil
	}
	if tiles[0] < 0 {
		return c.Errorf("negative repeat %d", tiles[0])
	}
	if out[ax], ok1 = tileDim(out[ax], tiles[0]); !ok1 {
		return c.Errorf("tiled dim overflows")
	}
	return nil
}
