//go:build cuda && cgo

package cuda

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/compute"
)

// mockTests are the GPU tests and benchmarks that run against
// testdata/mocklibcuda.c (the cuBLAS ones need the real library).
var mockTests = []string{
	"TestGPUInfo", "TestUploadDownload", "TestLaunchPTX", "TestGraphReplay",
	"TestRunInsOuts", "TestRunAllocsGPU", "TestInvalidPTX",
}

// buildMock compiles C source into dir/libcuda.so.1 and returns dir. It
// skips where a driver is present (the GPU tests run for real there),
// inside a mock run, or without a C compiler.
func buildMock(t *testing.T, src string) string {
	t.Helper()
	if os.Getenv("LINTEL_CUDA_MOCK") != "" {
		t.Skip("inside a mock run")
	}
	if loadDriver() == nil {
		t.Skip("a CUDA driver is present")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler to build a stand-in driver: %v", err)
	}
	if strings.HasSuffix(src, ".c") {
		if _, err := os.Stat(src); err != nil {
			t.Skipf("no stand-in driver source here (run in the package directory): %v", err)
		}
	}
	dir := t.TempDir()
	if !strings.HasSuffix(src, ".c") {
		path := filepath.Join(dir, "mock.c")
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatalf("os.WriteFile: %v", err)
		}
		src = path
	}
	lib := filepath.Join(dir, "libcuda.so.1")
	if out, err := exec.Command(cc, "-std=c11", "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("building a stand-in driver: %v\n%s", err, out)
	}
	return dir
}

// runMock runs this test binary with dir's libcuda.so.1 first on the
// library path, LINTEL_CUDA_MOCK=mode and the given extra arguments and
// environment, and returns its output; it fails the test when the child
// fails.
func runMock(t *testing.T, dir, mode string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.v", "-test.count=1"}, args...)...)
	cmd.Env = append(os.Environ(),
		"LD_LIBRARY_PATH="+dir+string(os.PathListSeparator)+os.Getenv("LD_LIBRARY_PATH"),
		"LINTEL_CUDA_MOCK="+mode)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child run (%s): %v\n%s", mode, err, out)
	}
	return string(out)
}

// TestMockDriver runs the GPU tests and benchmarks in a child process
// that loads testdata/mocklibcuda.c, a host-memory stand-in for
// libcuda.so.1, through the real dlopen path, with REQUIRE_CUDA=1 so none
// can pass by skipping. It checks the shim's loading and calls and the
// GPU tests' own logic on machines without a GPU.
func TestMockDriver(t *testing.T) {
	dir := buildMock(t, filepath.Join("testdata", "mocklibcuda.c"))
	out := runMock(t, dir, "gpu", []string{"REQUIRE_CUDA=1"},
		"-test.run", "^("+strings.Join(mockTests, "|")+")$",
		"-test.bench", "^(BenchmarkLaunch|BenchmarkPinnedRoundTrip)$", "-test.benchtime", "3x")
	for _, name := range mockTests {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass against the stand-in driver:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "BenchmarkLaunch/graph/64") || !strings.Contains(out, "BenchmarkPinnedRoundTrip") {
		t.Errorf("benchmarks did not run against the stand-in driver:\n%s", out)
	}

	out = runMock(t, dir, "init", []string{"LINTEL_MOCK_CUINIT=100"}, "-test.run", "^TestMockLoadError$")
	if !strings.Contains(out, "--- PASS: TestMockLoadError") {
		t.Errorf("cuInit failure:\n%s", out)
	}
}

// TestMockMissingSymbol loads a libcuda.so.1 that exports only cuInit.
func TestMockMissingSymbol(t *testing.T) {
	dir := buildMock(t, "int cuInit(unsigned f) { return (int)f; }\n")
	out := runMock(t, dir, "missing", nil, "-test.run", "^TestMockLoadError$")
	if !strings.Contains(out, "--- PASS: TestMockLoadError") {
		t.Errorf("missing symbol:\n%s", out)
	}
}

// TestMockLoadError runs in the children of TestMockDriver and
// TestMockMissingSymbol and checks loadDriver's error there.
func TestMockLoadError(t *testing.T) {
	mode := os.Getenv("LINTEL_CUDA_MOCK")
	var want string
	switch mode {
	case "init":
		want = "cuda: cuInit: CUDA_ERROR_NO_DEVICE (100)"
	case "missing":
		want = "libcuda.so.1 lacks cuDeviceGetCount"
	default:
		t.Skip("runs in a child process of TestMockDriver or TestMockMissingSymbol")
	}
	err := loadDriver()
	if err == nil || !errors.Is(err, compute.ErrResourceUnavailable) || !strings.Contains(err.Error(), want) {
		t.Fatalf("loadDriver: %v, want ErrResourceUnavailable naming %q", err, want)
	}
	if _, err := openGPU(0); err == nil {
		t.Error("openGPU succeeded after a failed load")
	}
}
