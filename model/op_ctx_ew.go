package model

// Helpers shared by the elementwise rules.

// narrowDim narrows the dim *o with d, another view of the same dim: an
// unknown side takes the other's value. It reports false when both are
// known and differ.
func narrowDim(o *int, d int) bool {
	switch {
	case d < 0:
	case *o < 0:
		*o = d
	case *o != d:
		return false
	}
	return true
}

// equalShapes sets output j to the one shape that the present inputs
// among the first n all have, with input 0's element type; the inputs'
// unknown dims are filled from the others. An input of unknown rank
// constrains nothing; when none has a known rank the output's is unknown.
func (c *InferCtx) equalShapes(j, n int) error {
	c.SetType(j, c.DType(0))
	first := -1
	for i := range n {
		if _, ok := c.Dims(i); ok {
			first = i
			break
		}
	}
	if first < 0 {
		c.SetUnranked(j)
		return nil
	}
	s, _ := c.Dims(first)
	out := c.OutDims(j, len(s))
	copy(out, s)
	for i := first + 1; i < n; i++ {
		d, ok := c.Dims(i)
		if !ok {
			continue
		}
		if len(d) != len(out) {
			return c.shapesDiffer(n)
		}
		for q, x := range d {
			if !narrowDim(&out[q], x) {
				return c.shapesDiffer(n)
			}
		}
	}
	return nil
}

// shapesDiffer describes inputs whose shapes must be equal but are not;
// it runs on the failure path only.
func (c *InferCtx) shapesDiffer(n int) error {
	var shapes [][]int
	for i := range n {
		if d, ok := c.Dims(i); ok {
			shapes = append(shapes, d)
		}
	}
	return c.Errorf("shapes %v differ (this opset does not broadcast)", shapes)
}
