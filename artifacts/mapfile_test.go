package artifacts

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// writeModel writes b to a model file in a fresh folder and returns its
// path.
func writeModel(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// within reports whether b lies inside region.
func within(b, region []byte) bool {
	if len(b) == 0 || len(region) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&region[0]))
	return p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(region))
}

// fourWeights is a model whose four initializers' names differ in
// length by one byte each, so that their raw_data start at four
// consecutive offsets modulo 4 and at least one is aligned for float32.
func fourWeights() []byte {
	g := onnxbuild.Graph{
		Name:    "four",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 4)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 4)},
		Nodes:   []onnxbuild.Node{{Op: "Sum", Inputs: []string{"x", "c", "cc", "ccc", "cccc"}, Outputs: []string{"y"}}},
	}
	for _, name := range []string{"c", "cc", "ccc", "cccc"} {
		g.Initializers = append(g.Initializers, onnxbuild.TensorOf(name, []int64{4}, []float32{1, 2, 3, float32(len(name))}))
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// viewedWeight returns an initializer of a whose bytes view the file's
// bytes.
func viewedWeight(t *testing.T, a *Artifact) *model.Tensor {
	t.Helper()
	for _, w := range a.Graph().Initializers {
		if within(w.Raw, a.data) {
			return w
		}
	}
	t.Fatalf("no initializer of %s views the file's bytes", a.Label())
	return nil
}

// collectUntil runs the garbage collector until done reports true, for
// at most a few seconds.
func collectUntil(done func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		if done() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestOpenMapsTheFile checks that Open's initializers view the file's
// bytes in place, that the mapping outlives the artifact while one of its
// tensors is reachable, and that it is released once nothing is.
func TestOpenMapsTheFile(t *testing.T) {
	if !canMap {
		t.Skip("Open reads files into the heap on this system")
	}
	p := writeModel(t, fourWeights())
	a, err := Open(p)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if a.backing == nil || a.Graph().Backing != a.backing {
		t.Fatalf("Open: artifact backing %p, graph backing %p, want the same non-nil one", a.backing, a.Graph().Backing)
	}
	w := viewedWeight(t, a)
	if w.Backing != a.backing {
		t.Errorf("tensor %q views the mapping but holds backing %p, want %p", w.Name, w.Backing, a.backing)
	}
	want := append([]byte(nil), w.Raw...)
	maps := a.maps
	if !maps.mapped() {
		t.Fatal("Open mapped nothing")
	}
	a = nil
	runtime.GC()
	runtime.GC()
	if !maps.mapped() {
		t.Fatal("after dropping the artifact, its mapping was released while a tensor views it")
	}
	for i := range want {
		if got := w.Raw[i]; got != want[i] {
			t.Fatalf("tensor %q after the artifact was collected: byte %d is %#x, want %#x", w.Name, i, got, want[i])
		}
	}
	runtime.KeepAlive(w)
	w = nil
	if !collectUntil(func() bool { return !maps.mapped() }) {
		t.Errorf("the mapping was not released after nothing viewed it")
	}
}

// TestOpenWithoutMapping checks that WithoutMapping reads the file into
// the heap.
func TestOpenWithoutMapping(t *testing.T) {
	p := writeModel(t, testmodels.MLP())
	a, err := Open(p, WithoutMapping())
	if err != nil {
		t.Fatalf("Open(WithoutMapping): %v", err)
	}
	if a.backing != nil || a.Graph().Backing != nil {
		t.Errorf("Open(WithoutMapping): backing %p, graph backing %p, want nil", a.backing, a.Graph().Backing)
	}
	if !canMap {
		return
	}
	if _, err := Open(p, WithDigest(strings.Repeat("0", 64))); err == nil {
		t.Fatal("Open with a wrong digest: got no error")
	}
}
