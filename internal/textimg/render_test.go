package textimg

import (
	"bytes"
	"errors"
	"image"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestRenderDeterministic(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		style Style
	}{
		{"regular", "Hello, world 2026", Style{Face: Regular, Size: 32, PadX: -1, PadY: -1}},
		{"bold", "Invoice No. 48213", Style{Face: Bold, Size: 28, PadX: 6, PadY: 4}},
		{"mono", "0123456789", Style{Face: Mono, Size: 20}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := Render(c.text, c.style)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			b, err := Render(c.text, c.style)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if a.Bounds() != b.Bounds() || !bytes.Equal(a.Pix, b.Pix) {
				t.Fatalf("two renders differ: %v vs %v", a.Bounds(), b.Bounds())
			}
			w, h := a.Bounds().Dx(), a.Bounds().Dy()
			if h < int(c.style.Size) || h > 2*int(c.style.Size) {
				t.Errorf("height %d for size %g", h, c.style.Size)
			}
			if w < len(c.text)*int(c.style.Size)/4 || w > len(c.text)*int(c.style.Size) {
				t.Errorf("width %d for %d characters at size %g", w, len(c.text), c.style.Size)
			}
		})
	}
}

// inkStats counts dark pixels and checks the image's corners are paper.
func inkStats(img *image.RGBA) (dark, light int) {
	for i := 0; i < len(img.Pix); i += 4 {
		switch g := (int(img.Pix[i]) + int(img.Pix[i+1]) + int(img.Pix[i+2])) / 3; {
		case g < 96:
			dark++
		case g > 200:
			light++
		}
	}
	return dark, light
}

func TestRenderInk(t *testing.T) {
	img, err := Render("lintel runs ONNX in Go", Style{Size: 30})
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	dark, light := inkStats(img)
	n := img.Bounds().Dx() * img.Bounds().Dy()
	if dark < n/50 {
		t.Errorf("only %d of %d pixels are ink", dark, n)
	}
	if light < n/2 {
		t.Errorf("only %d of %d pixels are paper", light, n)
	}
	// Antialiased: some pixels lie between ink and paper.
	if dark+light == n {
		t.Error("no intermediate grey levels: text is not antialiased")
	}
	if got := img.RGBAAt(0, 0); got != DefaultPaper {
		t.Errorf("corner is %v, want paper %v", got, DefaultPaper)
	}
}

func TestRenderErrors(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		style Style
		want  error
	}{
		{"empty", "", Style{}, errs.ShapeMismatch},
		{"tiny", "x", Style{Size: 1}, errs.Unsupported},
		{"huge", "x", Style{Size: 1e6}, errs.Unsupported},
		{"nan", "x", Style{Size: nan()}, errs.Unsupported},
		{"face", "x", Style{Face: Face(200)}, errs.Unsupported},
		{"pad", "x", Style{PadX: 1 << 20}, errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(c.text, c.style)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

func nan() float64 {
	z := 0.0
	return z / z
}
