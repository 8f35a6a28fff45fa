package model

import "github.com/lintel-ml/lintel/payload"

// SignalWindowKind is the window a window op generates.
type SignalWindowKind uint8

// The window ops' windows, sums of cosines (see SignalWindowAttrs).
const (
	// HannWindow is 0.5 − 0.5·cos(2πn/N).
	HannWindow SignalWindowKind = iota
	// HammingWindow is 25/46 − 21/46·cos(2πn/N).
	HammingWindow
	// BlackmanWindow is 0.42 − 0.5·cos(2πn/N) + 0.08·cos(4πn/N).
	BlackmanWindow
)

func init() {
	for _, w := range []struct {
		op   string
		kind SignalWindowKind
	}{{"HannWindow", HannWindow}, {"HammingWindow", HammingWindow}, {"BlackmanWindow", BlackmanWindow}} {
		RegisterOp(&Op{
			Type:       w.op,
			Versions:   []Version{{Since: 17, MinIn: 1, MaxIn: 1, MaxOut: 1, Values: []int{0}}},
			InputNames: []string{"size"},
			Bind: func(n *Node, opset int64) (Rule, error) {
				a := &SignalWindowAttrs{Kind: w.kind}
				var err error
				if a.Periodic, err = signalFlag(n, "periodic", true); err != nil {
					return nil, err
				}
				if a.DType, err = outputDatatype(n); err != nil {
					return nil, err
				}
				return a, nil
			},
		})
	}
}

// outputDatatype reads the output_datatype attribute of the window ops
// and MelWeightMatrix: a numeric element type, float32 by default.
func outputDatatype(n *Node) (payload.DType, error) {
	v, err := n.Int("output_datatype", int64(payload.Float32))
	if err != nil {
		return 0, err
	}
	dt := payload.DType(v)
	if v < 1 || v > int64(payload.BF16) || !dt.Valid() || dt == payload.Bool || dt == payload.Complex64 || dt == payload.Complex128 {
		return 0, attrErr(n, "output_datatype %d is not a numeric element type", v)
	}
	return dt, nil
}

// SignalWindowAttrs are the attributes of HannWindow, HammingWindow and
// BlackmanWindow. The output is the 1-D window of size values (input 0,
// a scalar): w[n] = a0 − a1·cos(2πn/N) + a2·cos(4πn/N) for n < size,
// with N = size when Periodic, size−1 when not (symmetric), and the
// coefficients of Kind, converted to DType.
type SignalWindowAttrs struct {
	Kind SignalWindowKind
	// Periodic is periodic (default 1).
	Periodic bool
	// DType is output_datatype (default float32).
	DType payload.DType
}

// Infer implements Rule.
func (a *SignalWindowAttrs) Infer(c *InferCtx) error {
	c.SetType(0, a.DType)
	out := c.OutDims(0, 1)
	out[0] = -1
	if r := c.Rank(0); r > 1 {
		return c.Errorf("size of rank %d, want a scalar", r)
	}
	v, ok := c.Ints(0)
	if !ok {
		return nil
	}
	if len(v) != 1 {
		return c.Errorf("size must hold one value, got %d", len(v))
	}
	n, err := c.Dim(v[0], "size")
	if err != nil {
		return err
	}
	out[0] = n
	return nil
}
