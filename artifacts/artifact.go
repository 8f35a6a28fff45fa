// Package artifacts opens, checks and decodes model files into model.Graph.
//
// Rules:
//   - Every input is untrusted: a malformed, truncated or hostile file gives
//     an error wrapping compute.ErrInvalidArtifact (or ErrUnsupported for a
//     valid file lintel cannot run), never a panic, a hang or an
//     allocation sized by a number the file declares before the bytes
//     behind it are checked.
//   - A decoding error's message names the file and the whole path to
//     the bad bytes; it also carries a one-line form that names only the
//     nearest node, which the lintel command prints.
//   - Initializer bytes alias the file's bytes where alignment allows; the
//     artifact's bytes must not be modified while it is in use.
//   - Open maps the file (and its external data files) read-only where
//     the system can (Linux and macOS) instead of reading it into the
//     heap, so a model's weights cost their file's pages once, shared
//     with the page cache. The mapping lives as long as anything views
//     it: the artifact, its graph and tensors, and every model built
//     from them hold its model.Backing, and it is unmapped by the garbage
//     collector once none is reachable. An artifact needs no Close.
//     While mapped, the file must not be truncated or rewritten in place
//     (replace it by renaming a new file over it instead); where that
//     cannot be promised, open it WithoutMapping.
//   - External data is read only from inside the model's folder (Open) or
//     the given fs.FS (FromFS).
//   - An Artifact is immutable once returned and safe to share between
//     goroutines and backends.
package artifacts

import (
	"github.com/lintel-ml/lintel/model"
)

// Format is a model file format.
type Format uint8

// The formats lintel reads.
const (
	FormatONNX Format = iota + 1
)

// String returns the format's name.
func (f Format) String() string {
	if f == FormatONNX {
		return "onnx"
	}
	return "unknown"
}

// Artifact is a decoded, validated model file.
type Artifact struct {
	label  string
	format Format
	graph  *model.Graph
	data   []byte
	digest [32]byte
	// backing holds the mapping data views, for Open; nil otherwise.
	backing *model.Backing
	// maps are the mapped regions backing releases.
	maps *fileMaps
}

// Label returns the path or label the artifact was opened with.
func (a *Artifact) Label() string { return a.label }

// Format returns the file's format.
func (a *Artifact) Format() Format { return a.format }

// Graph returns the decoded graph, topologically sorted and with types
// inferred. It is shared: callers must not modify it; use Graph().Clone()
// for a copy to rewrite.
func (a *Artifact) Graph() *model.Graph { return a.graph }

// Size returns the size of the model file in bytes.
func (a *Artifact) Size() int { return len(a.data) }

// Digest returns the SHA-256 of the model file's bytes (external data
// files are not included).
func (a *Artifact) Digest() [32]byte { return a.digest }
