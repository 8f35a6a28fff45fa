//go:build cuda && cgo

package cuda

import (
	"bytes"
	_ "embed" // kernels.cu, for the struct check
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/backends/cuda/internal/hostsim"
	"github.com/lintel-ml/lintel/backends/cuda/internal/ptxgen"
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
)

// argsSize returns the byte size of a kernel's arguments struct as the
// planner packs it, or -1 for a kernel the planner does not know.
func argsSize(name string) int {
	for k, n := range core.KernelNames {
		if n == name {
			return binary.Size(core.ArgStructs[core.KernelArgs[k]])
		}
	}
	return -1
}

// ptxEntry is what kernels.ptx declares about one entry.
type ptxEntry struct {
	pointers  int // leading .u64 parameters
	argsBytes int // the trailing .b8 struct parameter's size, -1 if none
	params    int
}

var (
	entryRE = regexp.MustCompile(`(?m)^\.visible \.entry (\w+)\(\n((?:\s*\.param [^\n]*\n)*)\)`)
	paramRE = regexp.MustCompile(`\.param (\.u64|\.align 4 \.b8) \w+_param_(\d+)(?:\[(\d+)\])?`)
)

func parseEntries(t *testing.T, ptx string) map[string]ptxEntry {
	t.Helper()
	out := map[string]ptxEntry{}
	for _, m := range entryRE.FindAllStringSubmatch(ptx, -1) {
		e := ptxEntry{argsBytes: -1}
		for _, p := range paramRE.FindAllStringSubmatch(m[2], -1) {
			e.params++
			if p[1] == ".u64" && e.argsBytes < 0 {
				e.pointers++
				continue
			}
			n, err := strconv.Atoi(p[3])
			if err != nil {
				t.Fatalf("entry %s: parameter %q", m[1], p[0])
			}
			e.argsBytes = n
		}
		if got := strings.Count(m[2], ".param"); got != e.params {
			t.Fatalf("entry %s: %d parameters, %d understood", m[1], got, e.params)
		}
		out[m[1]] = e
	}
	return out
}

// TestPTXEntries checks that every kernel the planner launches is an entry
// of kernels.ptx taking its buffers' pointers, then its arguments struct,
// and that kernels.ptx has no other entries.
func TestPTXEntries(t *testing.T) {
	entries := parseEntries(t, ptxSource)
	if len(entries) != len(ptxKernels) {
		t.Errorf("kernels.ptx has %d entries, the table %d", len(entries), len(ptxKernels))
	}
	for _, k := range ptxKernels {
		e, ok := entries[k.name]
		if !ok {
			t.Errorf("no .entry %s( in kernels.ptx", k.name)
			continue
		}
		want := ptxEntry{pointers: k.buffers, argsBytes: argsSize(k.name), params: k.buffers + 1}
		if e != want {
			t.Errorf("entry %s: %+v, want %+v", k.name, e, want)
		}
	}
}

// TestPTXMatchesMetal checks the kernel table against the Metal kernels the
// shared planner was written for: the same names, each binding the same
// number of buffers after its arguments.
func TestPTXMatchesMetal(t *testing.T) {
	src, err := os.ReadFile("../metal/kernels.metal")
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("no ../metal/kernels.metal in this tree")
	}
	if err != nil {
		t.Fatalf("reading kernels.metal: %v", err)
	}
	kernelRE := regexp.MustCompile(`kernel void (\w+)\(([^)]*(?:\)[^{]*)?)\{`)
	metal := map[string]int{}
	for _, m := range kernelRE.FindAllStringSubmatch(string(src), -1) {
		metal[m[1]] = strings.Count(m[2], "[[buffer(") - 1 // buffer(0) is the arguments struct
	}
	ours := map[string]int{}
	for _, k := range ptxKernels {
		ours[k.name] = k.buffers
	}
	for name, n := range metal {
		if got, ok := ours[name]; !ok || got != n {
			t.Errorf("Metal kernel %s binds %d buffers; the CUDA table has %d (present: %v)", name, n, got, ok)
		}
	}
	for name := range ours {
		if _, ok := metal[name]; !ok {
			t.Errorf("CUDA kernel %s has no Metal twin", name)
		}
	}
}

// TestPTXMatchesPlanner checks the kernel table against the names the
// shared planner launches (core.KernelNames): the same set.
func TestPTXMatchesPlanner(t *testing.T) {
	ours := map[string]bool{}
	for _, k := range ptxKernels {
		ours[k.name] = true
	}
	planner := map[string]bool{}
	for _, name := range core.KernelNames {
		planner[name] = true
		if !ours[name] {
			t.Errorf("the planner launches %s, which kernels.cu lacks", name)
		}
	}
	for name := range ours {
		if !planner[name] {
			t.Errorf("CUDA kernel %s is not in the planner's KernelNames", name)
		}
	}
}

// cudaSource is kernels.cu as this test binary was built from it.
//
//go:embed kernels.cu
var cudaSource string

// TestArgStructs checks kernels.cu's arguments structs against the
// planner's Go mirrors, field by field.
//
// The source is embedded, so the check also runs in a test binary carried
// away from the sources.
func TestArgStructs(t *testing.T) {
	for _, err := range core.CheckArgStructs(cudaSource) {
		t.Error(err)
	}
}

// TestPTXHostsim checks that the host simulation runs the same kernels
// with the same parameter buffers: 8-byte pointers, then the struct.
func TestPTXHostsim(t *testing.T) {
	names := hostsim.Kernels()
	if len(names) != len(ptxKernels) {
		t.Errorf("the simulation has %d kernels, the table %d", len(names), len(ptxKernels))
	}
	for _, k := range ptxKernels {
		if got, want := hostsim.ParamSize(k.name), 8*k.buffers+argsSize(k.name); got != want {
			t.Errorf("simulated %s takes %d bytes of parameters, want %d", k.name, got, want)
		}
	}
}

// TestPTXTarget checks the PTX version and target the driver JIT must
// accept (PTX ISA below 9, sm_80, 64-bit addresses), and that the PTX
// calls nothing outside itself (no libdevice, no C library).
func TestPTXTarget(t *testing.T) {
	m := regexp.MustCompile(`(?m)^\.version (\d+)\.(\d+)$`).FindStringSubmatch(ptxSource)
	if m == nil {
		t.Fatal("no .version line in kernels.ptx")
	}
	if major, _ := strconv.Atoi(m[1]); major < 6 || major > 9 {
		t.Errorf("PTX ISA %s.%s; the driver the backend targets JITs PTX ISA up to 9.x", m[1], m[2])
	}
	for _, want := range []string{"\n.target " + ptxgen.Arch + "\n", "\n.address_size 64\n"} {
		if !strings.Contains(ptxSource, want) {
			t.Errorf("kernels.ptx lacks %q", strings.TrimSpace(want))
		}
	}
	for _, bad := range []string{".extern", "call.uni", "call ", ".approx"} {
		if strings.Contains(ptxSource, bad) {
			t.Errorf("kernels.ptx contains %q: the kernels must call nothing and use only IEEE-rounded arithmetic", bad)
		}
	}
}

// TestPTXSourcesHash checks, without clang, that kernels.ptx and the host
// simulation's copies were generated from the sources as they are.
func TestPTXSourcesHash(t *testing.T) {
	if _, err := os.Stat("kernels.cu"); err != nil {
		t.Skipf("kernels.cu is not here (a test binary run outside the source tree): %v", err)
	}
	h, err := ptxgen.ParseHeader(ptxSource)
	if err != nil {
		t.Fatalf("ptxgen.ParseHeader: %v", err)
	}
	sum, err := ptxgen.SourceHash(".")
	if err != nil {
		t.Fatalf("ptxgen.SourceHash: %v", err)
	}
	if h.SourceSHA != sum {
		t.Errorf("kernels.ptx was generated from other sources (sha256 %s, now %s): run go generate -tags cuda ./backends/cuda", h.SourceSHA, sum)
	}
	copies, err := ptxgen.HostsimCopies(".")
	if err != nil {
		t.Fatalf("ptxgen.HostsimCopies: %v", err)
	}
	for name, want := range copies {
		got, err := os.ReadFile("internal/hostsim/" + name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("internal/hostsim/%s is not a copy of the current sources: run go generate -tags cuda ./backends/cuda", name)
		}
	}
	if h.Flags != strings.Join(ptxgen.Flags, " ") {
		t.Errorf("kernels.ptx was generated with flags %q, the generator now uses %q: run go generate", h.Flags, strings.Join(ptxgen.Flags, " "))
	}
}

// TestPTXUpToDate regenerates kernels.ptx with the clang installed and
// compares it with the committed one. It is skipped when there is no clang,
// or another version than the one that generated the committed file.
func TestPTXUpToDate(t *testing.T) {
	clang := ptxgen.Clang()
	if _, err := exec.LookPath(clang); err != nil {
		t.Skipf("no %s on this machine (apt-get install clang): cannot regenerate kernels.ptx", clang)
	}
	if _, err := os.Stat("kernels.cu"); err != nil {
		t.Skipf("kernels.cu is not here (a test binary run outside the source tree): %v", err)
	}
	h, err := ptxgen.ParseHeader(ptxSource)
	if err != nil {
		t.Fatalf("ptxgen.ParseHeader: %v", err)
	}
	version, err := ptxgen.ClangVersion(clang)
	if err != nil {
		t.Fatalf("ptxgen.ClangVersion: %v", err)
	}
	if version != h.Clang {
		t.Skipf("kernels.ptx was generated by %q, this machine has %q: not comparing", h.Clang, version)
	}
	got, err := ptxgen.Generate(clang, ".")
	if err != nil {
		t.Fatalf("ptxgen.Generate: %v", err)
	}
	if string(got) != ptxSource {
		t.Errorf("kernels.ptx is stale: run go generate -tags cuda ./backends/cuda and commit it")
	}
}

// TestPTXAssembles runs NVIDIA's PTX assembler, where one is installed
// ($LINTEL_PTXAS, or ptxas; Debian non-free's nvidia-cuda-toolkit has
// one), on the embedded kernels.ptx for sm_80 and sm_90: the driver's JIT compiles
// with the same assembler. It fails on any error, and logs each kernel's
// registers and spills.
func TestPTXAssembles(t *testing.T) {
	ptxas := os.Getenv("LINTEL_PTXAS")
	if ptxas == "" {
		ptxas = "ptxas"
	}
	if _, err := exec.LookPath(ptxas); err != nil {
		t.Skipf("no %s on this machine: the PTX is not assembled here", ptxas)
	}
	// The embedded copy, not the file: the test binary may run outside
	// the source tree, and the embedded text is what the driver gets.
	src := filepath.Join(t.TempDir(), "kernels.ptx")
	if err := os.WriteFile(src, []byte(ptxSource), 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	for _, arch := range []string{"sm_80", "sm_90"} {
		out, err := exec.Command(ptxas, "-arch="+arch, "-O3", "-v", "-o", os.DevNull, src).CombinedOutput()
		if err != nil {
			t.Fatalf("%s -arch=%s: %v\n%s", ptxas, arch, err, out)
		}
		if strings.Contains(string(out), "warning") {
			t.Errorf("%s -arch=%s warns:\n%s", ptxas, arch, out)
		}
		spills := regexp.MustCompile(`(\d+) bytes spill stores`).FindAllStringSubmatch(string(out), -1)
		for _, m := range spills {
			if m[1] != "0" {
				t.Logf("%s: a kernel spills registers:\n%s", arch, out)
				break
			}
		}
		regs := regexp.MustCompile(`Used (\d+) registers`).FindAllStringSubmatch(string(out), -1)
		most := 0
		for _, m := range regs {
			n, _ := strconv.Atoi(m[1])
			most = max(most, n)
		}
		t.Logf("%s: %d entries assembled, at most %d registers", arch, len(regs), most)
	}
}
