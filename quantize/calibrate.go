package quantize

import (
	"math"
	"slices"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// histBins is the number of bins of the percentile method's histograms.
const histBins = 1 << 14

// calibrate runs the float model on lintel's CPU backend over the samples
// and returns the range of each activation in acts: the smallest and
// largest value seen (MinMax), or the percentiles of a histogram over
// that span built in a second pass (Percentile).
func calibrate(e0 *editor, data []byte, art *artifacts.Artifact, acts []string, o Options) (map[string][2]float32, error) {
	e, err := parseModel(data, art.Graph())
	if err != nil {
		return nil, err
	}
	var fetch []string
	for _, a := range acts {
		if !e.inputs[a] && !e.outputs[a] {
			e.extraOut = append(e.extraOut, valueInfo(a, int64(payload.Float32)))
		}
		fetch = append(fetch, a)
	}
	cal, err := artifacts.FromBytes(e.encode(), "calibration model")
	if err != nil {
		return nil, errs.Wrap(errs.ExecutionFailed, err, "quantize: building the calibration model")
	}
	threads := max(o.Threads, 1)
	m, err := cpu.New[payload.Multi, payload.Multi](compute.Options{Threads: threads}).LoadModel(cal)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(cal.Graph().Inputs))
	for _, in := range cal.Graph().Inputs {
		names = append(names, in.Name)
	}
	// visit runs every sample and calls f with each activation's values.
	visit := func(f func(i int, v []float32)) error {
		var out payload.Multi
		for si, s := range o.Samples {
			for _, n := range names {
				if !slices.ContainsFunc(s, func(d payload.Dynamic) bool { return d.Name == n }) {
					return errs.New(errs.ShapeMismatch, "quantize: calibration sample %d has no input %q", si, n)
				}
			}
			in := payload.Multi{Tensors: s}
			if err := m.InferOne(&in, &out); err != nil {
				return errs.Wrap(errs.ExecutionFailed, err, "quantize: calibration sample %d", si)
			}
			for i, a := range fetch {
				var d *payload.Dynamic
				for k := range out.Tensors {
					if out.Tensors[k].Name == a {
						d = &out.Tensors[k]
					}
				}
				if d == nil {
					for k := range s {
						if s[k].Name == a {
							d = &s[k]
						}
					}
				}
				if d == nil || d.DType != payload.Float32 {
					return errs.New(errs.ExecutionFailed, "quantize: activation %q was not produced as float32", a)
				}
				f(i, floats(d.Data))
			}
		}
		return nil
	}
	lo := make([]float32, len(fetch))
	hi := make([]float32, len(fetch))
	for i := range lo {
		lo[i], hi[i] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	if err := visit(func(i int, v []float32) {
		for _, x := range v {
			if x < lo[i] {
				lo[i] = x
			}
			if x > hi[i] {
				hi[i] = x
			}
		}
	}); err != nil {
		return nil, err
	}
	if o.Method == Percentile {
		hists := make([][]int64, len(fetch))
		for i := range hists {
			hists[i] = make([]int64, histBins)
		}
		if err := visit(func(i int, v []float32) {
			for _, x := range v {
				if b := bin(x, lo[i], hi[i]); b >= 0 {
					hists[i][b]++
				}
			}
		}); err != nil {
			return nil, err
		}
		for i, h := range hists {
			lo[i], hi[i] = percentiles(h, lo[i], hi[i], o.Percentile)
		}
	}
	r := make(map[string][2]float32, len(fetch))
	for i, a := range fetch {
		if lo[i] > hi[i] { // nothing seen
			lo[i], hi[i] = 0, 0
		}
		r[a] = [2]float32{lo[i], hi[i]}
	}
	return r, nil
}

// bin returns x's bin in a histogram of histBins over [lo, hi], or -1 for
// NaN.
func bin(x, lo, hi float32) int {
	if x != x {
		return -1
	}
	if !(hi > lo) {
		return 0
	}
	b := int(float64(x-lo) / float64(hi-lo) * histBins)
	return min(max(b, 0), histBins-1)
}

// percentiles returns the values below which (100−p)% and p% of the
// histogram's counts lie: the lower edge of the bin where the low tail
// ends and the upper edge of the bin where the high tail starts.
func percentiles(h []int64, lo, hi float32, p float64) (float32, float32) {
	var total int64
	for _, c := range h {
		total += c
	}
	if total == 0 || !(hi > lo) {
		return lo, hi
	}
	tail := int64(math.Floor(float64(total) * (100 - p) / 100))
	width := float64(hi-lo) / histBins
	var acc int64
	first := 0
	for i, c := range h {
		if acc+c > tail {
			first = i
			break
		}
		acc += c
	}
	acc = 0
	last := len(h) - 1
	for i := len(h) - 1; i >= 0; i-- {
		if acc+h[i] > tail {
			last = i
			break
		}
		acc += h[i]
	}
	return lo + float32(float64(first)*width), lo + float32(float64(last+1)*width)
}
