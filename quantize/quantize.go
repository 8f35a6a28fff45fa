package quantize

import (
	"fmt"
	"slices"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Mode says which form a quantized model takes.
type Mode uint8

// The modes.
const (
	// Dynamic quantizes weights ahead of time and activations as the
	// model runs (DynamicQuantizeLinear, MatMulInteger/ConvInteger).
	Dynamic Mode = iota
	// Static quantizes weights and, with ranges measured on calibration
	// samples, activations: QuantizeLinear/DequantizeLinear pairs (QDQ).
	Static
)

// String returns "dynamic" or "static".
func (m Mode) String() string {
	if m == Static {
		return "static"
	}
	return "dynamic"
}

// Method is how static quantization turns calibration values into an
// activation's range.
type Method uint8

// The methods.
const (
	// MinMax takes the smallest and largest value seen.
	MinMax Method = iota
	// Percentile drops the tails: the range runs from the
	// (100−p)th to the pth percentile of the values seen (Options.Percentile).
	Percentile
)

// String returns "minmax" or "percentile".
func (m Method) String() string {
	if m == Percentile {
		return "percentile"
	}
	return "minmax"
}

// Sample is one set of calibration inputs, one tensor per model input,
// matched by Name.
type Sample []payload.Dynamic

// Options configure Model.
type Options struct {
	Mode Mode
	// Ops lists the op types to quantize; nil means MatMul, Gemm and
	// Conv.
	Ops []string
	// Exclude names nodes to leave in float32.
	Exclude []string
	// Samples are the calibration inputs of static mode (at least one).
	Samples []Sample
	// Method and Percentile choose how activation ranges are taken from
	// the calibration values; Percentile 0 means 99.99.
	Method     Method
	Percentile float64
	// Threads is how many threads the calibration runs may use; 0 means 1.
	Threads int
}

// DefaultOps are the op types quantized when Options.Ops is nil.
var DefaultOps = []string{"MatMul", "Gemm", "Conv"}

// Report says what Model did.
type Report struct {
	// Quantized lists the quantized nodes (name, or op and output).
	Quantized []string
	// Skipped lists nodes of a quantizable type left in float32, each
	// with the reason.
	Skipped []string
	// OpsetFrom and OpsetTo are the default-domain opset before and
	// after; they differ when the ops emitted needed a newer one.
	OpsetFrom, OpsetTo int64
	// Ranges holds each calibrated activation's range (static mode).
	Ranges map[string][2]float32
}

// Model returns a quantized copy of the ONNX model in data, and a report.
// Everything it does not quantize is kept as the file has it: opset
// imports (the default domain raised to 11 for dynamic, 13 for static
// mode when older, converting the nodes whose form changed), other
// initializers, value_info, metadata and docs. Models whose tensors use
// external data are refused (errs.Unsupported), as are malformed ones
// (errs.InvalidArtifact). The result is checked by decoding it again.
func Model(data []byte, o Options) ([]byte, *Report, error) {
	if o.Mode != Dynamic && o.Mode != Static {
		return nil, nil, errs.New(errs.Unsupported, "quantize: unknown mode %d", o.Mode)
	}
	if o.Percentile == 0 {
		o.Percentile = 99.99
	}
	if o.Method == Percentile && !(o.Percentile > 50 && o.Percentile <= 100) {
		return nil, nil, errs.New(errs.Unsupported, "quantize: percentile %v is not in (50, 100]", o.Percentile)
	}
	if o.Mode == Static && len(o.Samples) == 0 {
		return nil, nil, errs.New(errs.Unsupported, "quantize: static mode needs calibration samples")
	}
	// The file is split first, so that external data is refused with its
	// own message before the decoder looks for the files.
	e, err := parseModel(data, nil)
	if err != nil {
		return nil, nil, err
	}
	art, err := artifacts.FromBytes(data, "model")
	if err != nil {
		return nil, nil, err
	}
	e.setGraph(art.Graph())
	rep := &Report{OpsetFrom: e.opset, OpsetTo: e.opset}
	ops := o.Ops
	if ops == nil {
		ops = DefaultOps
	}
	cands := e.candidates(ops, o.Exclude, o.Mode, rep)
	if len(cands) == 0 {
		return nil, rep, errs.New(errs.Unsupported, "quantize: no node to quantize (%d skipped)", len(rep.Skipped))
	}
	var ranges map[string][2]float32
	if o.Mode == Static {
		e.planOutputs(cands)
		acts := map[string]bool{}
		for _, c := range cands {
			acts[c.x] = true
			acts[c.out] = true
		}
		ranges, err = calibrate(e, data, art, sortedSet(acts), o)
		if err != nil {
			return nil, rep, err
		}
		rep.Ranges = ranges
	}
	need := int64(11)
	if o.Mode == Static {
		need = 13
	}
	if e.opset < need {
		if err := e.raiseOpset(need); err != nil {
			return nil, rep, err
		}
		rep.OpsetTo = need
	}
	if o.Mode == Dynamic {
		err = e.dynamic(cands)
	} else {
		err = e.static(cands, ranges)
	}
	if err != nil {
		return nil, rep, err
	}
	for _, c := range cands {
		rep.Quantized = append(rep.Quantized, c.label())
	}
	e.sweep()
	out := e.encode()
	if _, err := artifacts.FromBytes(out, "quantized model"); err != nil {
		return nil, rep, errs.Wrap(errs.ExecutionFailed, err, "quantize: the quantized model does not decode")
	}
	return out, rep, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// cand is a node to quantize: the node, its activation input x, its
// weight w (float32 values with shape), the weight's channel axis, and
// its bias.
type cand struct {
	n      *node
	x      string
	w      *model.Tensor
	wName  string
	axis   int
	bias   *model.Tensor
	bName  string
	transB bool
	// Static mode: add is the Add of a MatMul's bias that the MatMul
	// becomes a Gemm with, act the Relu or Clip after the op, and out
	// the tensor whose QuantizeLinear ends the unit.
	add, act *node
	out      string
}

func (c *cand) label() string {
	if c.n.name != "" {
		return c.n.name
	}
	return c.n.op + "->" + c.n.outputs[0]
}

// candidates picks the nodes to quantize and records why the others of a
// quantizable type are not.
func (e *editor) candidates(ops, exclude []string, mode Mode, rep *Report) []*cand {
	var out []*cand
	for _, n := range e.nodes {
		if n.dom != "" || !slices.Contains(ops, n.op) {
			continue
		}
		c, why := e.candidate(n, mode)
		if why == "" && slices.Contains(exclude, n.name) {
			why = "excluded"
		}
		if why != "" {
			lbl := n.name
			if lbl == "" && len(n.outputs) > 0 {
				lbl = n.op + "->" + n.outputs[0]
			}
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: %s", lbl, why))
			continue
		}
		out = append(out, c)
	}
	return out
}

func (e *editor) candidate(n *node, mode Mode) (*cand, string) {
	if len(n.outputs) != 1 || len(n.inputs) < 2 {
		return nil, "not one output and two inputs"
	}
	c := &cand{n: n, x: n.inputs[0], wName: n.inputs[1]}
	if vi := e.g.Value(c.x); vi == nil || vi.DType != payload.Float32 {
		return nil, "input is not known to be float32"
	}
	if e.isConst(c.x) {
		return nil, "input is a constant"
	}
	w, why := e.constFloat(c.wName)
	if why != "" {
		return nil, "weight " + why
	}
	c.w = w
	switch n.op {
	case "MatMul":
		if len(w.Shape) != 2 {
			return nil, "weight is not 2-D"
		}
		c.axis = 1
	case "Gemm":
		if len(w.Shape) != 2 {
			return nil, "weight is not 2-D"
		}
		if n.attrInt("transA", 0) != 0 && mode == Dynamic {
			return nil, "transA is set"
		}
		c.transB = n.attrInt("transB", 0) != 0
		c.axis = 1
		if c.transB {
			c.axis = 0
		}
		// Dynamic mode adds C in float32 (times beta); static mode
		// quantizes it when it is a 1-D constant over the outputs.
		if cName := n.input(2); cName != "" {
			c.bName = cName
			if b, why := e.constFloat(cName); why == "" && len(b.Shape) == 1 && b.Shape[0] == w.Shape[c.axis] {
				c.bias = b
			}
		}
	case "Conv":
		if len(w.Shape) < 3 {
			return nil, "weight has rank below 3"
		}
		c.axis = 0
		if len(n.inputs) > 2 && n.inputs[2] != "" {
			b, why := e.constFloat(n.inputs[2])
			if why != "" || len(b.Shape) != 1 || b.Shape[0] != w.Shape[0] {
				return nil, "bias is not a 1-D float32 constant of the output channels"
			}
			c.bias, c.bName = b, n.inputs[2]
		}
	default:
		return nil, "op not handled"
	}
	return c, ""
}
