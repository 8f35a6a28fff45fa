package npy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// FuzzNpyDecode feeds arbitrary bytes to Decode: it must never panic,
// every error must wrap a sentinel, and whatever it accepts must encode
// and decode back to the same tensor.
func FuzzNpyDecode(f *testing.F) {
	for _, fx := range fixtures {
		b, err := os.ReadFile(filepath.Join("testdata", fx.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Decode(b)
		if err != nil {
			if !errors.Is(err, errs.InvalidArtifact) && !errors.Is(err, errs.Unsupported) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		if n := payload.NumElems(d.Shape); n < 0 || n*d.DType.Size() != len(d.Data) {
			t.Fatalf("accepted %s %v with %d bytes", d.DType, d.Shape, len(d.Data))
		}
		enc, err := Encode(d)
		if err != nil {
			t.Fatalf("cannot re-encode what was read: %v", err)
		}
		back, err := Decode(enc)
		if err != nil {
			t.Fatalf("cannot read what was written: %v", err)
		}
		if back.DType != d.DType || len(back.Shape) != len(d.Shape) || !bytes.Equal(back.Data, d.Data) {
			t.Fatalf("round trip changed %s %v into %s %v", d.DType, d.Shape, back.DType, back.Shape)
		}
	})
}
