package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// melWeightKernel runs MelWeightMatrix (model.MelWeightMatrixAttrs) as
// ONNX's reference and ONNX Runtime compute it, in float64: num_mel_bins
// + 2 points spaced evenly on the mel scale from lower_edge_hertz to
// upper_edge_hertz (the step divides the range by num_mel_bins + 2, as
// both do), each mapped back to hertz and to the spectrum bin
// floor((dft_length+1)·hz/sample_rate); filter i rises linearly from 0
// at point i to 1 at point i+1 and falls back to 0 at point i+2. A point
// outside the spectrum's bins is an error, as in ONNX Runtime.
type melWeightKernel struct {
	n    *model.Node
	ys   []float64
	pts  []int
	ibuf []int64
	fbuf []float64
}

func (k *melWeightKernel) run(in, out []*tensor) error {
	for i := 2; i < 5; i++ {
		if in[i].numel() != 1 {
			return shapeErr(k.n, "input %d holds %d values, want one", i, in[i].numel())
		}
	}
	nmel := int(scalarInt(in[0], &k.ibuf))
	dftLen := scalarInt(in[1], &k.ibuf)
	rate := scalarInt(in[2], &k.ibuf)
	lo := floatValues(in[3], &k.fbuf)[0]
	hi := floatValues(in[4], &k.fbuf)[0]
	if rate <= 0 {
		return shapeErr(k.n, "sample_rate %d, want a positive rate", rate)
	}
	y := out[0]
	nspec := y.shape[0]
	ys := growF64(&k.ys, y.numel())
	clear(ys)
	pts := growInts(&k.pts, nmel+2)
	loMel := 2595 * math.Log10(1+lo/700)
	hiMel := 2595 * math.Log10(1+hi/700)
	step := (hiMel - loMel) / float64(nmel+2)
	for i := range pts {
		hz := 700 * (math.Pow(10, (loMel+step*float64(i))/2595) - 1)
		b := math.Floor(float64(dftLen+1) * hz / float64(rate))
		if !(b >= 0 && b < float64(nspec)) {
			return shapeErr(k.n, "lower_edge_hertz %v and upper_edge_hertz %v at sample_rate %d put a filter outside the %d bins of a %d-point DFT", lo, hi, rate, nspec, dftLen)
		}
		pts[i] = int(b)
	}
	for i := range nmel {
		left, center, right := pts[i], pts[i+1], pts[i+2]
		if up := center - left; up == 0 {
			ys[center*nmel+i] = 1
		} else {
			for j := left; j <= center; j++ {
				ys[j*nmel+i] = float64(j-left) / float64(up)
			}
		}
		if down := right - center; down > 0 {
			for j := center; j < right; j++ {
				ys[j*nmel+i] = float64(right-j) / float64(down)
			}
		}
	}
	castFrom(y, ys)
	return nil
}

func init() {
	register("MelWeightMatrix", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.MelWeightMatrixAttrs)
		for i := range 3 {
			if t := c.inType(i); t != payload.Int32 && t != payload.Int64 {
				return nil, c.invalid("input %d of type %s, want int32 or int64", i, t)
			}
		}
		for i := 3; i < 5; i++ {
			if t := c.inType(i); !t.IsFloat() {
				return nil, c.invalid("input %d of type %s, want a float type", i, t)
			}
		}
		if !castable(a.DType) {
			return nil, c.unsupported("output_datatype %s", a.DType)
		}
		return &melWeightKernel{n: c.n}, nil
	})
}
