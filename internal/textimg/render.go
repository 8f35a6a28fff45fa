package textimg

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Style says how to draw a line of text.
type Style struct {
	// Face is the font face.
	Face Face
	// Size is the font size in pixels (the em height); 0 means 32.
	Size float64
	// Ink and Paper are the text and background colours; zero values mean
	// near-black ink on near-white paper.
	Ink, Paper color.RGBA
	// PadX and PadY are margins in pixels around the text's box; negative
	// values mean a quarter of the size horizontally and an eighth
	// vertically.
	PadX, PadY int
}

// Size limits, so a bad Style cannot ask for a huge image.
const (
	minSize  = 4
	maxSize  = 512
	maxWidth = 1 << 14
)

// DefaultInk and DefaultPaper are the colours a zero Style uses.
var (
	DefaultInk   = color.RGBA{R: 0x20, G: 0x20, B: 0x28, A: 0xff}
	DefaultPaper = color.RGBA{R: 0xf4, G: 0xf1, B: 0xe8, A: 0xff}
)

func (s Style) withDefaults() Style {
	if s.Size == 0 {
		s.Size = 32
	}
	if s.Ink == (color.RGBA{}) {
		s.Ink = DefaultInk
	}
	if s.Paper == (color.RGBA{}) {
		s.Paper = DefaultPaper
	}
	if s.PadX < 0 {
		s.PadX = int(math.Round(s.Size / 4))
	}
	if s.PadY < 0 {
		s.PadY = int(math.Round(s.Size / 8))
	}
	s.Ink.A, s.Paper.A = 0xff, 0xff
	return s
}

// Render draws text on one line, antialiased, and returns an opaque image
// just large enough for the text's advance width and the face's ascent and
// descent, plus the Style's margins.
func Render(text string, st Style) (*image.RGBA, error) {
	st = st.withDefaults()
	if !(st.Size >= minSize && st.Size <= maxSize) {
		return nil, errs.New(errs.Unsupported, "textimg: size %g is outside [%d, %d]", st.Size, minSize, maxSize)
	}
	if text == "" {
		return nil, errs.New(errs.ShapeMismatch, "textimg: empty text")
	}
	face, err := newFace(st.Face, st.Size)
	if err != nil {
		return nil, err
	}
	defer face.Close()

	m := face.Metrics()
	ascent, descent := m.Ascent.Ceil(), m.Descent.Ceil()
	textW := font.MeasureString(face, text).Ceil()
	w, h := textW+2*st.PadX, ascent+descent+2*st.PadY
	if w <= 0 || h <= 0 || w > maxWidth || st.PadX > maxWidth || st.PadY > maxWidth {
		return nil, errs.New(errs.ShapeMismatch, "textimg: %q in %s at size %g gives a %dx%d image", text, st.Face, st.Size, w, h)
	}

	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(st.Paper), image.Point{}, draw.Src)
	d := font.Drawer{
		Dst:  img,
		Src:  image.NewUniform(st.Ink),
		Face: face,
		Dot:  fixed.P(st.PadX, st.PadY+ascent),
	}
	d.DrawString(text)
	return img, nil
}
