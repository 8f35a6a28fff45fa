package model

func init() {
	RegisterOp(&Op{
		Type: "Scan",
		Versions: []Version{
			{Since: 8, MinIn: 0, MaxIn: manyOut, MaxOut: manyOut},
			{Since: 9, MinIn: 1, MaxIn: manyOut, MaxOut: manyOut},
		},
		InputNames: []string{"initial_state_and_scan_inputs"},
		Bind:       bindScan,
		NoFold:     true,
	})
}

// ScanAttrs are a Scan node's attributes. The body runs once per slice
// of the scan inputs along their scan axes, taking the State state
// variables (their initial values first, then what the body gave) and
// one slice of each of the Inputs scan inputs; it gives the next state
// variables and one element of each of the Outputs scan outputs, which
// the node stacks along the outputs' axes.
//
// At opset 8 every input and output has a leading batch dim, the body
// runs per batch item, the scan axis is 1, and the node's first input is
// the optional sequence_lens: how many steps of each item to run (the
// scan outputs are zero past them).
type ScanAttrs struct {
	Body *Graph
	// State is the number of state variables; Inputs the number of scan
	// inputs (num_scan_inputs); Outputs the number of scan outputs.
	State, Inputs, Outputs int
	// InputAxes and OutputAxes are the scan axes (opset 9:
	// scan_input_axes, scan_output_axes; negatives count from the end),
	// InputReverse and OutputReverse the directions (true to run from the
	// last slice to the first; opset 8's directions are InputReverse).
	InputAxes, OutputAxes       []int64
	InputReverse, OutputReverse []bool
	// Batched is true at opset 8.
	Batched bool
}

func bindScan(n *Node, opset int64) (Rule, error) {
	body, err := graphAttr(n, "body")
	if err != nil {
		return nil, err
	}
	m, err := n.Int("num_scan_inputs", -1)
	if err != nil {
		return nil, err
	}
	if m < 1 {
		return nil, attrInvalid(n, "num_scan_inputs %d: want at least 1", m)
	}
	a := &ScanAttrs{Body: body, Batched: opset < 9}
	first := 0
	if a.Batched {
		first = 1
		if len(n.Inputs) < 1 {
			return nil, attrInvalid(n, "no inputs")
		}
	}
	if int64(len(n.Inputs)-first) < m {
		return nil, attrInvalid(n, "num_scan_inputs %d, but the node has %d state and scan inputs", m, len(n.Inputs)-first)
	}
	a.Inputs = int(m)
	a.State = len(n.Inputs) - first - a.Inputs
	a.Outputs = len(n.Outputs) - a.State
	if a.Outputs < 0 {
		return nil, attrInvalid(n, "%d outputs for %d state variables", len(n.Outputs), a.State)
	}
	for i := first; i < len(n.Inputs); i++ {
		if n.Inputs[i] == "" {
			return nil, attrInvalid(n, "input %d is empty", i)
		}
	}
	if len(body.Inputs) != a.State+a.Inputs {
		return nil, attrInvalid(n, "the body has %d inputs, want %d (%d state variables and %d scan inputs)", len(body.Inputs), a.State+a.Inputs, a.State, a.Inputs)
	}
	if len(body.Outputs) != a.State+a.Outputs {
		return nil, attrInvalid(n, "the body has %d outputs, want %d (%d state variables and %d scan outputs)", len(body.Outputs), a.State+a.Outputs, a.State, a.Outputs)
	}
	dirs := func(name string, k int) ([]bool, error) {
		v, err := n.Ints(name, nil)
		if err != nil {
			return nil, err
		}
		if v != nil && len(v) != k {
			return nil, attrInvalid(n, "%s has %d values, want %d", name, len(v), k)
		}
		out := make([]bool, k)
		for i, d := range v {
			if d != 0 && d != 1 {
				return nil, attrInvalid(n, "%s: direction %d, want 0 or 1", name, d)
			}
			out[i] = d == 1
		}
		return out, nil
	}
	axes := func(name string, k int) ([]int64, error) {
		v, err := n.Ints(name, nil)
		if err != nil {
			return nil, err
		}
		if v != nil && len(v) != k {
			return nil, attrInvalid(n, "%s has %d values, want %d", name, len(v), k)
		}
		if v == nil {
			v = make([]int64, k)
		}
		return v, nil
	}
	if a.Batched {
		if a.InputReverse, err = dirs("directions", a.Inputs); err != nil {
			return nil, err
		}
		a.OutputReverse = make([]bool, a.Outputs)
		a.InputAxes, a.OutputAxes = make([]int64, a.Inputs), make([]int64, a.Outputs)
		return a, nil
	}
	if a.InputReverse, err = dirs("scan_input_directions", a.Inputs); err != nil {
		return nil, err
	}
	if a.OutputReverse, err = dirs("scan_output_directions", a.Outputs); err != nil {
		return nil, err
	}
	if a.InputAxes, err = axes("scan_input_axes", a.Inputs); err != nil {
		return nil, err
	}
	if a.OutputAxes, err = axes("scan_output_axes", a.Outputs); err != nil {
		return nil, err
	}
	return a, nil
}

// Subgraphs implements SubgraphRule.
func (a *ScanAttrs) Subgraphs() []*Graph { return []*Graph{a.Body} }

// first returns the position of the node's first state variable.
func (a *ScanAttrs) first() int {
	if a.Batched {
		return 1
	}
	return 0
}

// SubgraphInputs implements SubgraphRule: a state variable has its
// initial value's type, a scan input's slice its input's type without
// the scan axis (and, at opset 8, without the batch dim).
func (a *ScanAttrs) SubgraphInputs(c *InferCtx, k int) []ValueInfo {
	out := make([]ValueInfo, a.State+a.Inputs)
	f := a.first()
	drop := 0
	if a.Batched {
		drop = 1
	}
	for i := range out {
		in := f + i
		out[i].DType = c.DType(in)
		d, ok := c.Dims(in)
		if !ok {
			continue
		}
		if i < a.State {
			if len(d) >= drop {
				out[i].Shape, out[i].RankKnown = copyDims(d[drop:]), true
			}
			continue
		}
		j := i - a.State
		ax := int(a.InputAxes[j])
		if a.Batched {
			ax = 1
		}
		if ax < 0 {
			ax += len(d)
		}
		if ax < drop || ax >= len(d) {
			continue
		}
		s := make([]int, 0, len(d)-1-drop)
		s = append(s, d[drop:ax]...)
		out[i].Shape, out[i].RankKnown = append(s, d[ax+1:]...), true
	}
	return out
}

// Infer implements Rule. Final state variables have the initial values'
// types; a scan output has the body's element type with the scan length
// inserted at its axis (and, at opset 8, the batch dim in front).
func (a *ScanAttrs) Infer(c *InferCtx) error {
	f := a.first()
	steps, batch := -1, -1
	for j := range a.Inputs {
		in := f + a.State + j
		d, ok := c.Dims(in)
		if !ok {
			continue
		}
		ax := 1
		if !a.Batched {
			var err error
			if ax, err = c.Axis(a.InputAxes[j], len(d)); err != nil {
				return err
			}
		} else if len(d) < 2 {
			return c.Errorf("scan input %d has rank %d, want at least 2 (batch and sequence)", j, len(d))
		}
		if s := d[ax]; s >= 0 {
			if steps >= 0 && s != steps {
				return c.Errorf("scan inputs have %d and %d steps", steps, s)
			}
			steps = s
		}
		if a.Batched && d[0] >= 0 {
			batch = d[0]
		}
	}
	for i := range a.State {
		init := ValueInfo{DType: c.DType(f + i)}
		init.Shape, init.RankKnown = c.Dims(f + i)
		body := a.Body.Outputs[i]
		if a.Batched && body.RankKnown {
			body.Shape = append([]int{batch}, body.Shape...)
		}
		v, ok := MergeTypes(init, body)
		if !ok {
			return c.Errorf("state variable %d is %s, but the body gives %s", i, init.DType, body.DType)
		}
		c.SetType(i, v.DType)
		if v.RankKnown {
			c.SetDims(i, v.Shape)
		} else {
			c.SetUnranked(i)
		}
	}
	for k := range a.Outputs {
		o := a.Body.Outputs[a.State+k]
		j := a.State + k
		c.SetType(j, o.DType)
		if !o.RankKnown {
			c.SetUnranked(j)
			continue
		}
		r := len(o.Shape) + 1
		if a.Batched {
			r++
		}
		if err := c.RankOK(r); err != nil {
			return err
		}
		d := c.OutDims(j, r)
		if a.Batched {
			d[0], d[1] = batch, steps
			copy(d[2:], o.Shape)
			continue
		}
		ax, err := c.Axis(a.OutputAxes[k], r)
		if err != nil {
			return err
		}
		copy(d, o.Shape[:ax])
		d[ax] = steps
		copy(d[ax+1:], o.Shape[ax:])
	}
	return nil
}
