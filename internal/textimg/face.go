package textimg

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Face names one of the embedded Go font faces.
type Face uint8

// The embedded faces.
const (
	Regular Face = iota
	Bold
	Italic
	Medium
	Mono
)

var faceNames = [...]string{Regular: "regular", Bold: "bold", Italic: "italic", Medium: "medium", Mono: "mono"}

var faceTTFs = [...][]byte{Regular: goregular.TTF, Bold: gobold.TTF, Italic: goitalic.TTF, Medium: gomedium.TTF, Mono: gomono.TTF}

// String returns the face's name, such as "regular".
func (f Face) String() string {
	if int(f) < len(faceNames) {
		return faceNames[f]
	}
	return "face(?)"
}

type parsed struct {
	once sync.Once
	font *opentype.Font
	err  error
}

var parsedFaces [len(faceTTFs)]parsed

// newFace returns a font.Face for f at size pixels (72 DPI, so points and
// pixels are the same), unhinted so that glyph outlines keep their
// fractional positions.
func newFace(f Face, size float64) (font.Face, error) {
	if int(f) >= len(faceTTFs) {
		return nil, errs.New(errs.Unsupported, "textimg: unknown face %d", int(f))
	}
	p := &parsedFaces[f]
	p.once.Do(func() { p.font, p.err = opentype.Parse(faceTTFs[f]) })
	if p.err != nil {
		return nil, errs.Wrap(errs.ResourceUnavailable, p.err, "textimg: parse Go font %s", f)
	}
	face, err := opentype.NewFace(p.font, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, errs.Wrap(errs.Unsupported, err, "textimg: face %s at size %g", f, size)
	}
	return face, nil
}
