package main

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/textimg"
)

func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func TestPreprocessGeometry(t *testing.T) {
	cases := []struct {
		name  string
		w, h  int
		wantW int
	}{
		{"2:1", 64, 32, 96},
		{"exactly 4:1", 192, 48, 192},
		{"square", 20, 20, 48},
		{"ceil", 50, 48, 50}, // 48*50/48 = 50
		{"ceil up", 10, 48, 10},
		{"round up", 33, 16, 99}, // 48*33/16 = 99
		{"fraction", 31, 7, 192}, // 48*31/7 = 212.6: capped
		{"wide", 1000, 30, 192},
		{"tall", 5, 100, 3}, // ceil(48*0.05) = ceil(2.4) = 3
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := make([]float32, clsInputLen)
			for i := range dst {
				dst[i] = 7 // must be overwritten or cleared
			}
			rw, err := preprocessCls(solid(c.w, c.h, color.RGBA{R: 255, G: 255, B: 255, A: 255}), dst)
			if err != nil {
				t.Fatalf("preprocessCls: %v", err)
			}
			if rw != c.wantW {
				t.Fatalf("resized width %d, want %d", rw, c.wantW)
			}
			for ch := 0; ch < clsC; ch++ {
				for y := 0; y < clsH; y++ {
					for x := 0; x < clsW; x++ {
						v := dst[(ch*clsH+y)*clsW+x]
						want := float32(1) // white
						if x >= rw {
							want = 0 // padding
						}
						if v != want {
							t.Fatalf("channel %d (%d,%d) = %g, want %g", ch, x, y, v, want)
						}
					}
				}
			}
		})
	}
}

func TestPreprocessChannelsAndRange(t *testing.T) {
	// A colour with distinct channels lands in BGR order, each mapped
	// from [0, 255] to [-1, 1].
	dst := make([]float32, clsInputLen)
	if _, err := preprocessCls(solid(96, 48, color.RGBA{R: 255, G: 0, B: 51, A: 255}), dst); err != nil {
		t.Fatalf("preprocessCls: %v", err)
	}
	const plane = clsH * clsW
	want := []float32{51.0/255*2 - 1, -1, 1} // B, G, R
	for ch, w := range want {
		if got := dst[ch*plane]; got < w-1e-6 || got > w+1e-6 {
			t.Errorf("channel %d = %g, want %g", ch, got, w)
		}
	}

	img, err := textimg.Render("Range 0-9", textimg.Style{Size: 30})
	if err != nil {
		t.Fatalf("textimg.Render: %v", err)
	}
	if _, err := preprocessCls(img, dst); err != nil {
		t.Fatalf("preprocessCls: %v", err)
	}
	lo, hi := dst[0], dst[0]
	for _, v := range dst {
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo < -1 || hi > 1 {
		t.Errorf("values in [%g, %g], want within [-1, 1]", lo, hi)
	}
	if lo > -0.6 || hi < 0.8 {
		t.Errorf("values in [%g, %g]: expected dark ink and light paper", lo, hi)
	}
}

func TestPreprocessErrors(t *testing.T) {
	cases := []struct {
		name string
		img  *image.RGBA
		n    int
	}{
		{"short destination", solid(10, 10, color.RGBA{A: 255}), clsInputLen - 1},
		{"long destination", solid(10, 10, color.RGBA{A: 255}), clsInputLen + 1},
		{"empty image", image.NewRGBA(image.Rect(0, 0, 0, 5)), clsInputLen},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := preprocessCls(c.img, make([]float32, c.n)); !errors.Is(err, errs.ShapeMismatch) {
				t.Fatalf("got %v, want ShapeMismatch", err)
			}
		})
	}
}
