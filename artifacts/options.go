package artifacts

import (
	"io/fs"
)

// Limits bounds what a model file may declare. A file that goes past any
// of them is refused with an error wrapping errs.InvalidArtifact before
// the memory it asks for is allocated. A zero or negative field means the
// DefaultLimits value for that field.
type Limits struct {
	// MaxFileBytes bounds the size of the model file and of each external
	// data file.
	MaxFileBytes int64
	// MaxNodes bounds the number of nodes, subgraphs included.
	MaxNodes int
	// MaxRank bounds the rank of every tensor and declared shape.
	MaxRank int
	// MaxTensorElems bounds the number of elements of each constant tensor.
	MaxTensorElems int64
	// MaxInitializerBytes bounds the total size of all constant tensors
	// (initializers and tensor attributes, subgraphs included).
	MaxInitializerBytes int64
	// MaxDepth bounds the nesting of subgraphs (If, Loop and Scan bodies):
	// the main graph is at depth 0.
	MaxDepth int
}

// DefaultLimits returns the limits used when none are given: a 4 GiB file,
// 1<<20 nodes, rank 16, 1<<32 elements per tensor, 16 GiB of constant
// tensors and subgraphs nested 8 deep.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:        4 << 30,
		MaxNodes:            1 << 20,
		MaxRank:             16,
		MaxTensorElems:      1 << 32,
		MaxInitializerBytes: 16 << 30,
		MaxDepth:            8,
	}
}

// withDefaults returns l with every unset field taken from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = d.MaxFileBytes
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = d.MaxNodes
	}
	if l.MaxRank <= 0 {
		l.MaxRank = d.MaxRank
	}
	if l.MaxTensorElems <= 0 {
		l.MaxTensorElems = d.MaxTensorElems
	}
	if l.MaxInitializerBytes <= 0 {
		l.MaxInitializerBytes = d.MaxInitializerBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	return l
}

// options are the settings Open, FromBytes and FromFS take.
type options struct {
	limits Limits
	digest string
	extFS  fs.FS
	noMap  bool
}

// Option configures Open, FromBytes and FromFS.
type Option func(*options)

// WithLimits sets the limits a file must stay within; unset fields keep
// their DefaultLimits value.
func WithLimits(l Limits) Option { return func(o *options) { o.limits = l } }

// WithDigest makes loading refuse a model file whose SHA-256 is not
// sha256hex (64 hexadecimal digits, either case) with an error wrapping
// errs.InvalidArtifact.
func WithDigest(sha256hex string) Option { return func(o *options) { o.digest = sha256hex } }

// WithExternalData sets where FromBytes reads external tensor data: a
// tensor's location is resolved inside fsys. Without it FromBytes refuses
// models with external data. Open and FromFS ignore it.
func WithExternalData(fsys fs.FS) Option { return func(o *options) { o.extFS = fsys } }

// WithoutMapping makes Open read the model file and its external data
// into the heap instead of mapping them, for files that may be truncated
// or rewritten in place while the model is in use. FromBytes and FromFS
// never map.
func WithoutMapping() Option { return func(o *options) { o.noMap = true } }

func collect(opts []Option) options {
	var o options
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	o.limits = o.limits.withDefaults()
	return o
}
