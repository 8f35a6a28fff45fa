package quantize

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/errs"
)

// AddOutputs returns the model in data with the named values added to
// its graph outputs (after the existing ones, in the order given), so
// that a runtime returns them: the activations a calibration measures,
// or a quantized model's integer tensors to compare between runtimes.
// Each value's element type is the one the decoder infers; a name that
// is no value of the graph is refused with errs.ShapeMismatch, one that
// is already an output is skipped.
func AddOutputs(data []byte, names []string) ([]byte, error) {
	art, err := artifacts.FromBytes(data, "model")
	if err != nil {
		return nil, err
	}
	e, err := parseModel(data, art.Graph())
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		vi := art.Graph().Value(n)
		if vi == nil || vi.DType == 0 {
			return nil, errs.New(errs.ShapeMismatch, "quantize: %q is not a value of known type in the graph", n)
		}
		if e.outputs[n] {
			continue
		}
		e.outputs[n] = true
		e.extraOut = append(e.extraOut, valueInfo(n, int64(vi.DType)))
	}
	return e.encode(), nil
}
