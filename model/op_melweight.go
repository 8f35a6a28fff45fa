package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "MelWeightMatrix",
		Versions:   []Version{{Since: 17, MinIn: 5, MaxIn: 5, MaxOut: 1, Values: []int{0, 1}}},
		InputNames: []string{"num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz", "upper_edge_hertz"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			dt, err := outputDatatype(n)
			if err != nil {
				return nil, err
			}
			return &MelWeightMatrixAttrs{DType: dt}, nil
		},
	})
}

// MelWeightMatrixAttrs are a MelWeightMatrix node's attributes. The
// output is the [dft_length/2+1][num_mel_bins] matrix of triangular
// filters that maps a one-sided spectrum to num_mel_bins bands spaced
// evenly on the mel scale, mel(f) = 2595·log10(1 + f/700), between
// lower_edge_hertz and upper_edge_hertz for a signal sampled at
// sample_rate. Inputs 0 to 2 are integer scalars, 3 and 4 float ones.
type MelWeightMatrixAttrs struct {
	// DType is output_datatype (default float32).
	DType payload.DType
}

// Infer implements Rule.
func (a *MelWeightMatrixAttrs) Infer(c *InferCtx) error {
	c.SetType(0, a.DType)
	out := c.OutDims(0, 2)
	out[0], out[1] = -1, -1
	for i := range 5 {
		if r := c.Rank(i); r > 1 {
			return c.Errorf("input %d of rank %d, want a scalar", i, r)
		}
	}
	if v, ok := c.Ints(1); ok {
		if len(v) != 1 {
			return c.Errorf("dft_length must hold one value, got %d", len(v))
		}
		if v[0] < 1 || v[0] > int64(maxDimValue) {
			return c.Errorf("dft_length %d, want a positive length", v[0])
		}
		out[0] = int(v[0]/2 + 1)
	}
	if v, ok := c.Ints(0); ok {
		if len(v) != 1 {
			return c.Errorf("num_mel_bins must hold one value, got %d", len(v))
		}
		if v[0] < 1 || v[0] > int64(maxDimValue)-2 {
			return c.Errorf("num_mel_bins %d, want a positive count", v[0])
		}
		out[1] = int(v[0])
	}
	return nil
}
