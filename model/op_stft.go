package model

func init() {
	RegisterOp(&Op{
		Type:       "STFT",
		Versions:   []Version{{Since: 17, MinIn: 2, MaxIn: 4, MaxOut: 1, Values: []int{1, 3}}},
		InputNames: []string{"signal", "frame_step", "window", "frame_length"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &STFTAttrs{}
			var err error
			if a.Onesided, err = signalFlag(n, "onesided", true); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// STFTAttrs are an STFT node's attributes. The signal is [batch][length]
// [1 or 2] (real, or real and imaginary parts; a [batch][length] signal
// is real, as ONNX Runtime takes it). Frames of frame_length values
// (input 3; else the window's length; else the whole signal) start
// every frame_step (input 1) values, as many as fit in the signal; each
// is multiplied by the window (input 2, 1-D, all ones when absent) and
// transformed by a DFT. The output is [batch][frames][bins][2], bins
// being frame_length, or frame_length/2+1 when Onesided.
type STFTAttrs struct {
	// Onesided is onesided (default 1): only the non-redundant half of
	// each frame's spectrum.
	Onesided bool
}

// STFTFrames returns the frame length and the number of frames of a
// signal of n values: frameLen is frame_length (fl, or -1 when absent),
// else the window's length (wl, or -1 when absent), else n. ok is false
// for a frame longer than the signal, a step below 1, or a frame_length
// that the window's length contradicts.
func STFTFrames(n, step, fl, wl int64) (frameLen, frames int, ok bool) {
	switch {
	case fl >= 0 && wl >= 0 && fl != wl:
		return 0, 0, false
	case fl < 0 && wl >= 0:
		fl = wl
	case fl < 0:
		fl = n
	}
	if step < 1 || fl < 1 || fl > n {
		return 0, 0, false
	}
	return int(fl), int((n-fl)/step + 1), true
}

// Infer implements Rule.
func (a *STFTAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	out := c.OutDims(0, 4)
	for i := range out {
		out[i] = -1
	}
	out[3] = 2
	dims, ok := c.Dims(0)
	if !ok {
		return nil
	}
	if r := len(dims); r != 2 && r != 3 {
		return c.Errorf("signal of shape %v, want [batch][length][1 or 2]", dims)
	}
	if len(dims) == 3 && dims[2] >= 0 && dims[2] != 1 && dims[2] != 2 {
		return c.Errorf("signal of shape %v: the last dim must be 1 (real) or 2 (complex)", dims)
	}
	out[0] = dims[0]
	wl := int64(-1)
	if c.Has(2) {
		w, ok := c.Dims(2)
		if ok && len(w) != 1 {
			return c.Errorf("window of shape %v, want rank 1", w)
		}
		if !ok || w[0] < 0 {
			return nil
		}
		wl = int64(w[0])
	}
	fl := int64(-1)
	if c.Has(3) {
		v, known := c.Ints(3)
		if !known {
			return nil
		}
		if len(v) != 1 {
			return c.Errorf("frame_length must hold one value, got %d", len(v))
		}
		if fl = v[0]; fl < 1 || fl > int64(maxDimValue) {
			return c.Errorf("frame_length %d, want a positive length", fl)
		}
	}
	if fl >= 0 && wl >= 0 && fl != wl {
		return c.Errorf("frame_length %d and a window of %d values", fl, wl)
	}
	if l := max(fl, wl); l >= 0 {
		out[2] = int(l)
		if a.Onesided {
			out[2] = int(l/2 + 1)
		}
	}
	step, known := c.Ints(1)
	if !known || dims[1] < 0 {
		return nil
	}
	if len(step) != 1 {
		return c.Errorf("frame_step must hold one value, got %d", len(step))
	}
	if step[0] < 1 {
		return c.Errorf("frame_step %d, want at least 1", step[0])
	}
	frameLen, frames, ok := STFTFrames(int64(dims[1]), step[0], fl, wl)
	if !ok {
		return c.Errorf("frames longer than the signal of %d values", dims[1])
	}
	out[1] = frames
	out[2] = frameLen
	if a.Onesided {
		out[2] = frameLen/2 + 1
	}
	return nil
}
