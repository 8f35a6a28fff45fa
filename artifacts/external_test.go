package artifacts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// externalModel is baseModel with w (three float32) stored at loc.
func externalModel(kvs ...onnxbuild.KV) []byte {
	m := baseModel()
	m.Graph.Initializers = []onnxbuild.Tensor{{Name: "w", DType: payload.Float32, Shape: []int64{3}, External: kvs}}
	return m.Encode()
}

func loc(l string) onnxbuild.KV { return onnxbuild.KV{Key: "location", Value: l} }
func off(o int) onnxbuild.KV    { return onnxbuild.KV{Key: "offset", Value: strconv.Itoa(o)} }
func length(n int) onnxbuild.KV { return onnxbuild.KV{Key: "length", Value: strconv.Itoa(n)} }

// wBytes are the bytes of w = [1, 2, 3].
var wBytes = payload.AsBytes([]float32{1, 2, 3})

func checkW(t *testing.T, a *Artifact) {
	t.Helper()
	w, err := model.View[float32](a.Graph().Const("w"))
	if err != nil || !cmp.Equal(w, []float32{1, 2, 3}) {
		t.Errorf("w = %v, %v", w, err)
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("os.MkdirAll: %v", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
}

func TestOpenExternalData(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "model")
	data := append(append([]byte{9, 9, 9, 9, 9, 9, 9, 9}, wBytes...), 7) // w at offset 8
	writeFile(t, filepath.Join(dir, "w.bin"), data)
	writeFile(t, filepath.Join(dir, "sub", "w.bin"), wBytes)
	writeFile(t, filepath.Join(dir, "odd.bin"), append([]byte{0}, wBytes...))
	writeFile(t, filepath.Join(base, "outside.bin"), wBytes)
	if err := os.Symlink(filepath.Join(base, "outside.bin"), filepath.Join(dir, "link.bin")); err != nil {
		t.Fatalf("os.Symlink: %v", err)
	}
	abs := filepath.Join(base, "outside.bin")
	cases := []struct {
		name  string
		kvs   []onnxbuild.KV
		parts []string // nil: loads
	}{
		{"offset", []onnxbuild.KV{loc("w.bin"), off(8)}, nil},
		{"offset and length", []onnxbuild.KV{loc("w.bin"), off(8), length(12)}, nil},
		{"subfolder", []onnxbuild.KV{loc("sub/w.bin")}, nil},
		{"dot segments inside", []onnxbuild.KV{loc("sub/../sub/./w.bin")}, nil},
		{"misaligned offset", []onnxbuild.KV{loc("odd.bin"), off(1)}, nil},
		{"length mismatch", []onnxbuild.KV{loc("w.bin"), off(8), length(8)}, []string{"length 8, tensor needs 12"}},
		{"past the end", []onnxbuild.KV{loc("w.bin"), off(12)}, []string{"offset 12", "run past"}},
		{"huge offset", []onnxbuild.KV{loc("w.bin"), off(1 << 62)}, []string{"run past"}},
		{"missing file", []onnxbuild.KV{loc("nope.bin")}, []string{`external data "nope.bin"`}},
		{"dot dot", []onnxbuild.KV{loc("../outside.bin")}, []string{"leaves the model's folder"}},
		{"absolute", []onnxbuild.KV{loc(abs)}, []string{"relative"}},
		{"backslash", []onnxbuild.KV{loc(`sub\w.bin`)}, []string{"relative"}},
		{"symlink out", []onnxbuild.KV{loc("link.bin")}, []string{`external data "link.bin"`}},
		{"folder", []onnxbuild.KV{loc("sub")}, []string{"not a regular file"}},
		{"empty", []onnxbuild.KV{loc("")}, []string{"empty location"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "m.onnx")
			writeFile(t, path, externalModel(c.kvs...))
			a, err := Open(path)
			if c.parts == nil {
				if err != nil {
					t.Fatal(err)
				}
				checkW(t, a)
				return
			}
			wantErr(t, err, errInvalid, append(c.parts, path, `initializer[0] "w"`)...)
		})
	}
	t.Run("missing file wraps ErrNotExist", func(t *testing.T) {
		path := filepath.Join(dir, "m.onnx")
		writeFile(t, path, externalModel(loc("nope.bin")))
		if _, err := Open(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("error %v does not wrap fs.ErrNotExist", err)
		}
	})
	t.Run("external file limit", func(t *testing.T) {
		path := filepath.Join(dir, "m.onnx")
		m := externalModel(loc("big.bin"))
		writeFile(t, path, m)
		writeFile(t, filepath.Join(dir, "big.bin"), append(append([]byte{}, wBytes...), make([]byte, 4096)...))
		if _, err := Open(path); err != nil {
			t.Fatalf("Open: %v", err)
		}
		_, err := Open(path, WithLimits(Limits{MaxFileBytes: int64(len(m))}))
		wantErr(t, err, errInvalid, "MaxFileBytes", "big.bin")
	})
}

// TestExternalFileReadOnce checks that tensors sharing a file share its
// bytes.
func TestExternalFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "d.bin"), append(append([]byte{}, wBytes...), wBytes...))
	m := baseModel()
	m.Graph.Initializers = []onnxbuild.Tensor{
		{Name: "w", DType: payload.Float32, Shape: []int64{3}, External: []onnxbuild.KV{loc("d.bin")}},
		{Name: "v", DType: payload.Float32, Shape: []int64{3}, External: []onnxbuild.KV{loc("./d.bin"), off(12)}},
	}
	path := filepath.Join(dir, "m.onnx")
	writeFile(t, path, m.Encode())
	a, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	checkW(t, a)
	w, v := a.Graph().Const("w").Raw, a.Graph().Const("v").Raw
	if uintptr(unsafe.Pointer(&v[0]))-uintptr(unsafe.Pointer(&w[0])) != 12 {
		t.Error("tensors in one file do not share its bytes")
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "missing.onnx"))
	wantErr(t, err, errInvalid, "missing.onnx")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v does not wrap fs.ErrNotExist", err)
	}
	_, err = Open(t.TempDir())
	wantErr(t, err, errInvalid, "not a regular file")
	dir := t.TempDir()
	path := filepath.Join(dir, "m.onnx")
	m := baseModel()
	writeFile(t, path, m.Encode())
	_, err = Open(path, WithLimits(Limits{MaxFileBytes: 10}))
	wantErr(t, err, errInvalid, "MaxFileBytes", path)
	_, err = FromBytes(m.Encode(), "b.onnx", WithLimits(Limits{MaxFileBytes: 10}))
	wantErr(t, err, errInvalid, "MaxFileBytes", "b.onnx")
}

func TestFromFS(t *testing.T) {
	fsys := fstest.MapFS{
		"models/m.onnx":       {Data: externalModel(loc("w.bin"))},
		"models/w.bin":        {Data: wBytes},
		"models/escape.onnx":  {Data: externalModel(loc("../w.bin"))},
		"models/missing.onnx": {Data: externalModel(loc("x.bin"))},
		"models/rooted.onnx":  {Data: externalModel(loc("models/w.bin"))},
		"w.bin":               {Data: wBytes},
	}
	a, err := FromFS(fsys, "models/m.onnx")
	if err != nil {
		t.Fatalf("FromFS: %v", err)
	}
	checkW(t, a)
	if a.Label() != "models/m.onnx" || a.Size() != len(fsys["models/m.onnx"].Data) {
		t.Errorf("label %q size %d", a.Label(), a.Size())
	}
	for _, c := range []struct{ name, part string }{
		{"models/escape.onnx", "leaves the model's folder"},
		{"models/missing.onnx", `external data "x.bin"`},
		{"models/rooted.onnx", `external data "models/w.bin"`},
		{"nope.onnx", "nope.onnx"},
		{"../m.onnx", "not a valid fs.FS path"},
	} {
		_, err := FromFS(fsys, c.name)
		wantErr(t, err, errInvalid, c.part, c.name)
	}
	// FromBytes resolves external data in the fs.FS it is given.
	a, err = FromBytes(externalModel(loc("models/w.bin")), "b.onnx", WithExternalData(fsys))
	if err != nil {
		t.Fatalf("FromBytes: %v", err)
	}
	checkW(t, a)
	_, err = FromBytes(externalModel(loc("models/w.bin")), "b.onnx")
	wantErr(t, err, errInvalid, "WithExternalData", "b.onnx")
}

// TestExternalDataEscapesRefused shows that a model whose external data
// points outside its folder is refused by every loader, even when the
// file it names exists, while the same model pointing inside loads.
func TestExternalDataEscapesRefused(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "model")
	writeFile(t, filepath.Join(dir, "w.bin"), wBytes)
	writeFile(t, filepath.Join(base, "outside.bin"), wBytes)
	if err := os.Symlink(base, filepath.Join(dir, "up")); err != nil {
		t.Fatalf("os.Symlink: %v", err)
	}
	loaders := []struct {
		name string
		load func(m []byte) (*Artifact, error)
	}{
		{"Open", func(m []byte) (*Artifact, error) {
			path := filepath.Join(dir, "m.onnx")
			writeFile(t, path, m)
			return Open(path)
		}},
		{"FromFS", func(m []byte) (*Artifact, error) {
			writeFile(t, filepath.Join(dir, "m.onnx"), m)
			return FromFS(os.DirFS(dir), "m.onnx")
		}},
		{"FromBytes", func(m []byte) (*Artifact, error) {
			return FromBytes(m, "m.onnx", WithExternalData(os.DirFS(dir)))
		}},
	}
	escapes := []string{"../outside.bin", "./../outside.bin", "sub/../../outside.bin", "up/outside.bin", filepath.Join(base, "outside.bin")}
	for _, l := range loaders {
		t.Run(l.name, func(t *testing.T) {
			a, err := l.load(externalModel(loc("w.bin")))
			if err != nil {
				t.Fatalf("inside the folder: %v", err)
			}
			checkW(t, a)
			for _, e := range escapes {
				if _, err := l.load(externalModel(loc(e))); !errors.Is(err, errInvalid) {
					t.Errorf("location %q: %v, want ErrInvalidArtifact", e, err)
				}
			}
		})
	}
}
