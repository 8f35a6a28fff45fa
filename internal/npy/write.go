package npy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// align is the boundary NumPy pads headers to, so data starts aligned.
const align = 64

// Encode returns d as a .npy file: format 1.0, little-endian, C order. It refuses element
// types NumPy lacks (bfloat16) with compute.ErrUnsupported and data whose
// length does not match the shape with compute.ErrShapeMismatch.
func Encode(d payload.Dynamic) ([]byte, error) {
	descr, err := descrOf(d.DType)
	if err != nil {
		return nil, err
	}
	n := payload.NumElems(d.Shape)
	if n < 0 || n*d.DType.Size() != len(d.Data) {
		return nil, errs.New(errs.ShapeMismatch, "npy: tensor %q: shape %v of %s does not match its %d bytes", d.Name, d.Shape, d.DType, len(d.Data))
	}
	if len(d.Shape) > maxRank {
		return nil, errs.New(errs.Unsupported, "npy: tensor %q has %d dimensions, more than %d", d.Name, len(d.Shape), maxRank)
	}
	var sh strings.Builder
	sh.WriteByte('(')
	for i, x := range d.Shape {
		if i > 0 {
			sh.WriteString(", ")
		}
		fmt.Fprint(&sh, x)
	}
	if len(d.Shape) == 1 {
		sh.WriteByte(',')
	}
	sh.WriteByte(')')
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, sh.String())

	// Version 1.0 has a 2-byte header length, ample for maxRank
	// dimensions. Pad the header with spaces and end it with a newline
	// so the data is aligned.
	const prefix = len(magic) + 2 + 2
	hlen := padded(prefix+len(dict)+1) - prefix
	var b bytes.Buffer
	b.Grow(prefix + hlen + len(d.Data))
	b.WriteString(magic)
	b.Write([]byte{1, 0, byte(hlen), byte(hlen >> 8)})
	b.WriteString(dict)
	b.WriteString(strings.Repeat(" ", hlen-len(dict)-1))
	b.WriteByte('\n')
	b.Write(d.Data)
	return b.Bytes(), nil
}

// padded rounds n up to a multiple of align.
func padded(n int) int { return (n + align - 1) / align * align }

// Write writes d to w as a .npy file; see Encode.
func Write(w io.Writer, d payload.Dynamic) error {
	b, err := Encode(d)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteFile writes d to the file at path as a .npy file; see Encode.
func WriteFile(path string, d payload.Dynamic) error {
	b, err := Encode(d)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
