package resize

import (
	"math"
	"testing"
)

// Every attribute value the ONNX spec names parses, and nothing else.
func TestParse(t *testing.T) {
	for _, s := range []string{"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
		"asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"} {
		if _, ok := ParseCoord(s); !ok {
			t.Errorf("ParseCoord(%q) failed", s)
		}
	}
	for _, s := range []string{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"} {
		if _, ok := ParseNearest(s); !ok {
			t.Errorf("ParseNearest(%q) failed", s)
		}
	}
	if _, ok := ParseCoord("half-pixel"); ok {
		t.Error("ParseCoord accepted half-pixel")
	}
	if _, ok := ParseNearest("simple"); ok {
		t.Error("ParseNearest accepted simple, which no attribute names")
	}
}

// Orig follows the spec's formulas on hand-computed points.
func TestOrig(t *testing.T) {
	cases := []struct {
		c       Coord
		s, x    float32
		out, in int
		rs, re  float32
		want    float32
	}{
		{HalfPixel, 2, 3, 8, 4, 0, 0, 1.25},
		{Asymmetric, 2, 3, 8, 4, 0, 0, 1.5},
		{PytorchHalfPixel, 2, 3, 8, 4, 0, 0, 1.25},
		{PytorchHalfPixel, 0.25, 0, 1, 4, 0, 0, 0},
		{TFHalfPixelForNN, 2, 3, 8, 4, 0, 0, 1.75},
		{AlignCorners, 2, 7, 8, 4, 0, 0, 3},
		{AlignCorners, 0.25, 0, 1, 4, 0, 0, 0},
		{TFCropAndResize, 2, 2, 5, 5, 0.25, 0.75, 2},
		{TFCropAndResize, 2, 0, 1, 5, 0.25, 0.75, 2},
		{HalfPixelSymmetric, 2, 0, 8, 4, 0, 0, -0.25},
	}
	for _, c := range cases {
		if got := Orig(c.c, c.s, c.x, c.out, c.in, c.rs, c.re); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("Orig(%d, s %v, x %v, %d from %d) = %v, want %v", c.c, c.s, c.x, c.out, c.in, got, c.want)
		}
	}
}

// OrigFromScales divides align_corners by the unfloored resized length,
// as ONNX's reference does, and is Orig otherwise.
func TestOrigFromScales(t *testing.T) {
	cases := []struct {
		c       Coord
		s, x    float32
		out, in int
		want    float32
	}{
		{AlignCorners, 0.6, 1, 2, 4, 3 / 1.4},
		{AlignCorners, 0.6, 0, 1, 2, 0},
		{AlignCorners, 2, 7, 8, 4, 3},
		{AlignCorners, 0.5, 1, 2, 4, 3},
		{HalfPixel, 0.6, 1, 2, 4, 2},
		{Asymmetric, 0.6, 1, 2, 4, 1.6666666},
	}
	for _, c := range cases {
		if got := OrigFromScales(c.c, c.s, c.x, c.out, c.in, 0, 0); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("OrigFromScales(%d, s %v, x %v, %d from %d) = %v, want %v", c.c, c.s, c.x, c.out, c.in, got, c.want)
		}
	}
}

// NearestIndex rounds per mode, ties included, and clamps.
func TestNearestIndex(t *testing.T) {
	cases := []struct {
		m     Nearest
		x, s  float32
		limit int
		want  int
	}{
		{RoundPreferFloor, 1.5, 2, 100, 1},
		{RoundPreferFloor, 1.6, 2, 100, 2},
		{RoundPreferCeil, 1.5, 2, 100, 2},
		{Floor, 1.9, 2, 100, 1},
		{Ceil, 1.1, 2, 100, 2},
		{Simple, 1.9, 2, 100, 1},
		{Simple, 1.1, 0.5, 100, 2},
		{Floor, -3, 2, 100, -1},
		{Floor, float32(math.NaN()), 2, 100, -1},
		{Floor, 1e12, 2, 100, 100},
	}
	for _, c := range cases {
		if got := NearestIndex(c.m, c.x, c.s, c.limit); got != c.want {
			t.Errorf("NearestIndex(%d, %v, %v, %d) = %d, want %d", c.m, c.x, c.s, c.limit, got, c.want)
		}
	}
}
