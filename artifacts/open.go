package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// Open reads and decodes the ONNX model file at path. On Linux and macOS
// the file is mapped read-only, elsewhere (or WithoutMapping) read into
// memory; initializers view those bytes where alignment allows, and the
// mapping lives until nothing built from the artifact is reachable (see
// the package rules). External data is read (or mapped) from files in
// the model's folder (or below it): absolute locations, ".." and
// symbolic links that lead out of the folder are refused.
func Open(path string, opts ...Option) (*Artifact, error) {
	o := collect(opts)
	var maps *fileMaps
	if canMap && !o.noMap {
		maps = &fileMaps{}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArtifact, err, "%s", path)
	}
	data, err := maps.read(f, o.limits.MaxFileBytes)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArtifact, err, "%s", path)
	}
	var backing *model.Backing
	if maps != nil {
		backing = model.NewBacking(maps.release)
	}
	var root *os.Root
	ext := &extResolver{limit: o.limits.MaxFileBytes, maps: maps}
	ext.open = func(name string) (fs.File, error) {
		if root == nil {
			r, err := os.OpenRoot(filepath.Dir(path))
			if err != nil {
				return nil, err
			}
			root = r
		}
		f, err := root.Open(filepath.FromSlash(name))
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	a, err := load(data, path, o, ext, backing)
	if root != nil {
		root.Close()
	}
	if a != nil {
		a.maps = maps
	}
	if err != nil && maps != nil {
		// Nothing decoded escapes a failed load: unmap now.
		maps.release()
	}
	return a, err
}

// FromBytes decodes an ONNX model held in data; label names it in errors.
// The artifact aliases data: the caller must not modify it afterwards.
// External data is read from the fs.FS given with WithExternalData, and
// refused without one; locations may not leave that fs.FS, neither
// through ".." nor through a symbolic link it reports (fs.ReadLinkFS).
func FromBytes(data []byte, label string, opts ...Option) (*Artifact, error) {
	o := collect(opts)
	if int64(len(data)) > o.limits.MaxFileBytes {
		return nil, errs.New(errs.InvalidArtifact, "%s: %d bytes exceeds Limits.MaxFileBytes (%d)", label, len(data), o.limits.MaxFileBytes)
	}
	ext := &extResolver{limit: o.limits.MaxFileBytes}
	if o.extFS != nil {
		ext.open = func(name string) (fs.File, error) { return openConfined(o.extFS, ".", name) }
	} else {
		ext.refuse = "the model has external data: give FromBytes WithExternalData"
	}
	return load(data, label, o, ext, nil)
}

// FromFS reads and decodes the ONNX model file name in fsys, such as an
// embed.FS. External data is resolved inside fsys, relative to the model's
// folder, and may not leave that folder: neither through "..", nor through
// a symbolic link when fsys reports links (fs.ReadLinkFS, as os.DirFS
// does).
func FromFS(fsys fs.FS, name string, opts ...Option) (*Artifact, error) {
	o := collect(opts)
	if !fs.ValidPath(name) {
		return nil, errs.New(errs.InvalidArtifact, "%s: not a valid fs.FS path", name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArtifact, err, "%s", name)
	}
	data, err := readLimited(f, o.limits.MaxFileBytes)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArtifact, err, "%s", name)
	}
	dir := path.Dir(name)
	ext := &extResolver{limit: o.limits.MaxFileBytes}
	ext.open = func(loc string) (fs.File, error) { return openConfined(fsys, dir, loc) }
	return load(data, name, o, ext, nil)
}

// load checks the digest, decodes the model, sorts its nodes and infers
// its value types. backing, when set, holds the mapping data is in.
func load(data []byte, label string, o options, ext *extResolver, backing *model.Backing) (*Artifact, error) {
	digest := sha256.Sum256(data)
	if o.digest != "" {
		want, err := hex.DecodeString(strings.TrimSpace(o.digest))
		if err != nil || len(want) != sha256.Size {
			return nil, errs.New(errs.InvalidArtifact, "%s: WithDigest(%q) is not a hexadecimal SHA-256", label, o.digest)
		}
		if string(want) != string(digest[:]) {
			return nil, errs.New(errs.InvalidArtifact, "%s: SHA-256 is %x, want %s", label, digest, strings.ToLower(o.digest))
		}
	}
	d := &decoder{label: label, lim: o.limits, ext: ext, backing: backing}
	g, err := d.decodeModel(data)
	if err != nil {
		return nil, err
	}
	if err := model.Sort(g); err != nil {
		return nil, labeled(label, err)
	}
	if err := model.InferTypes(g); err != nil {
		return nil, labeled(label, err)
	}
	return &Artifact{label: label, format: FormatONNX, graph: g, data: data, digest: digest, backing: backing}, nil
}

// labeled puts label in front of err's message, keeping its kind.
func labeled(label string, err error) error {
	var e *errs.Error
	if errors.As(err, &e) {
		return &errs.Error{Kind: e.Kind, Msg: label + ": " + e.Msg, Cause: e.Cause, Brief: e.Brief}
	}
	return errs.Wrap(errs.InvalidArtifact, err, "%s", label)
}
