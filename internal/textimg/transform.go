package textimg

import (
	"image"
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Rotate180 returns a copy of img turned upside down (rotated by 180°).
// The result's bounds start at (0, 0).
func Rotate180(img *image.RGBA) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		src := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
		dst := out.Pix[out.PixOffset(0, h-1-y):]
		for x := 0; x < w; x++ {
			copy(dst[4*(w-1-x):4*(w-1-x)+4], src[4*x:4*x+4])
		}
	}
	return out
}

// ResizeBilinear resizes img to w×h with bilinear interpolation, the way
// OpenCV's cv2.resize with INTER_LINEAR does for float output: pixel
// centres are aligned (source coordinate (x+0.5)*sx-0.5, clamped at the
// edges). Each channel of the result is a float32 in [0, 255], in RGBA
// order, row-major: the result holds h*w*4 values.
func ResizeBilinear(img *image.RGBA, w, h int) ([]float32, error) {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw <= 0 || sh <= 0 || w <= 0 || h <= 0 || w > maxWidth || h > maxWidth {
		return nil, errs.New(errs.ShapeMismatch, "textimg: cannot resize a %dx%d image to %dx%d", sw, sh, w, h)
	}
	x0s, x1s, fxs := axisTaps(sw, w)
	out := make([]float32, w*h*4)
	sy := float64(sh) / float64(h)
	for y := 0; y < h; y++ {
		y0, y1, fy := tap(float64(y), sy, sh)
		r0 := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y0):]
		r1 := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y1):]
		row := out[y*w*4 : (y+1)*w*4]
		for x := 0; x < w; x++ {
			a, c, fx := 4*x0s[x], 4*x1s[x], fxs[x]
			for ch := 0; ch < 4; ch++ {
				top := (1-fx)*float64(r0[a+ch]) + fx*float64(r0[c+ch])
				bot := (1-fx)*float64(r1[a+ch]) + fx*float64(r1[c+ch])
				row[4*x+ch] = float32((1-fy)*top + fy*bot)
			}
		}
	}
	return out, nil
}

// axisTaps precomputes, for each of n output positions along an axis of
// src input pixels, the two source indices and the weight of the second.
func axisTaps(src, n int) (i0, i1 []int, f []float64) {
	i0, i1, f = make([]int, n), make([]int, n), make([]float64, n)
	s := float64(src) / float64(n)
	for i := 0; i < n; i++ {
		i0[i], i1[i], f[i] = tap(float64(i), s, src)
	}
	return i0, i1, f
}

// tap maps output coordinate d to the two neighbouring source pixels and
// the weight of the second, with half-pixel centres and edge clamping.
func tap(d, scale float64, src int) (int, int, float64) {
	s := (d+0.5)*scale - 0.5
	if s <= 0 {
		return 0, 0, 0
	}
	i := int(math.Floor(s))
	if i >= src-1 {
		return src - 1, src - 1, 0
	}
	return i, i + 1, s - float64(i)
}
