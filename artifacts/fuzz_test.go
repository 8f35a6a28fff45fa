package artifacts

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the FuzzDecode seed corpus in testdata/fuzz/FuzzDecode")

// seedModels are small models that exercise most of the decoder.
func seedModels() map[string][]byte {
	m := baseModel()
	m.Metadata = map[string]string{"k": "v"}
	m.Opsets = map[string]int64{"com.example": 1}
	seeds := map[string][]byte{"base": m.Encode()}

	m = baseModel()
	m.Graph.Initializers = append(m.Graph.Initializers,
		onnxbuild.Tensor{Name: "i8", DType: payload.Int8, Shape: []int64{2}, Raw: []byte{0xff, 1}, Typed: true},
		onnxbuild.Tensor{Name: "h", DType: payload.Float16, Shape: []int64{1}, Raw: []byte{0, 0x3c}, Typed: true},
		onnxbuild.Tensor{Name: "l", DType: payload.Int64, Shape: []int64{1, 1}, Raw: make([]byte, 8), Typed: true},
		onnxbuild.Tensor{Name: "d", DType: payload.Float64, Shape: []int64{1}, Raw: make([]byte, 8), Typed: true},
		onnxbuild.Tensor{Name: "u", DType: payload.Uint32, Shape: []int64{1}, Raw: make([]byte, 4), Typed: true},
		onnxbuild.Tensor{Name: "b", DType: payload.Bool, Shape: []int64{}, Raw: []byte{1}},
	)
	m.Graph.Inputs = append(m.Graph.Inputs, onnxbuild.Input("l", payload.Int64, 1, 1))
	seeds["typed"] = m.Encode()

	seeds["attributes"] = rawModel(13, customNode(
		pb(nil).str(1, "f").float(2, 0.5).varint(20, 1),
		pb(nil).str(1, "i").varint(3, 2),
		pb(nil).str(1, "s").str(4, "x").varint(20, 3),
		pb(nil).str(1, "t").bytes(5, tensorBytes("t", 1)).varint(20, 4),
		pb(nil).str(1, "fs").bytes(7, packF32(1, 2)).varint(20, 6),
		pb(nil).str(1, "is").bytes(8, []byte{1, 2}).varint(20, 7),
		pb(nil).str(1, "ss").str(9, "a").varint(20, 8),
		pb(nil).str(1, "ts").bytes(10, tensorBytes("u", 2)).varint(20, 9),
		pb(nil).str(1, "r").str(21, "outer"),
	))
	seeds["subgraphs"] = rawModel(13, customNode(
		pb(nil).str(1, "g").bytes(6, subgraphBytes("body")).varint(20, 5),
		pb(nil).str(1, "gs").bytes(11, subgraphBytes("a")).bytes(11, subgraphBytes("b")).varint(20, 10),
	))
	seeds["types"] = rawModel(13, customNode(
		pb(nil).str(1, "t").bytes(14, tensorTypeBytes(2)).varint(20, 13),
		pb(nil).str(1, "s").bytes(14, pb(nil).bytes(4, pb(nil).bytes(1, tensorTypeBytes(5)))),
		pb(nil).str(1, "o").bytes(14, pb(nil).bytes(9, pb(nil).bytes(1, tensorTypeBytes()))).varint(20, 13),
	))
	seeds["external"] = externalModel(loc("w.bin"), off(0), length(12))
	return seeds
}

// FuzzDecode checks that no input makes the decoder panic, and that every
// error wraps a compute sentinel.
func FuzzDecode(f *testing.F) {
	for _, s := range seedModels() {
		f.Add(s)
	}
	lim := Limits{MaxFileBytes: 1 << 20, MaxNodes: 1 << 10, MaxRank: 8, MaxTensorElems: 1 << 20, MaxInitializerBytes: 1 << 24, MaxDepth: 4}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := FromBytes(data, "fuzz.onnx", WithLimits(lim))
		if err != nil {
			if !isSentinel(err) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		for name, c := range a.Graph().Initializers {
			if err := c.Check(); err != nil {
				t.Fatalf("initializer %q: %v", name, err)
			}
			if len(c.Raw) > 0 && uintptr(unsafe.Pointer(&c.Raw[0]))%uintptr(c.DType.Size()) != 0 {
				t.Fatalf("initializer %q misaligned", name)
			}
		}
	})
}

// TestFuzzSeeds checks that testdata/fuzz/FuzzDecode holds the current
// seed models, and rewrites them when run with -update-fuzz-seeds.
func TestFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDecode")
	if *updateSeeds {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatalf("os.MkdirAll: %v", err)
		}
	}
	for name, data := range seedModels() {
		body := []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data))
		path := filepath.Join(dir, name)
		if *updateSeeds {
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatalf("os.WriteFile: %v", err)
			}
			continue
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, body) {
			t.Errorf("seed %s is missing or stale (run go test ./artifacts -run TestFuzzSeeds -update-fuzz-seeds): %v", path, err)
		}
	}
}
