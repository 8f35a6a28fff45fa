package model

import "runtime"

// Backing is memory outside Go's heap that tensors' Raw bytes may view,
// such as a read-only mapping of a model file (artifacts.Open). The
// garbage collector does not follow a slice into such memory, so the
// graphs and tensors whose bytes view it hold its Backing, and the
// memory is released only once no Backing pointer is reachable: after
// the artifact, its graph, every clone of the graph, every tensor that
// views it and every model built from them are gone.
//
// The rule for code that keeps constant bytes: keep the *Tensor or the
// *Graph they came from (as the backends keep the graph they compiled),
// or copy the bytes. A bare Raw slice, or a slice of one, kept on its
// own may outlive the memory it views.
type Backing struct {
	// release frees the memory; it also makes a Backing an object the
	// garbage collector scans, which a cleanup needs.
	release func()
}

// NewBacking returns a Backing that calls release once, after the
// Backing has become unreachable. release must not refer to the
// Backing.
func NewBacking(release func()) *Backing {
	b := &Backing{release: release}
	runtime.AddCleanup(b, func(f func()) { f() }, release)
	return b
}
