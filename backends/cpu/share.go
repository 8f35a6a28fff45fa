package cpu

import (
	"runtime"
	"sync"
	"weak"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Sharing read-only data between instances.
//
// A service that runs one artifact on several goroutines loads it several
// times on one Backend. The instances share everything read-only: the
// optimized graph (with its folded and aligned constants) and whatever
// kernels precompute from constants at build, such as a transposed or
// packed weight matrix. Each instance keeps only its own scratch: planned
// buffers, staging for stacked batches and kernel scratch.
//
// Kernel builders reach the shared store through shareValue:
//
//	bT, err := shareValue(c, "bT", func() ([]float32, error) { ... })
//
// The value is built once per (artifact, backend, node, key) and handed to
// every later instance as is. It must never be written after build
// returns; anything a kernel writes at run time belongs in the kernel.
//
// The cache holds its entries weakly: it keeps neither the artifact nor the
// shared data alive. Shared data lives as long as one model uses it; an
// entry disappears once its shared data has been collected.

// shared is the read-only state every instance of one artifact on one
// backend uses.
type shared struct {
	once sync.Once
	// g is the optimized graph; nothing writes it after prepare.
	g   *model.Graph
	err error

	mu   sync.Mutex
	data map[shareKey]any
}

// shareKey names one precomputed value: the node it belongs to and the
// builder's name for it.
type shareKey struct {
	n   *model.Node
	key string
}

// shareCache maps artifacts to their shared state, weakly on both sides.
type shareCache struct {
	mu      sync.Mutex
	entries map[weak.Pointer[artifacts.Artifact]]weak.Pointer[shared]
}

// get returns the shared state of art, preparing it on first use. Loads
// of one artifact that race wait for a single preparation.
func (c *shareCache) get(art *artifacts.Artifact) (*shared, error) {
	key := weak.Make(art)
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[weak.Pointer[artifacts.Artifact]]weak.Pointer[shared]{}
	}
	sh := c.entries[key].Value()
	if sh == nil {
		sh = &shared{}
		c.entries[key] = weak.Make(sh)
		runtime.AddCleanup(sh, c.forget, key)
	}
	c.mu.Unlock()
	sh.once.Do(func() { sh.g, sh.err = prepare(art) })
	if sh.err != nil {
		return nil, sh.err
	}
	return sh, nil
}

// forget drops key's entry once its shared state has been collected.
func (c *shareCache) forget(key weak.Pointer[artifacts.Artifact]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && e.Value() == nil {
		delete(c.entries, key)
	}
}

// prepare optimizes a copy of art's graph (optimizeGraph: the model's
// passes and the fusions) and replaces constants whose
// bytes are misaligned with aligned copies, so that instances view the
// same bytes instead of copying them each.
func prepare(art *artifacts.Artifact) (g *model.Graph, err error) {
	defer func() {
		// Kept as an error: a panic here would leave the entry without a
		// graph for every later load.
		if r := recover(); r != nil {
			g, err = nil, errs.New(errs.InvalidArtifact, "cpu: internal error while optimizing %s: %v", art.Label(), r)
		}
	}()
	g = art.Graph().Clone()
	if err := optimizeGraph(g); err != nil {
		return nil, err
	}
	for name, t := range g.Initializers {
		if t == nil || len(t.Raw) == 0 || payload.IsAligned(t.Raw, t.DType.Size()) {
			continue
		}
		c := *t
		c.Raw = model.AlignedBytes(t.Raw)
		g.Initializers[name] = &c
	}
	return g, nil
}

// shareValue returns the read-only value that c's node keeps under key,
// calling build only for the first instance of the artifact on the
// backend. Builders call it for anything they precompute from constants.
// Without a shared store (kernels built outside LoadModel) it just
// builds.
func shareValue[T any](c *buildCtx, key string, build func() (T, error)) (T, error) {
	sh := c.share
	if sh == nil {
		return build()
	}
	k := shareKey{n: c.n, key: key}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if v, ok := sh.data[k]; ok {
		if t, ok := v.(T); ok {
			return t, nil
		}
	}
	t, err := build()
	if err != nil {
		return t, err
	}
	if sh.data == nil {
		sh.data = map[shareKey]any{}
	}
	sh.data[k] = t
	return t, nil
}
