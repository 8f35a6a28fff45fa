//go:build cuda && cgo

package cuda

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/lintel-ml/lintel/compute"
)

var (
	testGPUOnce sync.Once
	testGPU     *gpu
	testGPUErr  error
)

// requireGPU returns device 0, shared by the package's tests. Where no
// driver or device is present it skips the test with the reason, unless
// REQUIRE_CUDA=1 is set: then it fails, so a GPU run cannot pass by
// skipping.
func requireGPU(t testing.TB) *gpu {
	t.Helper()
	testGPUOnce.Do(func() {
		if err := loadDriver(); err != nil {
			testGPUErr = err
			return
		}
		testGPU, testGPUErr = openGPU(0)
	})
	if testGPUErr != nil {
		if os.Getenv("REQUIRE_CUDA") == "1" {
			t.Fatalf("REQUIRE_CUDA=1 but no CUDA GPU: %v", testGPUErr)
		}
		t.Skipf("no CUDA GPU: %v", testGPUErr)
	}
	if err := testGPU.broken(); err != nil {
		t.Fatalf("GPU unusable after an earlier test: %v", err)
	}
	return testGPU
}

// TestLoadDriverWithoutLibrary checks the error where libcuda.so.1 is
// missing; it skips where a driver is present.
func TestLoadDriverWithoutLibrary(t *testing.T) {
	err := loadDriver()
	if err == nil {
		t.Skip("a CUDA driver is present")
	}
	if !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Errorf("loadDriver: %v, want ErrResourceUnavailable", err)
	}
	var d *driverError
	if errors.As(err, &d) {
		t.Skipf("libcuda.so.1 loads but cuInit fails: %v", err)
	}
	if !strings.Contains(err.Error(), "libcuda.so.1") {
		t.Errorf("loadDriver: %v does not name libcuda.so.1", err)
	}
	if _, err := openGPU(0); !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Errorf("openGPU without a driver: %v", err)
	}
	if _, err := deviceCount(); !errors.Is(err, compute.ErrResourceUnavailable) {
		t.Errorf("deviceCount without a driver: %v", err)
	}
}

func TestGPUInfo(t *testing.T) {
	g := requireGPU(t)
	n, err := deviceCount()
	if err != nil || n < 1 {
		t.Fatalf("deviceCount = %d, %v", n, err)
	}
	major, minor := g.capability()
	t.Logf("%s, compute capability %d.%d, %d MiB, %d device(s)", g.name(), major, minor, g.totalMem()>>20, n)
	if g.name() == "" || major < 5 || g.totalMem() <= 0 {
		t.Errorf("name %q, capability %d.%d, memory %d", g.name(), major, minor, g.totalMem())
	}
	if _, err := openGPU(n); err == nil {
		t.Errorf("openGPU(%d) of %d devices succeeded", n, n)
	}
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestUploadDownload(t *testing.T) {
	g := requireGPU(t)
	for _, n := range []int{1, 4096, 1<<20 + 3} {
		d, err := g.alloc(n)
		if err != nil {
			t.Fatalf("g.alloc: %v", err)
		}
		src := randomBytes(n, uint64(n))
		if err := g.upload(d, src); err != nil {
			t.Fatalf("g.upload: %v", err)
		}
		got := make([]byte, n)
		if err := g.download(got, d); err != nil {
			t.Fatalf("g.download: %v", err)
		}
		if !bytes.Equal(got, src) {
			t.Errorf("%d bytes: download differs from upload", n)
		}

		pinIn, err := g.allocHost(n)
		if err != nil {
			t.Fatalf("g.allocHost: %v", err)
		}
		pinOut, err := g.allocHost(n)
		if err != nil {
			t.Fatalf("g.allocHost: %v", err)
		}
		copy(pinIn, randomBytes(n, uint64(n)+7))
		if err := g.upload(d, pinIn); err != nil {
			t.Fatalf("g.upload: %v", err)
		}
		if err := g.download(pinOut, d); err != nil {
			t.Fatalf("g.download: %v", err)
		}
		if !bytes.Equal(pinOut, pinIn) {
			t.Errorf("%d bytes: pinned round trip differs", n)
		}
		if err := g.memset(d, n); err != nil {
			t.Fatalf("g.memset: %v", err)
		}
		if err := g.download(got, d); err != nil {
			t.Fatalf("g.download: %v", err)
		}
		if !bytes.Equal(got, make([]byte, n)) {
			t.Errorf("%d bytes: memset left non-zero bytes", n)
		}
		g.freeHost(pinIn)
		g.freeHost(pinOut)
		g.free(d)
	}
	if _, err := g.alloc(1 << 62); err == nil {
		t.Error("alloc of 4 EiB succeeded")
	} else {
		t.Logf("alloc of 4 EiB: %v", err)
	}
	if g.broken() != nil {
		t.Errorf("out of memory marked the GPU broken: %v", g.broken())
	}
}

func float32Bytes(f []float32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f))), 4*len(f))
}

func bytesFloat32(b []byte) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}
