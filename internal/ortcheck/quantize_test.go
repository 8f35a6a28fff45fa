//go:build ort

package ortcheck

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
	"github.com/lintel-ml/lintel/quantize"
)

// quantizerCases are the models quantized both ways: an input shape, how
// to fill an input, and how closely lintel must follow ONNX Runtime on
// the quantized model.
var quantizerCases = []struct {
	name  string
	model []byte
	shape []int
	input func(r *rand.Rand, shape []int) []byte
	// exact: every quantized activation is within one step and at least
	// 99.9% of them equal (lintel's float products and MLAS's sum in
	// different orders, and a value within a rounding of a step's
	// midpoint lands on either side now and then: about one activation
	// in 10^5 on the MLP), and every integer product reading equal
	// activations is equal. Otherwise (deep models, where float ops
	// between the quantized ones round differently now and then and a
	// flipped step propagates) at least within1 of the quantized
	// activations' elements are within one step (by mode; none is
	// required in dynamic mode, which takes each range from the values:
	// one flipped value moves a whole tensor's scale, and on the PP-OCR
	// classifier 75% to 100% of the activations were within one step
	// over 60 draws), and the outputs are probabilities within probTol
	// (by mode) with the same argmax where ONNX Runtime's margin between
	// the top two exceeds twice that.
	exact   bool
	within1 [2]float64
	probTol [2]float64
}{
	{name: "mlp", model: testmodels.MLP(), shape: []int{8, 784}, input: uniformInput, exact: true},
	{name: "cnn", model: testmodels.CNN(), shape: []int{2, 3, 32, 32}, input: uniformInput, exact: true},
	{name: "ppocr_cls", model: models.PPOCRClassifier, shape: []int{4, 3, 48, 192}, input: textPage, within1: [2]float64{0, 0.98}, probTol: [2]float64{0.15, 0.06}},
}

func uniformInput(r *rand.Rand, shape []int) []byte {
	return fill(r, payload.Float32, payload.NumElems(shape), -1, 1, false)
}

// TestQuantizedModels quantizes each model dynamically and statically,
// checks that ONNX Runtime loads and runs the result, and compares
// lintel's outputs with ONNX Runtime's on it, with the model's integer
// tensors (DynamicQuantizeLinear's and QuantizeLinear's uint8 outputs,
// MatMulInteger's and ConvInteger's int32 ones) as extra outputs: an
// integer product must be exactly equal wherever the quantized
// activation it reads is; the rest as quantizerCases says. Float outputs
// of the exact cases are within three steps of their range over 255.
func TestQuantizedModels(t *testing.T) {
	for _, c := range quantizerCases {
		for _, mode := range []quantize.Mode{quantize.Dynamic, quantize.Static} {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				r := caseRand(t, c.name)
				feed := func() []payload.Dynamic {
					return []payload.Dynamic{{Name: "x", DType: payload.Float32, Shape: append([]int{}, c.shape...), Data: c.input(r, c.shape)}}
				}
				o := quantize.Options{Mode: mode}
				if mode == quantize.Static {
					for range 8 {
						o.Samples = append(o.Samples, quantize.Sample(feed()))
					}
				}
				q, rep, err := quantize.Model(c.model, o)
				if err != nil {
					t.Fatalf("quantize: %v", err)
				}
				if mode == quantize.Static {
					// Like with like: ONNX Runtime's unoptimized run
					// computes the QDQ model's float ops between DQ and
					// Q, and so does lintel without the QDQ fusion. The
					// fused run (integer kernels) is compared with ONNX
					// Runtime's optimized one in TestQDQModels.
					t.Setenv("LINTEL_QDQ_FUSION", "0")
				}
				s := checkQuantized(t, q, [][]payload.Dynamic{feed(), feed()}, 2*c.probTol[mode])
				t.Logf("%d nodes quantized (opset %d → %d); quantized activations: %s exact, %s within one step, max diff %d; "+
					"integer products: %s exact; outputs: max diff %.3g (%.2f steps)",
					len(rep.Quantized), rep.OpsetFrom, rep.OpsetTo, pct(s.actExact, s.actN), pct(s.act1, s.actN), s.actMax,
					pct(s.prodExact, s.prodN), s.outDiff, s.outSteps)
				if s.prodBad > 0 {
					t.Errorf("%d integer products differ from ONNX Runtime's though the activations they read are equal", s.prodBad)
				}
				if c.exact {
					if s.act1 != s.actN || float64(s.actExact) < 0.999*float64(s.actN) {
						t.Errorf("quantized activations: %d of %d equal and %d within one step, want all within one step and 99.9%% equal", s.actExact, s.actN, s.act1)
					}
					if !(s.outSteps <= 3) {
						t.Errorf("outputs differ by %.2f steps, want ≤ 3", s.outSteps)
					}
					return
				}
				if f := float64(s.act1) / float64(s.actN); !(f >= c.within1[mode]) {
					t.Errorf("%.4f of the quantized activations within one step, want ≥ %g", f, c.within1[mode])
				}
				if !(s.outDiff <= c.probTol[mode]) {
					t.Errorf("probabilities differ by %.3g, want ≤ %g", s.outDiff, c.probTol[mode])
				}
				if s.argmaxDiff > 0 {
					t.Errorf("%d rows' top-1 differ from ONNX Runtime's", s.argmaxDiff)
				}
			})
		}
	}
}

// quantStats are the differences between lintel and ONNX Runtime on a
// quantized model.
type quantStats struct {
	actN, actExact, act1, actMax int
	prodN, prodExact, prodBad    int
	outDiff, outSteps            float64
	argmaxDiff                   int
}

// checkQuantized runs the quantized model q with its integer tensors as
// extra outputs on both runtimes over each set of feeds and measures how
// they differ; top-1 is compared in rows where ONNX Runtime's margin
// between the top two exceeds margin.
func checkQuantized(t *testing.T, q []byte, draws [][]payload.Dynamic, margin float64) quantStats {
	t.Helper()
	art, err := artifacts.FromBytes(q, "quantized")
	if err != nil {
		t.Fatalf("decoding the quantized model: %v", err)
	}
	g := art.Graph()
	nOut := len(g.Outputs)
	var extra []string
	// quantOf maps an integer product's output to the quantized
	// activation it reads.
	quantOf := map[string]string{}
	for _, n := range g.Nodes {
		switch n.OpType {
		case "DynamicQuantizeLinear", "QuantizeLinear":
			extra = append(extra, n.Outputs[0])
		case "MatMulInteger", "ConvInteger":
			extra = append(extra, n.Outputs[0])
			quantOf[n.Outputs[0]] = n.Inputs[0]
		}
	}
	inst, err := quantize.AddOutputs(q, extra)
	if err != nil {
		t.Fatalf("AddOutputs: %v", err)
	}
	lm, err := loadLintel(inst, "quantized")
	if err != nil {
		t.Fatalf("lintel: %v", err)
	}
	defer lm.close()
	var s quantStats
	for _, feeds := range draws {
		want, err := ortRun(inst, feeds)
		if err != nil {
			t.Fatalf("ONNX Runtime: %v", err)
		}
		got, err := lm.infer(feeds)
		if err != nil {
			t.Fatalf("lintel: %v", err)
		}
		if len(got) != len(want) {
			t.Fatalf("lintel gave %d outputs, ONNX Runtime %d", len(got), len(want))
		}
		same := map[string]bool{}
		for i := nOut; i < len(want); i++ {
			w, gv := want[i].i, got[i].i
			if len(w) != len(gv) {
				t.Fatalf("%s: %d elements, ONNX Runtime %d", want[i].name, len(gv), len(w))
			}
			exact := true
			for k := range w {
				d := int(math.Abs(float64(gv[k] - w[k])))
				exact = exact && d == 0
				if want[i].dtype == payload.Uint8 {
					s.actN++
					if d == 0 {
						s.actExact++
					}
					if d <= 1 {
						s.act1++
					}
					s.actMax = max(s.actMax, d)
				} else {
					s.prodN++
					if d == 0 {
						s.prodExact++
					}
				}
			}
			same[want[i].name] = exact
			if in, ok := quantOf[want[i].name]; ok && same[in] && !exact {
				s.prodBad++
			}
		}
		for i := range nOut {
			w, gv := want[i].f, got[i].f
			lo, hi := math.Inf(1), math.Inf(-1)
			var d float64
			for k := range w {
				lo, hi = min(lo, w[k]), max(hi, w[k])
				d = max(d, math.Abs(gv[k]-w[k]))
			}
			s.outDiff = max(s.outDiff, d)
			if step := (hi - lo) / 255; step > 0 {
				s.outSteps = max(s.outSteps, d/step)
			}
			if cols := want[i].shape[len(want[i].shape)-1]; cols > 1 {
				for row := 0; row+cols <= len(w); row += cols {
					if argmax(w[row:row+cols]) != argmax(gv[row:row+cols]) && topMargin(w[row:row+cols]) > margin {
						s.argmaxDiff++
					}
				}
			}
		}
	}
	return s
}

func argmax(v []float64) int {
	k := 0
	for i, x := range v {
		if x > v[k] {
			k = i
		}
	}
	return k
}

// topMargin returns the difference between the two largest of v.
func topMargin(v []float64) float64 {
	a, b := math.Inf(-1), math.Inf(-1)
	for _, x := range v {
		if x > a {
			a, b = x, a
		} else if x > b {
			b = x
		}
	}
	return a - b
}

func pct(a, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d (%.3f%%)", a, n, 100*float64(a)/float64(n))
}
