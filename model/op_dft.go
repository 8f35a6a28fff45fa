package model

func init() {
	RegisterOp(&Op{
		Type: "DFT",
		Versions: []Version{
			{Since: 17, MinIn: 1, MaxIn: 2, MaxOut: 1, Values: []int{1}},
			{Since: 20, MinIn: 1, MaxIn: 3, MaxOut: 1, Values: []int{1, 2}},
		},
		InputNames: []string{"input", "dft_length", "axis"},
		Bind:       bindDFT,
	})
}

func bindDFT(n *Node, opset int64) (Rule, error) {
	a := &DFTAttrs{Axis: -2, AxisInput: opset >= 20}
	var err error
	if a.Inverse, err = signalFlag(n, "inverse", false); err != nil {
		return nil, err
	}
	if a.Onesided, err = signalFlag(n, "onesided", false); err != nil {
		return nil, err
	}
	if !a.AxisInput {
		if a.Axis, err = n.Int("axis", 1); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// signalFlag reads the 0-or-1 attribute name of n, def when absent.
func signalFlag(n *Node, name string, def bool) (bool, error) {
	d := int64(0)
	if def {
		d = 1
	}
	v, err := n.Int(name, d)
	if err != nil {
		return false, err
	}
	if v != 0 && v != 1 {
		return false, attrErr(n, "%s must be 0 or 1, got %d", name, v)
	}
	return v == 1, nil
}

// DFTAttrs are a DFT node's attributes. The input holds signals along
// Axis: its last dim is 1 (real values) or 2 (real and imaginary parts),
// and every other dim but Axis indexes independent signals. Each signal
// is cut or zero-padded to dft_length (input 1; by default the axis's
// size) and transformed:
//
//	y[k] = Σ_n x[n]·exp(∓2πi·k·n/N)
//
// with the minus sign forward and the plus sign, and a factor 1/N, when
// Inverse. The output has the input's dims with Axis of size N (N/2+1
// when Onesided and forward: the non-redundant half of a real signal's
// spectrum) and a last dim of 2. Inverse and Onesided together are the
// inverse of a real signal's half spectrum (IRFFT): the input holds
// N/2+1 bins, N is by default 2·(bins−1), and the output is real (last
// dim 1).
type DFTAttrs struct {
	// Inverse is inverse: the inverse transform, scaled by 1/N.
	Inverse bool
	// Onesided is onesided: the half spectrum, returned (forward) or
	// taken (inverse).
	Onesided bool
	// Axis is the axis attribute of opset 17 (default 1). From opset 20
	// (AxisInput) the axis is input 2, -2 when absent, and Axis holds
	// that default. It may be negative, but never the last dim.
	Axis int64
	// AxisInput is set from opset 20, where input 2 gives the axis.
	AxisInput bool
}

// DFTAxis normalizes a DFT axis against the input's rank r: it must be
// in [-r, -2] or [0, r-2]. ok is false when it is not.
func DFTAxis(axis int64, r int) (int, bool) {
	if axis < -int64(r) || axis == -1 || axis >= int64(r)-1 {
		return 0, false
	}
	if axis < 0 {
		axis += int64(r)
	}
	return int(axis), true
}

// DFTLength returns the transform's length N for a signal of n values
// along the axis (n bins for the IRFFT) when dft_length is not given.
func (a *DFTAttrs) DFTLength(n int) int {
	if a.Inverse && a.Onesided {
		return 2 * (n - 1)
	}
	return n
}

// Infer implements Rule.
func (a *DFTAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	dims, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	r := len(dims)
	if r < 2 {
		return c.Errorf("input of rank %d, want at least 2 (the signal dims, then 1 or 2 for real or complex values)", r)
	}
	if l := dims[r-1]; l >= 0 && l != 1 && l != 2 {
		return c.Errorf("last dim %d of input %v, want 1 (real) or 2 (complex)", l, dims)
	}
	out := c.OutDims(0, r)
	copy(out, dims)
	out[r-1] = 2
	if a.Inverse && a.Onesided {
		out[r-1] = 1
	}
	axis := a.Axis
	if a.AxisInput && c.Has(2) {
		v, known := c.Ints(2)
		if !known {
			for i := range r - 1 {
				out[i] = -1
			}
			return nil
		}
		if len(v) != 1 {
			return c.Errorf("axis must hold one value, got %d", len(v))
		}
		axis = v[0]
	}
	ax, ok := DFTAxis(axis, r)
	if !ok {
		return c.Errorf("axis %d out of range for an input of rank %d (the last dim holds the complex parts)", axis, r)
	}
	n := -1
	if c.Has(1) {
		v, known := c.Ints(1)
		if !known {
			out[ax] = -1
			return nil
		}
		if len(v) != 1 {
			return c.Errorf("dft_length must hold one value, got %d", len(v))
		}
		if v[0] < 1 || v[0] > int64(maxDimValue) {
			return c.Errorf("dft_length %d, want a positive length", v[0])
		}
		n = int(v[0])
	} else if dims[ax] >= 0 {
		n = a.DFTLength(dims[ax])
		if n < 1 {
			return c.Errorf("a transform of length %d over an axis of %d (give a positive dft_length)", n, dims[ax])
		}
	}
	switch {
	case n < 0:
		out[ax] = -1
	case a.Onesided && !a.Inverse:
		out[ax] = n/2 + 1
	default:
		out[ax] = n
	}
	return nil
}
