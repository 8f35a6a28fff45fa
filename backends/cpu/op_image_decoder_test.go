package cpu

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestImageDecoder(t *testing.T) {
	// A 2x1 PNG: red, then (10, 20, 30).
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	img.Set(1, 0, color.NRGBA{10, 20, 30, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	pngBytes := buf.Bytes()
	ppm := append([]byte("P6\n# comment\n2 1\n255\n"), 255, 0, 0, 10, 20, 30)
	pgm := append([]byte("P5 2 1 15\n"), 15, 5)
	cases := []struct {
		name   string
		format string
		data   []byte
		shape  []int
		want   []uint8
	}{
		{"png rgb", "RGB", pngBytes, []int{1, 2, 3}, []uint8{255, 0, 0, 10, 20, 30}},
		{"png bgr", "BGR", pngBytes, []int{1, 2, 3}, []uint8{0, 0, 255, 30, 20, 10}},
		// Pillow's luma: (r*19595 + g*38470 + b*7471 + 32768) >> 16.
		{"png gray", "Grayscale", pngBytes, []int{1, 2, 1}, []uint8{76, 18}},
		{"ppm", "RGB", ppm, []int{1, 2, 3}, []uint8{255, 0, 0, 10, 20, 30}},
		{"pgm scaled", "RGB", pgm, []int{1, 2, 3}, []uint8{255, 255, 255, 85, 85, 85}},
	}
	for _, c := range cases {
		n := node("ImageDecoder", []string{"x"}, aString("pixel_format", c.format))
		outs, err := runNode(t, nodeCase{node: n, opset: 20, outTypes: []payload.DType{payload.Uint8}}, mk([]int{len(c.data)}, c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !cmp.Equal(outs[0].shape, c.shape) || !cmp.Equal(outs[0].u8(), c.want) {
			t.Errorf("%s: got %v %v, want %v %v", c.name, outs[0].shape, outs[0].u8(), c.shape, c.want)
		}
	}
}

// tinyJPEG encodes a 2×2 image as JPEG.
func tinyJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatalf("jpeg.Encode: %v", err)
	}
	return b.Bytes()
}

func TestImageDecoderErrors(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		kind error
	}{
		{"jpeg 2000", []byte("\x00\x00\x00\x0cjP  \r\n\x87\n"), errs.Unsupported},
		{"jpeg", tinyJPEG(t), errs.Unsupported},
		{"truncated png", []byte("\x89PNG\r\n\x1a\n\x00"), errs.ExecutionFailed},
		{"truncated ppm", []byte("P6 2 2 255\n\x01"), errs.ExecutionFailed},
		{"ppm of 16-bit samples", []byte("P6 1 1 65535\n\x01\x02\x03\x04\x05\x06"), errs.ExecutionFailed},
	}
	for _, c := range cases {
		n := node("ImageDecoder", []string{"x"})
		_, err := runNode(t, nodeCase{node: n, opset: 20, outTypes: []payload.DType{payload.Uint8}}, mk([]int{len(c.data)}, c.data))
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: got %v, want an error wrapping %v", c.name, err, c.kind)
		}
	}
}
