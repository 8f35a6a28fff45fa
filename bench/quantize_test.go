//go:build ort && linux

package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
	"github.com/lintel-ml/lintel/quantize"
)

// TestQuantizedMLPVsORT times the batch-64 MLP as float32 and quantized
// by package quantize (dynamic, and static QDQ calibrated on four random
// batches) on one thread, in lintel and in ONNX Runtime (default graph
// optimisations), all six interleaved, and prints medians as a Markdown
// table with each output's largest difference from the float32 model's
// on lintel. Set BENCH_ROUNDS to change the rounds.
func TestQuantizedMLPVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	mlp := testmodels.MLP()
	shape := []int{64, 784}
	r := testmodels.Rand(11)
	var samples []quantize.Sample
	for range 4 {
		x := testmodels.Uniform(r, 64*784, 1)
		samples = append(samples, quantize.Sample{{Name: "x", DType: payload.Float32, Shape: shape, Data: payload.AsBytes(x)}})
	}
	dyn, _, err := quantize.Model(mlp, quantize.Options{})
	if err != nil {
		t.Fatalf("dynamic: %v", err)
	}
	stat, _, err := quantize.Model(mlp, quantize.Options{Mode: quantize.Static, Samples: samples})
	if err != nil {
		t.Fatalf("static: %v", err)
	}
	forms := []struct {
		name string
		onnx []byte
	}{{"float32", mlp}, {"dynamic int8", dyn}, {"static QDQ", stat}}
	var runners []func()
	var lint []*lintelRunner
	var orts []*ortRunner
	for _, f := range forms {
		c := benchCase{name: "mlp_b64 " + f.name, onnx: f.onnx, in: shape, batch: 64}
		l := loadLintel(t, c, 1)
		l.inferOne(t)
		o := loadORT(t, c, l.in.Data, l.out.Shape)
		o.run(t)
		lint, orts = append(lint, l), append(orts, o)
		runners = append(runners, func() { l.inferOne(t) }, func() { o.run(t) })
	}
	ts := interleave(runners, envInt("BENCH_ROUNDS", 21), 20*time.Millisecond)
	ref := lint[0].out.Data
	var rows [][]string
	for i, f := range forms {
		var dl, do float32
		for k, v := range ref {
			dl = max(dl, abs32(lint[i].out.Data[k]-v))
			do = max(do, abs32(orts[i].out.GetData()[k]-v))
		}
		rows = append(rows, []string{f.name, us(ts[2*i]), us(ts[2*i+1]),
			fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[2*i])), fmt.Sprintf("%.2f×", float64(ts[1])/float64(ts[2*i+1])),
			fmt.Sprintf("%.2g", dl), fmt.Sprintf("%.2g", do)})
	}
	t.Logf("lintel kernels: %s\n%s", kernelInfo(), table([]string{"MLP 784-512-512-10, batch 64, one thread", "lintel", "ONNX Runtime",
		"lintel speed-up over float32", "ORT speed-up over float32", "lintel max |diff| from float32", "ORT max |diff| from float32"}, rows))
}

// TestQuantizedModelsOptimizedORT quantizes the CNN and the PP-OCR
// classifier both ways and checks that ONNX Runtime with its default
// graph optimisations (which fuse QDQ patterns into integer ops) runs
// each and stays within 1e-3 of lintel on one input.
func TestQuantizedModelsOptimizedORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	for _, c := range []benchCase{
		{name: "cnn", onnx: testmodels.CNN(), in: []int{1, 3, 32, 32}},
		{name: "ppocr_cls", onnx: models.PPOCRClassifier, in: []int{1, 3, 48, 192}},
	} {
		x := testmodels.Uniform(testmodels.Rand(1), payload.NumElems(c.in), 1)
		s := quantize.Sample{{Name: "x", DType: payload.Float32, Shape: c.in, Data: payload.AsBytes(x)}}
		for _, mode := range []quantize.Mode{quantize.Dynamic, quantize.Static} {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				q, _, err := quantize.Model(c.onnx, quantize.Options{Mode: mode, Samples: []quantize.Sample{s}})
				if err != nil {
					t.Fatalf("quantize: %v", err)
				}
				qc := c
				qc.onnx = q
				l := loadLintel(t, qc, 1)
				l.inferOne(t)
				o := loadORT(t, qc, l.in.Data, l.out.Shape)
				o.run(t)
				var d float32
				for i, v := range o.out.GetData() {
					d = max(d, abs32(v-l.out.Data[i]))
				}
				if !(d <= 1e-3) {
					t.Errorf("max |lintel − ONNX Runtime| = %.3g, want ≤ 1e-3", d)
				}
			})
		}
	}
}
