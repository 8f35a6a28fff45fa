package cpu

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	_ "image/gif"  // registers GIF decoding
	_ "image/jpeg" // registers JPEG, refused by name
	_ "image/png"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// imageDecoderKernel is ImageDecoder: it decodes the image in its shape
// method, which sets the output's height and width, and writes the
// pixels in run. It decodes the lossless formats, PNG, GIF, BMP and TIFF
// with Go's decoders and binary PNM (P5, P6) itself, to the same pixels
// as any decoder. JPEG and WebP images fail the call with
// errs.Unsupported: Go's decoders upsample chroma and round their
// transforms differently from libjpeg and libwebp, whose pixels ONNX's
// reference and other runtimes give, and lintel gives no answer it knows
// to differ (decode them in Go before the model instead). Other formats
// (JPEG 2000...) fail the same way. Decoding allocates.
type imageDecoderKernel struct {
	n   *model.Node
	a   *model.ImageDecoderAttrs
	img image.Image
}

func (k *imageDecoderKernel) shape(in, out []*tensor) error {
	data := in[0].u8()
	img, err := decodePNM(data)
	format := "pnm"
	if err == errNotPNM {
		img, format, err = image.Decode(bytes.NewReader(data))
	}
	switch {
	case err == nil && (format == "jpeg" || format == "webp"):
		return errs.New(errs.Unsupported, "node %q (%s): %s images are not decoded: Go's decoder gives pixels that differ from the reference's (lib%s); decode the image before the model", k.n.Label(), k.n.OpType, format, format)
	case errors.Is(err, image.ErrFormat):
		return errs.New(errs.Unsupported, "node %q (%s): the image's format is not one lintel decodes (PNG, GIF, BMP, TIFF, PNM)", k.n.Label(), k.n.OpType)
	case err != nil:
		return errs.Wrap(errs.ExecutionFailed, err, "node %q (%s): decoding the image", k.n.Label(), k.n.OpType)
	}
	k.img = img
	b := img.Bounds()
	s := out[0].shape
	s[0], s[1] = b.Dy(), b.Dx()
	return nil
}

func (k *imageDecoderKernel) run(in, out []*tensor) error {
	d := out[0].u8()
	b := k.img.Bounds()
	i := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := k.img.At(x, y)
			if k.a.Format == model.PixelGray {
				d[i] = grayOf(c)
				i++
				continue
			}
			r, g, bl := rgbOf(c)
			if k.a.Format == model.PixelBGR {
				r, bl = bl, r
			}
			d[i], d[i+1], d[i+2] = r, g, bl
			i += 3
		}
	}
	k.img = nil
	return nil
}

// rgbOf returns c's 8-bit red, green and blue, alpha dropped.
func rgbOf(c color.Color) (r, g, b uint8) {
	switch c := c.(type) {
	case color.RGBA:
		return c.R, c.G, c.B
	case color.NRGBA:
		return c.R, c.G, c.B
	case color.Gray:
		return c.Y, c.Y, c.Y
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return n.R, n.G, n.B
}

// grayOf returns c's 8-bit luma: a gray pixel's own value, or ITU-R 601
// luma rounded as Pillow (ONNX's reference) converts to "L".
func grayOf(c color.Color) uint8 {
	if g, ok := c.(color.Gray); ok {
		return g.Y
	}
	r, g, b := rgbOf(c)
	return uint8((uint32(r)*19595 + uint32(g)*38470 + uint32(b)*7471 + 0x8000) >> 16)
}

// errNotPNM says the data does not start like a binary PNM image.
var errNotPNM = errors.New("not a PNM image")

// decodePNM decodes a binary PGM (P5) or PPM (P6) image of 8-bit samples.
func decodePNM(data []byte) (image.Image, error) {
	if len(data) < 2 || data[0] != 'P' || (data[1] != '5' && data[1] != '6') {
		return nil, errNotPNM
	}
	var v [3]int
	p := 2
	for i := range v {
		// Whitespace and comments, then a decimal number.
		for p < len(data) && (data[p] == ' ' || data[p] == '\t' || data[p] == '\n' || data[p] == '\r' || data[p] == '#') {
			if data[p] == '#' {
				for p < len(data) && data[p] != '\n' {
					p++
				}
				continue
			}
			p++
		}
		start := p
		for p < len(data) && data[p] >= '0' && data[p] <= '9' && p-start < 7 {
			v[i] = v[i]*10 + int(data[p]-'0')
			p++
		}
		if p == start {
			return nil, errors.New("pnm: malformed header")
		}
	}
	w, h, maxval := v[0], v[1], v[2]
	if p >= len(data) || maxval < 1 || maxval > 255 || w < 1 || h < 1 {
		return nil, errors.New("pnm: malformed header or samples wider than 8 bits")
	}
	p++ // one whitespace byte ends the header
	ch := 1
	if data[1] == '6' {
		ch = 3
	}
	px := data[p:]
	if len(px) < w*h*ch {
		return nil, errors.New("pnm: truncated pixels")
	}
	scale := func(s byte) uint8 { return uint8((int(s)*255 + maxval/2) / maxval) }
	if ch == 1 {
		img := image.NewGray(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = scale(px[i])
		}
		return img, nil
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range w * h {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = scale(px[3*i]), scale(px[3*i+1]), scale(px[3*i+2]), 255
	}
	return img, nil
}

func init() {
	register("ImageDecoder", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.Uint8 {
			return nil, c.unsupported("element type %s (want uint8)", c.inType(0))
		}
		return &imageDecoderKernel{n: c.n, a: c.rule.(*model.ImageDecoderAttrs)}, nil
	})
}
