//go:build cuda && cgo

package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/compute"
)

// addOnePTX is add_one(const float* x, float* y, uint32 n): y[i] = x[i] + 1
// for i < n, one thread per element. Written by hand; x and y may alias.
const addOnePTX = `
.version 7.0
.target sm_80
.address_size 64

.visible .entry add_one(
	.param .u64 add_one_x,
	.param .u64 add_one_y,
	.param .u32 add_one_n
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<8>;

	ld.param.u64 %rd1, [add_one_x];
	ld.param.u64 %rd2, [add_one_y];
	ld.param.u32 %r1, [add_one_n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd4, %rd2;
	mul.wide.u32 %rd5, %r5, 4;
	add.s64 %rd6, %rd3, %rd5;
	ld.global.f32 %f1, [%rd6];
	add.f32 %f2, %f1, 0f3F800000;
	add.s64 %rd7, %rd4, %rd5;
	st.global.f32 [%rd7], %f2;
DONE:
	ret;
}
`

// addOneArgs is add_one's argument after its two buffers.
type addOneArgs struct{ n uint32 }

// addOne loads add_one, failing the test on error.
func addOne(t testing.TB, g *gpu) function {
	t.Helper()
	m, err := g.loadModule([]byte(addOnePTX))
	if err != nil {
		t.Fatalf("g.loadModule: %v", err)
	}
	t.Cleanup(m.unload)
	fn, err := m.function("add_one")
	if err != nil {
		t.Fatalf("m.function: %v", err)
	}
	return fn
}

// launchAddOne records add_one over n elements from x to y.
func launchAddOne(p *program, fn function, x, y devptr, n int) {
	params := packParams(nil, []devptr{x, y}, &addOneArgs{uint32(n)})
	p.launch(fn, [3]uint32{uint32((n + 127) / 128), 1, 1}, [3]uint32{128, 1, 1}, 0, params)
}

// fixture is a stream, two device buffers and pinned staging of n floats.
type fixture struct {
	g       *gpu
	s       *stream
	x, y    devptr
	in, out []byte
	n       int
}

func newFixture(t testing.TB, g *gpu, n int) *fixture {
	t.Helper()
	f := &fixture{g: g, n: n}
	var err error
	if f.s, err = g.newStream(); err != nil {
		t.Fatalf("g.newStream: %v", err)
	}
	if f.x, err = g.alloc(4 * n); err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	if f.y, err = g.alloc(4 * n); err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	if f.in, err = g.allocHost(4 * n); err != nil {
		t.Fatalf("g.allocHost: %v", err)
	}
	if f.out, err = g.allocHost(4 * n); err != nil {
		t.Fatalf("g.allocHost: %v", err)
	}
	t.Cleanup(func() {
		g.freeHost(f.in)
		g.freeHost(f.out)
		g.free(f.x)
		g.free(f.y)
		f.s.destroy()
	})
	return f
}

func (f *fixture) ins() []xfer {
	return []xfer{{dev: f.x, host: hostAddr(f.in), n: uintptr(4 * f.n), kind: xferH2D}}
}

func (f *fixture) outs() []xfer {
	return []xfer{{dev: f.y, host: hostAddr(f.out), n: uintptr(4 * f.n), kind: xferD2H}}
}

// checkAddOne fills the input with base+i, runs p and checks the output.
func (f *fixture) checkAddOne(t *testing.T, p *program, base float32) {
	t.Helper()
	x := bytesFloat32(f.in)
	for i := range x {
		x[i] = base + float32(i)
	}
	if err := f.g.run(p, f.ins(), f.outs()); err != nil {
		t.Fatalf("f.g.run: %v", err)
	}
	for i, v := range bytesFloat32(f.out) {
		if want := base + float32(i) + 1; v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
}

func TestLaunchPTX(t *testing.T) {
	g := requireGPU(t)
	fn := addOne(t, g)
	f := newFixture(t, g, 1000)
	p := g.newProgram(f.s, nil)
	defer p.free()
	launchAddOne(p, fn, f.x, f.y, f.n)
	f.checkAddOne(t, p, 0)
	f.checkAddOne(t, p, -500)
}

func TestGraphReplay(t *testing.T) {
	g := requireGPU(t)
	fn := addOne(t, g)
	f := newFixture(t, g, 1000)
	p := g.newProgram(f.s, nil)
	defer p.free()
	launchAddOne(p, fn, f.x, f.y, f.n)
	if err := p.capture(); err != nil {
		t.Fatalf("p.capture: %v", err)
	}
	for i := range 100 {
		f.checkAddOne(t, p, float32(3*i))
	}

	// In place: y += 1 per replay. capture runs the ops once first.
	q := g.newProgram(f.s, nil)
	defer q.free()
	if err := g.memset(f.y, 4*f.n); err != nil {
		t.Fatalf("g.memset: %v", err)
	}
	launchAddOne(q, fn, f.y, f.y, f.n)
	if err := q.capture(); err != nil {
		t.Fatalf("q.capture: %v", err)
	}
	for range 100 {
		if err := g.run(q, nil, nil); err != nil {
			t.Fatalf("g.run: %v", err)
		}
	}
	if err := g.run(q, nil, f.outs()); err != nil {
		t.Fatalf("g.run: %v", err)
	}
	for i, v := range bytesFloat32(f.out) {
		if v != 102 {
			t.Fatalf("y[%d] = %v after capture and 101 replays, want 102", i, v)
		}
	}
}

// TestRunInsOuts uses device-to-device transfers on both sides and a
// recorded copy and zero.
func TestRunInsOuts(t *testing.T) {
	g := requireGPU(t)
	fn := addOne(t, g)
	f := newFixture(t, g, 256)
	stage, err := g.alloc(4 * f.n)
	if err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	defer g.free(stage)
	res, err := g.alloc(4 * f.n)
	if err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	defer g.free(res)
	x := make([]float32, f.n)
	for i := range x {
		x[i] = float32(i) / 4
	}
	if err := g.upload(stage, float32Bytes(x)); err != nil {
		t.Fatalf("g.upload: %v", err)
	}
	for _, captured := range []bool{false, true} {
		p := g.newProgram(f.s, nil)
		p.zero(f.y, 4*f.n)
		launchAddOne(p, fn, f.x, f.y, f.n)
		p.copy(f.x, f.y, 4*f.n) // x = y
		launchAddOne(p, fn, f.x, f.y, f.n)
		if captured {
			if err := p.capture(); err != nil {
				t.Fatalf("p.capture: %v", err)
			}
		}
		ins := []xfer{{dev: f.x, host: uintptr(stage), n: uintptr(4 * f.n), kind: xferD2D}}
		outs := []xfer{{dev: f.y, host: uintptr(res), n: uintptr(4 * f.n), kind: xferD2D}}
		if err := g.run(p, ins, outs); err != nil {
			t.Fatalf("g.run: %v", err)
		}
		got := make([]float32, f.n)
		if err := g.download(float32Bytes(got), res); err != nil {
			t.Fatalf("g.download: %v", err)
		}
		for i := range got {
			if want := x[i] + 2; got[i] != want {
				t.Fatalf("captured %v: y[%d] = %v, want %v", captured, i, got[i], want)
			}
		}
		p.free()
	}
}

func TestRunAllocsGPU(t *testing.T) {
	g := requireGPU(t)
	fn := addOne(t, g)
	f := newFixture(t, g, 1024)
	p := g.newProgram(f.s, nil)
	defer p.free()
	for range 8 {
		launchAddOne(p, fn, f.x, f.y, f.n)
	}
	if err := p.capture(); err != nil {
		t.Fatalf("p.capture: %v", err)
	}
	ins, outs := f.ins(), f.outs()
	var err error
	allocs := testing.AllocsPerRun(200, func() { err = g.run(p, ins, outs) })
	if err != nil {
		t.Fatalf("g.run: %v", err)
	}
	if allocs != 0 {
		t.Errorf("run allocates %v times per call", allocs)
	}
}

func TestInvalidPTX(t *testing.T) {
	g := requireGPU(t)
	bad := strings.Replace(addOnePTX, "add.f32 %f2, %f1, 0f3F800000;", "add.f32 %f2, %f1, %undeclared;", 1)
	for _, ptx := range []string{"this is not PTX", bad} {
		_, err := g.loadModule([]byte(ptx))
		if err == nil {
			t.Fatalf("loadModule(%.20q) succeeded", ptx)
		}
		t.Log(err)
		if !strings.Contains(err.Error(), "cuModuleLoadDataEx") || !strings.Contains(err.Error(), "JIT log") {
			t.Errorf("loadModule: %v does not name cuModuleLoadDataEx and the JIT log", err)
		}
		if !errors.Is(err, compute.ErrExecutionFailed) && !errors.Is(err, compute.ErrResourceUnavailable) {
			t.Errorf("loadModule: %v matches no compute sentinel", err)
		}
	}
	if strings.Contains(bad, "0f3F800000") {
		t.Fatal("the broken PTX still holds the constant it was to replace")
	}
	if g.broken() != nil {
		t.Errorf("invalid PTX marked the GPU broken: %v", g.broken())
	}
	if _, err := g.loadModule(nil); !errors.Is(err, compute.ErrInvalidArtifact) {
		t.Errorf("loadModule(nil): %v", err)
	}
	m, err := g.loadModule([]byte(addOnePTX))
	if err != nil {
		t.Fatalf("g.loadModule: %v", err)
	}
	defer m.unload()
	if _, err := m.function("no_such_kernel"); err == nil || !strings.Contains(err.Error(), "no_such_kernel") {
		t.Errorf("function(no_such_kernel): %v", err)
	}
}
