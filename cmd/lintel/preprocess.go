package main

import (
	"image"
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/textimg"
)

// The PP-OCR direction classifier's input geometry: [1, 3, clsH, clsW].
const (
	clsC = 3
	clsH = 48
	clsW = 192
)

// clsInputLen is the number of float32 values in one classifier input.
const clsInputLen = clsC * clsH * clsW

// preprocessCls writes img into dst, shaped [3, 48, 192], the way
// PaddleOCR's TextClassifier.resize_norm_img does:
//
//   - resize to height 48, keeping the aspect ratio, the width rounded up
//     and capped at 192 (wider lines are squeezed), with bilinear
//     interpolation as cv2.resize does, rounded back to 8-bit values;
//   - channels in BGR order, as cv2.imread gives them;
//   - each value v becomes (v/255 - 0.5) / 0.5, in [-1, 1];
//   - columns right of the resized width stay 0.
//
// It returns the resized width. dst must hold clsInputLen values.
func preprocessCls(img *image.RGBA, dst []float32) (int, error) {
	if len(dst) != clsInputLen {
		return 0, errs.New(errs.ShapeMismatch, "preprocess: destination holds %d values, want %d", len(dst), clsInputLen)
	}
	b := img.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return 0, errs.New(errs.ShapeMismatch, "preprocess: empty %dx%d image", b.Dx(), b.Dy())
	}
	ratio := float64(b.Dx()) / float64(b.Dy())
	rw := clsW
	if c := math.Ceil(clsH * ratio); c <= clsW {
		rw = int(c)
	}
	px, err := textimg.ResizeBilinear(img, rw, clsH)
	if err != nil {
		return 0, err
	}
	clear(dst)
	const plane = clsH * clsW
	for y := 0; y < clsH; y++ {
		for x := 0; x < rw; x++ {
			p := px[(y*rw+x)*4:]
			o := y*clsW + x
			dst[o] = norm(p[2])         // B
			dst[plane+o] = norm(p[1])   // G
			dst[2*plane+o] = norm(p[0]) // R
		}
	}
	return rw, nil
}

// norm rounds a resized channel value to 8 bits, as cv2.resize does for
// 8-bit images, and maps it from [0, 255] to [-1, 1].
func norm(v float32) float32 {
	u := math.Round(float64(v))
	u = max(0, min(255, u))
	return (float32(u)/255 - 0.5) / 0.5
}
