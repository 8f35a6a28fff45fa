package metal

import (
	"encoding/binary"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// mslStructs parses the argument structs of kernels.metal: name to field
// list ("uint n", "int shape[6]"...).
func mslStructs(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	re := regexp.MustCompile(`(?s)struct (\w+) \{(.*?)\};`)
	for _, m := range re.FindAllStringSubmatch(mslSource, -1) {
		var fields []string
		for _, line := range strings.Split(m[2], ";") {
			if f := strings.TrimSpace(line); f != "" {
				fields = append(fields, f)
			}
		}
		out[m[1]] = fields
	}
	return out
}

var goArgs = map[string]any{
	"UnaryArgs": unaryArgs{}, "BinaryArgs": binaryArgs{}, "WhereArgs": whereArgs{}, "CopyArgs": copyArgs{},
	"CastArgs": castArgs{}, "GemmArgs": gemmArgs{}, "SoftmaxArgs": softmaxArgs{}, "LayerNormArgs": layerNormArgs{},
	"ReduceArgs": reduceArgs{}, "ArgMaxArgs": argMaxArgs{}, "GatherArgs": gatherArgs{}, "ConvArgs": convArgs{},
	"PoolArgs": poolArgs{}, "BatchNormArgs": batchNormArgs{},
}

// Every Go arguments struct has the fields of its MSL twin, in order, with
// the same types and array lengths, so that its packed bytes are the MSL
// layout; and every kernel the plans launch exists in the source with the
// arguments struct the table names.
func TestArgsMatchMSL(t *testing.T) {
	msl := mslStructs(t)
	for name, v := range goArgs {
		fields, ok := msl[name]
		if !ok {
			t.Errorf("no struct %s in kernels.metal", name)
			continue
		}
		rt := reflect.TypeOf(v)
		if rt.NumField() != len(fields) {
			t.Errorf("%s: Go has %d fields, MSL %d", name, rt.NumField(), len(fields))
			continue
		}
		size := 0
		for i, f := range fields {
			parts := strings.Fields(f)
			typ, fname := parts[0], parts[1]
			n := 1
			if k := strings.Index(fname, "["); k >= 0 {
				switch fname[k+1 : len(fname)-1] {
				case "MAX_RANK":
					n = maxRank
				case "MAX_BATCH_RANK":
					n = maxBatchRank
				default:
					t.Fatalf("%s: array length %s", name, fname)
				}
				fname = fname[:k]
			}
			gf := rt.Field(i)
			if norm(gf.Name) != norm(fname) {
				t.Errorf("%s field %d: Go %s, MSL %s", name, i, gf.Name, fname)
			}
			gt := gf.Type
			gn := 1
			if gt.Kind() == reflect.Array {
				gn, gt = gt.Len(), gt.Elem()
			}
			want := map[string]reflect.Kind{"uint": reflect.Uint32, "int": reflect.Int32, "float": reflect.Float32}[typ]
			if gt.Kind() != want || gn != n {
				t.Errorf("%s.%s: Go %v x%d, MSL %s x%d", name, fname, gt, gn, typ, n)
			}
			size += 4 * n
		}
		if got := binary.Size(v); got != size {
			t.Errorf("%s packs to %d bytes, MSL layout is %d", name, got, size)
		}
	}
	for k := range numKernels {
		sig := regexp.MustCompile(`kernel void ` + kernelNames[k] + `\(constant (\w+)& a \[\[buffer\(0\)\]\]`)
		m := sig.FindStringSubmatch(mslSource)
		if m == nil {
			t.Errorf("kernel %s is missing or does not take its arguments at buffer(0)", kernelNames[k])
			continue
		}
		if m[1] != kernelArgs[k] {
			t.Errorf("kernel %s takes %s, the table says %s", kernelNames[k], m[1], kernelArgs[k])
		}
	}
	if n := strings.Count(mslSource, "kernel void "); n != int(numKernels) {
		t.Errorf("kernels.metal has %d kernels, the table %d", n, numKernels)
	}
}

func norm(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

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
		t.Fatal(err)
	}
	path := filepath.Join(dir, "kernels.cpp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := osexec.Command(cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function", path).CombinedOutput()
	if err != nil {
		t.Fatalf("kernels.metal does not type-check as C++: %v\n%s", err, out)
	}
}
