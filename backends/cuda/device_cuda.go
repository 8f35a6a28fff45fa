//go:build cuda && cgo

package cuda

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
)

// useGraphs says whether recorded passes are captured into CUDA graphs
// and replayed with one graph launch (true), or enqueued op by op on each
// run. Benchmarks flip it to measure what graphs save.
var useGraphs = true

// device is one model's hold on the GPU, the core.Recorder the shared
// planner runs on: its own non-blocking stream and cuBLAS handle, the
// process's context and kernels, and the programs recorded for it.
type device struct {
	g    *gpu
	fns  [core.NumKernels]function
	st   *stream
	bl   *blas
	tf32 bool

	// cur is the program being recorded (recording) or the one-off pass
	// between Begin and End; err is the first error met while filling it.
	cur       *program
	recording bool
	err       error

	progs map[core.ProgID]*program
	next  core.ProgID
	// ins and outs are Run's transfer lists, grown to the largest call
	// seen, so that a call allocates nothing.
	ins, outs []xfer
	// params is the scratch a launch's parameter buffer is packed in; the
	// program copies it.
	params []byte
	// onGemm, when set (by tests over the stand-in driver, which keeps
	// no record of them), sees every cuBLAS call as it is recorded.
	onGemm func(gemmDesc)
}

var _ core.Recorder = (*device)(nil)

// openDevice opens the process's GPU and gives the model its own stream
// and cuBLAS handle.
func openDevice(tf32 bool) (*device, error) {
	g, err := openShared()
	if err != nil {
		return nil, err
	}
	if err := g.broken(); err != nil {
		return nil, err
	}
	st, err := g.newStream()
	if err != nil {
		return nil, err
	}
	bl, err := g.openBlas(st)
	if err != nil {
		st.destroy()
		return nil, err
	}
	if err := bl.setTF32(tf32); err != nil {
		bl.close()
		st.destroy()
		return nil, err
	}
	return &device{g: g, st: st, bl: bl, tf32: tf32, progs: map[core.ProgID]*program{}}, nil
}

// Name describes the GPU: its name, compute capability and memory.
func (d *device) Name() string {
	major, minor := d.g.capability()
	return fmt.Sprintf("%s (sm_%d%d, %d MiB)", d.g.name(), major, minor, d.g.totalMem()>>20)
}

// Compile loads the embedded PTX once per process and looks the kernels
// up.
func (d *device) Compile(kernels []core.KernelID) error {
	fns, err := compileShared(d.g, kernels)
	d.fns = fns
	return err
}

// Alloc returns n bytes of zeroed device memory, with no host bytes: the
// host never sees it.
func (d *device) Alloc(n int) (core.BufID, []byte, error) {
	p, err := d.g.alloc(n)
	if err != nil {
		return 0, nil, err
	}
	if err := d.g.memset(p, n); err != nil {
		d.g.free(p)
		return 0, nil, err
	}
	return core.BufID(p), nil, nil
}

// Wrap never binds host bytes in place: device memory is separate.
func (d *device) Wrap([]byte) (core.BufID, bool) { return 0, false }

// Release frees a buffer from Alloc.
func (d *device) Release(b core.BufID) {
	if b != 0 {
		d.g.free(devptr(b))
	}
}

// addr returns a binding's device address.
func addr(b core.Binding) devptr { return devptr(b.Buf) + devptr(b.Off) }

// Upload copies src to dst synchronously (constants, at load).
func (d *device) Upload(dst core.Binding, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return d.g.upload(addr(dst), src)
}

// Begin starts a one-off pass, run by End without being recorded.
func (d *device) Begin() error {
	if err := d.g.broken(); err != nil {
		return err
	}
	d.cur, d.recording, d.err = d.g.newProgram(d.st, d.bl), false, nil
	return nil
}

// End runs the one-off pass and waits for it.
func (d *device) End() error {
	p, err := d.finish()
	if err != nil {
		return err
	}
	defer p.free()
	return d.g.run(p, nil, nil)
}

// BeginRecord starts recording a pass.
func (d *device) BeginRecord() error {
	if err := d.Begin(); err != nil {
		return err
	}
	d.recording = true
	return nil
}

// EndRecord ends the recording and, with useGraphs, captures it into a
// CUDA graph.
func (d *device) EndRecord() (core.ProgID, error) {
	p, err := d.finish()
	if err != nil {
		return 0, err
	}
	if useGraphs {
		if err := p.capture(); err != nil {
			p.free()
			return 0, err
		}
	}
	d.next++
	d.progs[d.next] = p
	return d.next, nil
}

// finish detaches the current program, or returns the first error met
// while filling it.
func (d *device) finish() (*program, error) {
	p, err := d.cur, d.err
	d.cur, d.recording, d.err = nil, false, nil
	if p == nil {
		return nil, errs.New(errs.ExecutionFailed, "cuda: no pass begun")
	}
	if err != nil {
		p.free()
		return nil, err
	}
	return p, nil
}

// Dispatch appends one kernel launch to the current program. gemm_f32
// launches whose strides cuBLAS can read become cuBLAS calls (with a
// broadcast copy of the bias first); others launch the kernel. The
// kernel's parameters are the bindings' device addresses, eight bytes
// each, then the arguments struct.
func (d *device) Dispatch(k core.KernelID, args []byte, bufs []core.Binding, groups, threads [3]uint32) {
	if d.cur == nil || d.err != nil {
		return
	}
	if k >= core.NumKernels {
		d.err = errs.New(errs.Unsupported, "cuda: no kernel %d", k)
		return
	}
	if d.fns[k] == 0 {
		d.err = errs.New(errs.Unsupported, "cuda: kernel %s is not in the embedded PTX", core.KernelNames[k])
		return
	}
	if k == core.KGemm && len(bufs) == 4 && d.gemm(args, bufs) {
		return
	}
	d.launch(k, args, bufs, groups, threads)
}

// launch appends a kernel launch.
func (d *device) launch(k core.KernelID, args []byte, bufs []core.Binding, groups, threads [3]uint32) {
	p := d.params[:0]
	for _, b := range bufs {
		p = binary.LittleEndian.AppendUint64(p, uint64(addr(b)))
	}
	p = append(p, args...)
	d.params = p
	d.cur.launch(d.fns[k], groups, threads, 0, p)
}

// gemm appends a gemm_f32 launch as cuBLAS calls, or reports false when
// its strides have no cuBLAS reading. 16-bit A and B (GemmArgs.ABType)
// become GemmEx calls on that type with float32 C and compute.
func (d *device) gemm(args []byte, bufs []core.Binding) bool {
	var a core.GemmArgs
	if _, err := binary.Decode(args, binary.LittleEndian, &a); err != nil {
		return false
	}
	dt, ab, ok := gemmType(a.ABType)
	if !ok {
		return false
	}
	gp, ok := planGemm(&a)
	if !ok {
		return false
	}
	x, w, c, y := bufs[0], bufs[1], bufs[2], bufs[3]
	if gp.bias != nil {
		n := int(gp.bias.N)
		groups := [3]uint32{uint32((n + core.GroupSize - 1) / core.GroupSize), 1, 1}
		d.launch(core.KCopy32, core.Pack(nil, gp.bias), []core.Binding{c, y}, groups, [3]uint32{core.GroupSize, 1, 1})
	}
	const f32 = 4
	for _, call := range gp.calls {
		g := gemmDesc{
			transA: call.transA, transB: call.transB,
			m: call.m, n: call.n, k: call.k,
			alpha: call.alpha, beta: call.beta,
			a: addr(w) + devptr(call.offA*ab), b: addr(x) + devptr(call.offB*ab), c: addr(y) + devptr(call.offC*f32),
			lda: call.lda, ldb: call.ldb, ldc: call.ldc,
			strideA: call.strideA, strideB: call.strideB, strideC: call.strideC,
			batch: call.batch,
			aType: dt, bType: dt,
		}
		if d.onGemm != nil {
			d.onGemm(g)
		}
		d.cur.gemm(g)
	}
	return true
}

// gemmType maps GemmArgs.ABType to the cuBLAS element type of both
// operands and its size in bytes, or reports false for a type cuBLAS is
// not given (the launch then runs the gemm_f32 kernel, which reads it).
func gemmType(ab uint32) (dt uint8, size int64, ok bool) {
	switch ab {
	case core.TF32:
		return dtF32, 4, true
	case core.TF16:
		return dtF16, 2, true
	case core.TBF16:
		return dtBF16, 2, true
	}
	return 0, 0, false
}

// Run stages ins, replays program p, copies outs back and waits: one cgo
// call. It allocates nothing once the transfer lists have grown to the
// call's size.
func (d *device) Run(id core.ProgID, ins, outs []core.Transfer) error {
	p := d.progs[id]
	if p == nil {
		return errs.New(errs.ExecutionFailed, "cuda: no program %d", id)
	}
	var err error
	if d.ins, err = fillXfers(d.ins, ins, xferH2D); err != nil {
		return err
	}
	if d.outs, err = fillXfers(d.outs, outs, xferD2H); err != nil {
		return err
	}
	return d.g.run(p, d.ins, d.outs)
}

// fillXfers turns transfers into the driver's copies, reusing dst.
// hostKind is the direction of a copy to or from host memory.
func fillXfers(dst []xfer, ts []core.Transfer, hostKind uint32) ([]xfer, error) {
	dst = dst[:0]
	for i := range ts {
		t := &ts[i]
		n := t.Size
		if n == 0 {
			n = len(t.Host)
		}
		if n == 0 {
			continue
		}
		x := xfer{dev: addr(t.At), n: uintptr(n)}
		switch {
		case t.DevAddr != 0:
			x.host, x.kind = t.DevAddr, xferD2D
		case n <= len(t.Host):
			x.host, x.kind = uintptr(unsafe.Pointer(unsafe.SliceData(t.Host))), hostKind
		default:
			return dst, errs.New(errs.ExecutionFailed, "cuda: a transfer of %d bytes from %d host bytes", n, len(t.Host))
		}
		dst = append(dst, x)
	}
	return dst, nil
}

// Drop frees a program.
func (d *device) Drop(id core.ProgID) {
	if p := d.progs[id]; p != nil {
		p.free()
		delete(d.progs, id)
	}
}

// AllocStage returns n bytes of pinned host memory.
func (d *device) AllocStage(n int) ([]byte, error) { return d.g.allocHost(n) }

// FreeStage frees memory from AllocStage.
func (d *device) FreeStage(b []byte) {
	if len(b) > 0 {
		d.g.freeHost(b)
	}
}

// DeviceAddr reports whether b lies within device memory NewTensor
// allocated, and returns its address.
func (d *device) DeviceAddr(b []byte) (uintptr, bool) {
	if len(b) == 0 {
		return 0, false
	}
	a := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	r, ok := regions.find(a, uintptr(len(b)))
	if !ok || r.class != memclass.Device(ordinal) {
		return 0, false
	}
	return a, true
}

// Close frees the device's programs, cuBLAS handle and stream; the
// process keeps the context and kernels for other models.
func (d *device) Close() {
	for id, p := range d.progs {
		p.free()
		delete(d.progs, id)
	}
	if d.cur != nil {
		d.cur.free()
		d.cur = nil
	}
	if d.bl != nil {
		d.bl.close()
		d.bl = nil
	}
	if d.st != nil {
		d.st.destroy()
		d.st = nil
	}
}
