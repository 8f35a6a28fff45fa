//go:build cuda && cgo

package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/compute"
)

// fakeSetup installs the stand-in driver, or skips where a real driver
// is loaded (the GPU tests cover these paths there).
func fakeSetup(t *testing.T) *gpu {
	t.Helper()
	if !useFakeDriver() {
		t.Skip("a CUDA driver is loaded; the stand-in driver is for machines without one")
	}
	fakeFail("", 0)
	t.Cleanup(func() { fakeFail("", 0) })
	return fakeGPU()
}

// fakeProgram records one op of each kind over the stand-in driver.
func fakeProgram(t *testing.T, g *gpu) *program {
	t.Helper()
	s, err := g.newStream()
	if err != nil {
		t.Fatalf("g.newStream: %v", err)
	}
	p := g.newProgram(s, fakeBlas(g, s))
	params := packParams(nil, []devptr{0x1000, 0x2000}, &struct{ n uint32 }{64})
	p.launch(function(1), [3]uint32{1, 1, 1}, [3]uint32{64, 1, 1}, 0, params)
	p.gemm(gemmDesc{m: 2, n: 3, k: 4, alpha: 1, a: 0x1000, b: 0x2000, c: 0x3000, lda: 2, ldb: 4, ldc: 2})
	p.gemm(gemmDesc{m: 2, n: 3, k: 4, alpha: 1, a: 0x1000, b: 0x2000, c: 0x3000, lda: 2, ldb: 4, ldc: 2,
		batch: 3, strideA: 8, strideB: 12, strideC: 6, aType: dtF16, bType: dtF16})
	p.copy(0x4000, 0x3000, 24)
	p.zero(0x3000, 24)
	if p.err != nil {
		t.Fatalf("building the program: %v", p.err)
	}
	if got := p.ops(); got != 5 {
		t.Fatalf("program has %d ops, want 5", got)
	}
	return p
}

// TestFakeRunAllocs shows that run's Go side allocates nothing: over the
// stand-in driver, every C path runs and returns success.
func TestFakeRunAllocs(t *testing.T) {
	g := fakeSetup(t)
	p := fakeProgram(t, g)
	defer p.free()
	if err := p.capture(); err != nil {
		t.Fatalf("p.capture: %v", err)
	}
	if !p.captured() {
		t.Fatal("capture did not make a graph")
	}
	ins := []xfer{{dev: 0x1000, host: 0x9000, n: 16, kind: xferH2D}, {dev: 0x2000, host: 0x5000, n: 16, kind: xferD2D}}
	outs := []xfer{{dev: 0x3000, host: 0x9100, n: 24, kind: xferD2H}, {dev: 0x3000, host: 0x6000, n: 24, kind: xferD2D}}
	var err error
	allocs := testing.AllocsPerRun(100, func() { err = g.run(p, ins, outs) })
	if err != nil {
		t.Fatalf("g.run: %v", err)
	}
	if allocs != 0 {
		t.Errorf("run allocates %v times per call", allocs)
	}
}

func TestFakeRunErrors(t *testing.T) {
	tests := []struct {
		op     string
		code   int
		ins    []xfer
		outs   []xfer
		kind   error
		sticky bool
	}{
		{op: "cuLaunchKernel", code: 1, kind: compute.ErrExecutionFailed},
		{op: "cuMemcpyHtoDAsync_v2", code: 1, ins: []xfer{{dev: 1, host: 1, n: 4, kind: xferH2D}}, kind: compute.ErrExecutionFailed},
		{op: "cuMemcpyDtoHAsync_v2", code: 1, outs: []xfer{{dev: 1, host: 1, n: 4, kind: xferD2H}}, kind: compute.ErrExecutionFailed},
		{op: "cublasSgemm_v2", code: 7, kind: compute.ErrExecutionFailed},
		{op: "cublasGemmStridedBatchedEx", code: 15, kind: compute.ErrResourceUnavailable},
		{op: "cuMemsetD8Async", code: 2, kind: compute.ErrResourceUnavailable},
		{op: "cuCtxSetCurrent", code: 201, kind: compute.ErrExecutionFailed},
		{op: "run (transfer kind)", ins: []xfer{{dev: 1, host: 1, n: 4, kind: xferD2H}}, kind: compute.ErrExecutionFailed},
		{op: "run (transfer kind)", outs: []xfer{{dev: 1, host: 1, n: 4, kind: xferH2D}}, kind: compute.ErrExecutionFailed},
		{op: "cuStreamSynchronize", code: 700, kind: compute.ErrExecutionFailed, sticky: true},
		{op: "cuStreamSynchronize", code: 719, kind: compute.ErrExecutionFailed, sticky: true},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			g := fakeSetup(t)
			p := fakeProgram(t, g)
			defer p.free()
			if tt.code != 0 && !fakeFail(tt.op, tt.code) {
				t.Fatalf("no shim operation %q", tt.op)
			}
			err := g.run(p, tt.ins, tt.outs)
			if err == nil {
				t.Fatal("run succeeded")
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("run: %v, want errors.Is %v", err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.op) {
				t.Errorf("run: %v does not name %s", err, tt.op)
			}
			var d *driverError
			if !errors.As(err, &d) {
				t.Fatalf("run: %v is no *driverError", err)
			}
			fakeFail("", 0)
			if tt.sticky {
				if g.broken() == nil {
					t.Fatal("sticky fault did not mark the gpu broken")
				}
				again := g.run(p, nil, nil)
				if again == nil || !errors.Is(again, compute.ErrExecutionFailed) || !strings.Contains(again.Error(), "unusable") {
					t.Errorf("run after a sticky fault: %v", again)
				}
				if _, err := g.alloc(16); err == nil {
					t.Error("alloc after a sticky fault succeeded")
				}
				return
			}
			if g.broken() != nil {
				t.Fatalf("non-sticky error marked the gpu broken: %v", g.broken())
			}
			if err := g.run(p, nil, nil); err != nil {
				t.Errorf("run after a passing error: %v", err)
			}
		})
	}
}

func TestFakeRecordingErrors(t *testing.T) {
	ok := gemmDesc{m: 2, n: 2, k: 2, alpha: 1, a: 1, b: 2, c: 3, lda: 2, ldb: 2, ldc: 2}
	mixed, neg, nilOp, badType := ok, ok, ok, ok
	mixed.aType = dtF16
	neg.k = -1
	nilOp.c = 0
	badType.aType, badType.bType = 9, 9
	tests := []struct {
		name   string
		record func(p *program)
		noBlas bool
		kind   error
		text   string
	}{
		{"mixed gemm", func(p *program) { p.gemm(mixed) }, false, compute.ErrUnsupported, "A type 1 and B type 0"},
		{"bad type", func(p *program) { p.gemm(badType) }, false, compute.ErrUnsupported, "A type 9"},
		{"negative k", func(p *program) { p.gemm(neg) }, false, compute.ErrShapeMismatch, "k=-1"},
		{"nil operand", func(p *program) { p.gemm(nilOp) }, false, compute.ErrExecutionFailed, "nil operand"},
		{"no blas", func(p *program) { p.gemm(ok) }, true, compute.ErrExecutionFailed, "without cuBLAS"},
		{"nil function", func(p *program) { p.launch(0, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, nil) }, false, compute.ErrExecutionFailed, "nil function"},
		{"empty grid", func(p *program) { p.launch(1, [3]uint32{0, 1, 1}, [3]uint32{1, 1, 1}, 0, nil) }, false, compute.ErrExecutionFailed, "grid"},
		{"empty copy", func(p *program) { p.copy(1, 2, 0) }, false, compute.ErrExecutionFailed, "copy of 0 bytes"},
		{"empty zero", func(p *program) { p.zero(1, -4) }, false, compute.ErrExecutionFailed, "zero of -4 bytes"},
		{"first error kept", func(p *program) { p.zero(1, 0); p.gemm(mixed) }, false, compute.ErrExecutionFailed, "zero of 0 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := fakeSetup(t)
			s, err := g.newStream()
			if err != nil {
				t.Fatalf("g.newStream: %v", err)
			}
			b := fakeBlas(g, s)
			if tt.noBlas {
				b = nil
			}
			p := g.newProgram(s, b)
			defer p.free()
			tt.record(p)
			for _, err := range []error{p.capture(), g.run(p, nil, nil)} {
				if err == nil || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.text) {
					t.Errorf("got %v, want %v naming %q", err, tt.kind, tt.text)
				}
			}
		})
	}
}

func TestFakeProgramSetup(t *testing.T) {
	g := fakeSetup(t)
	s1, _ := g.newStream()
	s2 := &stream{g: g, s: 2}
	for _, tt := range []struct {
		name string
		p    *program
		text string
	}{
		{"no stream", g.newProgram(nil, nil), "without a stream"},
		{"other stream", g.newProgram(s2, fakeBlas(g, s1)), "another stream"},
	} {
		if err := g.run(tt.p, nil, nil); !errors.Is(err, compute.ErrExecutionFailed) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("%s: run: %v", tt.name, err)
		}
		if err := tt.p.capture(); err == nil {
			t.Errorf("%s: capture succeeded", tt.name)
		}
		tt.p.launch(1, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, nil)
		tt.p.free()
	}
	if err := g.run(nil, nil, nil); !errors.Is(err, compute.ErrExecutionFailed) {
		t.Errorf("run(nil): %v", err)
	}
	other := fakeGPU()
	p := other.newProgram(s1, nil)
	defer p.free()
	if err := g.run(p, nil, nil); !errors.Is(err, compute.ErrExecutionFailed) || !strings.Contains(err.Error(), "another device") {
		t.Errorf("run of another gpu's program: %v", err)
	}
}

func TestFakeCapture(t *testing.T) {
	tests := []struct {
		op   string
		code int
		kind error
	}{
		{"cuStreamBeginCapture_v2", 900, compute.ErrExecutionFailed},
		{"cuStreamEndCapture", 901, compute.ErrExecutionFailed},
		{"cuGraphInstantiateWithFlags", 2, compute.ErrResourceUnavailable},
		{"cuLaunchKernel", 1, compute.ErrExecutionFailed},
		{"cublasGemmStridedBatchedEx", 7, compute.ErrExecutionFailed},
		{"cuStreamSynchronize", 1, compute.ErrExecutionFailed},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			g := fakeSetup(t)
			p := fakeProgram(t, g)
			defer p.free()
			fakeFail(tt.op, tt.code)
			err := p.capture()
			if err == nil || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.op) {
				t.Fatalf("capture: %v, want %v naming %s", err, tt.kind, tt.op)
			}
			if p.captured() {
				t.Fatal("failed capture left a graph")
			}
			fakeFail("", 0)
			if err := p.capture(); err != nil || !p.captured() {
				t.Fatalf("second capture: %v, captured %v", err, p.captured())
			}
			if err := p.capture(); err != nil || !p.captured() {
				t.Fatalf("capture of a captured program: %v", err)
			}
			fakeFail("cuGraphLaunch", 1)
			if err := g.run(p, nil, nil); err == nil || !strings.Contains(err.Error(), "cuGraphLaunch") {
				t.Errorf("run of a captured program with cuGraphLaunch failing: %v", err)
			}
			fakeFail("", 0)
			p.zero(0x3000, 4)
			if err := g.run(p, nil, nil); err == nil || !strings.Contains(err.Error(), "after capture") {
				t.Errorf("run after recording into a captured program: %v", err)
			}
		})
	}
}

func TestFakeAllocSizes(t *testing.T) {
	g := fakeSetup(t)
	if p, err := g.alloc(0); p != 0 || err != nil {
		t.Errorf("alloc(0) = %#x, %v", p, err)
	}
	if b, err := g.allocHost(0); b != nil || err != nil {
		t.Errorf("allocHost(0) = %v, %v", b, err)
	}
	if _, err := g.alloc(-1); !errors.Is(err, compute.ErrExecutionFailed) {
		t.Errorf("alloc(-1): %v", err)
	}
	if _, err := g.allocHost(-1); !errors.Is(err, compute.ErrExecutionFailed) {
		t.Errorf("allocHost(-1): %v", err)
	}
	g.free(0)
	g.freeHost(nil)
	fakeFail("cuMemAlloc_v2", 2)
	if _, err := g.alloc(64); !errors.Is(err, compute.ErrResourceUnavailable) || !strings.Contains(err.Error(), "cuMemAlloc_v2") {
		t.Errorf("alloc with the driver out of memory: %v", err)
	}
	if g.broken() != nil {
		t.Errorf("out of memory marked the device broken: %v", g.broken())
	}
}

func TestFakeFreedProgram(t *testing.T) {
	g := fakeSetup(t)
	p := fakeProgram(t, g)
	p.free()
	p.free()
	if err := g.run(p, nil, nil); !errors.Is(err, compute.ErrClosed) {
		t.Errorf("run after free: %v, want ErrClosed", err)
	}
}
