package metal

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/backends/internal/gpu"
)

// Every Go arguments struct has the fields of its MSL twin, in order, with
// the same types and array lengths, so that its packed bytes are the MSL
// layout; and every kernel the plans launch exists in the source with the
// arguments struct the table names.
func TestArgsMatchMSL(t *testing.T) {
	for _, err := range gpu.CheckArgStructs(mslSource) {
		t.Error(err)
	}
	for k := range gpu.NumKernels {
		sig := regexp.MustCompile(`kernel void ` + gpu.KernelNames[k] + `\(constant (\w+)& a \[\[buffer\(0\)\]\]`)
		m := sig.FindStringSubmatch(mslSource)
		if m == nil {
			t.Errorf("kernel %s is missing or does not take its arguments at buffer(0)", gpu.KernelNames[k])
			continue
		}
		if m[1] != gpu.KernelArgs[k] {
			t.Errorf("kernel %s takes %s, the table says %s", gpu.KernelNames[k], m[1], gpu.KernelArgs[k])
		}
	}
	if n := strings.Count(mslSource, "kernel void "); n != int(gpu.NumKernels) {
		t.Errorf("kernels.metal has %d kernels, the table %d", n, gpu.NumKernels)
	}
}

// mslShim is enough of the Metal standard library for a C++ compiler to
// parse and type-check kernels.metal: address spaces and attributes vanish,
// vector types and math functions map to plain C++.
const mslShim = `
#include <cmath>
#include <cfloat>
#include <climits>
#define kernel extern "C"
#define device
#define constant
#define threadgroup
typedef unsigned int uint;
typedef unsigned char uchar;
struct int2 { int x, y; int2(int a, int b) : x(a), y(b) {} };
struct uint2 { uint x, y; };
struct uint3 { uint x, y, z; };
enum class mem_flags { mem_threadgroup };
inline void threadgroup_barrier(mem_flags) {}
using std::exp; using std::log; using std::sqrt; using std::tanh; using std::pow; using std::fabs; using std::fma;
template <class T> T min(T a, T b) { return a < b ? a : b; }
template <class T> T max(T a, T b) { return a > b ? a : b; }
`

// kernels.metal parses and type-checks as C++ against a small shim of the
// Metal standard library: no Metal compiler runs off Apple platforms, but
// this catches syntax and type errors before a Mac sees the source. It
// needs g++ and skips without it.
func TestMSLParsesAsCXX(t *testing.T) {
	cxx, err := osexec.LookPath("g++")
	if err != nil {
		t.Skip("no g++")
	}
	dir := t.TempDir()
	src := mslSource
	src = strings.Replace(src, "#include <metal_stdlib>", "#include \"shim.h\"", 1)
	src = strings.Replace(src, "using namespace metal;", "", 1)
	// [[buffer(n)]] and friends are Metal attributes; C++ would warn.
	src = regexp.MustCompile(`\[\[\w+(\(\d+\))?\]\]`).ReplaceAllString(src, "")
	if err := os.WriteFile(filepath.Join(dir, "shim.h"), []byte(mslShim), 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	path := filepath.Join(dir, "kernels.cpp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	out, err := osexec.Command(cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function", path).CombinedOutput()
	if err != nil {
		t.Fatalf("kernels.metal does not type-check as C++: %v\n%s", err, out)
	}
}
