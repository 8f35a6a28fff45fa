//go:build ort

package ortcheck

import (
	"fmt"
	"math"
	"testing"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// qdqModel is one generated QDQ model and what its outputs may differ by.
type qdqModel struct {
	name  string
	model []byte
	x     []int // the input's shape
	// yScale is the scale of the float output y: it may differ from ONNX
	// Runtime's by at most one step of it.
	yScale float64
	// off1 names the 8-bit outputs that may differ by one step, where
	// ONNX Runtime's own kernels do.
	off1 map[string]bool
}

// TestQDQModels compares the generated QDQ models (testmodels.QDQCNN,
// QDQMLP), every activation's 8-bit value an output, with ONNX Runtime
// with its graph optimizations on, as it runs them by default: its QDQ
// transformer fuses the node units into integer kernels as FuseQDQ does.
// The 8-bit outputs of the fused units must be equal; the float output
// within one step of its quantization.
func TestQDQModels(t *testing.T) {
	// With int8 activations ONNX Runtime runs QLinearConv on its
	// symmetric int8 convolution kernels (MLAS ConvSym), whose results
	// differ from the exact ones (lintel's, checked against the widened
	// reference in backends/cpu) by one step on about one value in 10⁵:
	// every output from the first convolution on may differ by one.
	s8Off := map[string]bool{}
	for _, v := range []string{"r1d_q", "r2d_q", "p2d_q", "c3d_q", "a3d_q", "r4d_q", "g4d_q", "f4d_q", "y_q"} {
		s8Off[v] = true
	}
	models := []qdqModel{
		{name: "cnn_u8", model: testmodels.QDQCNN(payload.Uint8, true), x: []int{2, 3, 64, 64}, yScale: 2.0 / 255},
		{name: "cnn_s8", model: testmodels.QDQCNN(payload.Int8, true), x: []int{2, 3, 64, 64}, yScale: 2.0 / 255, off1: s8Off},
		{name: "mlp_u8", model: testmodels.QDQMLP(payload.Uint8, false, true), x: []int{3, 256}, yScale: 1.0 / 255},
		{name: "mlp_u8_per_channel", model: testmodels.QDQMLP(payload.Uint8, true, true), x: []int{3, 256}, yScale: 1.0 / 255},
		{name: "mlp_s8_per_channel", model: testmodels.QDQMLP(payload.Int8, true, true), x: []int{3, 256}, yScale: 1.0 / 255},
	}
	for _, c := range models {
		t.Run(c.name, func(t *testing.T) {
			r := caseRand(t, c.name)
			n := 1
			for _, d := range c.x {
				n *= d
			}
			xs := make([]float32, n)
			for i := range xs {
				xs[i] = r.Float32()*2 - 1
			}
			feeds := []payload.Dynamic{{Name: "x", DType: payload.Float32, Shape: c.x, Data: payload.AsBytes(xs)}}
			ref, err := ortRunAt(c.model, feeds, ort.GraphOptimizationLevelEnableAll)
			if err != nil {
				t.Fatalf("reference runtime: %v", err)
			}
			m, err := loadLintel(c.model, c.name)
			if err != nil {
				t.Fatalf("lintel: %v", err)
			}
			defer m.close()
			got, err := m.infer(feeds)
			if err != nil {
				t.Fatalf("lintel: %v", err)
			}
			if len(got) != len(ref) {
				t.Fatalf("lintel returned %d outputs, reference %d", len(got), len(ref))
			}
			for i, w := range ref {
				g := got[i]
				if g.name != w.name || g.dtype != w.dtype || !sameShape(g.shape, w.shape) {
					t.Fatalf("output %q %s %v, reference %q %s %v", g.name, g.dtype, g.shape, w.name, w.dtype, w.shape)
				}
				if w.dtype.IsFloat() {
					worst := 0.0
					for k := range w.f {
						worst = math.Max(worst, math.Abs(g.f[k]-w.f[k]))
					}
					t.Logf("%s: largest difference %.3g (%.2f steps)", w.name, worst, worst/c.yScale)
					if worst > c.yScale*1.0001 {
						t.Errorf("%s: largest difference %.3g, more than one step %.3g", w.name, worst, c.yScale)
					}
					continue
				}
				bad, worst := 0, int64(0)
				for k := range w.i {
					if d := g.i[k] - w.i[k]; d != 0 {
						bad++
						worst = max(worst, d, -d)
					}
				}
				lo, hi := w.i[0], w.i[0]
				for _, v := range w.i {
					lo, hi = min(lo, v), max(hi, v)
				}
				sat := 0
				for _, v := range w.i {
					if v == lo || v == hi {
						sat++
					}
				}
				msg := fmt.Sprintf("%s in [%d, %d] (%d of %d at an end): %d differ, by at most %d", w.name, lo, hi, sat, len(w.i), bad, worst)
				t.Log(msg)
				if worst > 1 || (worst > 0 && !c.off1[w.name]) {
					t.Error(msg)
				}
			}
		})
	}
}
