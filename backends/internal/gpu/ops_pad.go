package gpu

func init() {
	register(buildPad, "Pad")
}

// padModes maps Pad's mode attribute to the kernel's codes.
var padModes = map[string]uint32{"constant": PConstant, "reflect": PReflect, "edge": PEdge, "wrap": PWrap}

// buildPad lowers Pad (float32, every mode) to one pad_f32 launch. Pads,
// the constant value and axes must be constants once the input shapes are
// known; negative pads crop.
func buildPad(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	if err := c.rankOK(x, y); err != nil {
		return err
	}
	mode, err := c.n.String("mode", "constant")
	if err != nil {
		return err
	}
	code, ok := padModes[mode]
	if !ok || (mode == "wrap" && c.opset < 19) {
		return c.unsupported("mode %q", mode)
	}
	r := len(x.shape)
	var pads []int64
	var value float32
	if c.opset < 11 {
		if pads, err = c.n.Ints("pads", nil); err != nil {
			return err
		}
		if value, err = c.n.Float("value", 0); err != nil {
			return err
		}
	} else {
		if pads, err = c.constInts(1); err != nil {
			return err
		}
		v, _, err := c.constFloat(2)
		if err != nil {
			return err
		}
		value = v
	}
	before := make([]int, r)
	axes := make([]int, 0, r)
	if len(c.in) > 3 && c.in[3] != nil {
		as, err := c.constInts(3)
		if err != nil {
			return err
		}
		for _, a := range as {
			d, err := c.axisOf(a, r)
			if err != nil {
				return err
			}
			axes = append(axes, d)
		}
	} else {
		for d := range r {
			axes = append(axes, d)
		}
	}
	if len(pads) != 2*len(axes) {
		return c.invalid("%d pads for %d axes", len(pads), len(axes))
	}
	for i, d := range axes {
		before[d] = int(pads[i])
		if want := x.shape[d] + int(pads[i]) + int(pads[i+len(axes)]); want != y.shape[d] {
			return c.invalid("pads %v give dim %d of %d, the output has %d", pads, d, want, y.shape[d])
		}
		if code != PConstant && x.shape[d] == 0 && y.shape[d] > 0 {
			return c.invalid("cannot pad an empty dim %d in mode %s", d, mode)
		}
	}
	if y.numel() == 0 {
		return nil
	}
	pa := PadArgs{N: u32(y.numel()), Rank: u32(r), Mode: code, Value: value}
	fill(pa.OShape[:], y.shape)
	fill(pa.IShape[:], x.shape)
	fill(pa.Before[:], before)
	c.emit1D(KPad, Pack(nil, &pa), y.numel(), x, y)
	return nil
}
