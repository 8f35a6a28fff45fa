package textimg

import (
	"errors"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{R: uint8(10 * x), G: uint8(20 * y), B: uint8(x + y), A: 255})
		}
	}
	return img
}

func TestRotate180(t *testing.T) {
	img := gradient(5, 3)
	r := Rotate180(img)
	for y := 0; y < 3; y++ {
		for x := 0; x < 5; x++ {
			if got, want := r.RGBAAt(x, y), img.RGBAAt(4-x, 2-y); got != want {
				t.Fatalf("(%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
	back := Rotate180(r)
	for i := range img.Pix {
		if back.Pix[i] != img.Pix[i] {
			t.Fatal("rotating twice does not give the original")
		}
	}
}

func TestResizeBilinear(t *testing.T) {
	img := gradient(4, 2)
	cases := []struct {
		name string
		w, h int
		// check returns the expected red value at (x, y).
		x, y int
		r    float32
	}{
		// Same size: exact copy.
		{"identity", 4, 2, 3, 1, 30},
		// Upscaling 2x along x: output x=1 maps to source 0.25.
		{"up", 8, 2, 1, 0, 2.5},
		// Clamped at the left edge.
		{"edge", 8, 2, 0, 0, 0},
		// Downscaling 2x along x: output x=0 maps to source 0.5.
		{"down", 2, 2, 0, 0, 5},
		// Clamped at the right edge.
		{"right", 8, 2, 7, 0, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := ResizeBilinear(img, c.w, c.h)
			if err != nil {
				t.Fatalf("ResizeBilinear: %v", err)
			}
			if len(out) != c.w*c.h*4 {
				t.Fatalf("len %d, want %d", len(out), c.w*c.h*4)
			}
			if got := out[(c.y*c.w+c.x)*4]; math.Abs(float64(got-c.r)) > 1e-5 {
				t.Errorf("red at (%d,%d) = %g, want %g", c.x, c.y, got, c.r)
			}
		})
	}
}

func TestResizeBilinearErrors(t *testing.T) {
	img := gradient(4, 2)
	for _, sz := range [][2]int{{0, 2}, {4, 0}, {-1, 5}, {1 << 20, 2}} {
		if _, err := ResizeBilinear(img, sz[0], sz[1]); !errors.Is(err, errs.ShapeMismatch) {
			t.Errorf("%v: got %v, want ShapeMismatch", sz, err)
		}
	}
	if _, err := ResizeBilinear(image.NewRGBA(image.Rect(0, 0, 0, 0)), 2, 2); !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("empty image: got %v", err)
	}
}
