//go:build metal && darwin

package metal

import (
	"os"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego/objc"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/internal/errs"
)

// mtlDevice drives one Metal device through one command queue. Buffers use
// MTLResourceStorageModeShared (options 0): unified memory that the host
// and the GPU both address.
type mtlDevice struct {
	caller
	dev, queue uintptr
	pipes      [gpu.NumKernels]uintptr
	page       int
	// Per-call state, between begin and end.
	pool, cb, enc uintptr
	// sizes holds the two MTLSize arguments of a dispatch; it lives in the
	// device, on the heap, so its address can be passed to the framework.
	sizes [2][3]uint64
	// errOut receives NSError pointers from calls that report them.
	errOut uintptr
}

// openDevice returns the system's default Metal device with a fresh
// command queue.
func openDevice() (gpu.Device, error) {
	if err := loadRuntime(); err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d := &mtlDevice{page: os.Getpagesize()}
	pool := d.call(poolPush)
	defer d.call(poolPop, pool)
	d.dev = d.call(createDevice)
	if d.dev == 0 {
		return nil, errs.New(errs.ResourceUnavailable, "metal: no Metal device (MTLCreateSystemDefaultDevice returned nil)")
	}
	d.queue = d.send(d.dev, selNewQueue)
	if d.queue == 0 {
		d.send(d.dev, selRelease)
		return nil, errs.New(errs.ResourceUnavailable, "metal: the device gave no command queue")
	}
	return d, nil
}

func (d *mtlDevice) Name() string {
	return goString(d.send(d.dev, selName))
}

// compile builds the library from mslSource, fast math off so that exp,
// tanh and division keep their IEEE behaviour, and one pipeline per
// kernel. A compiler failure comes back with the compiler's log.
func (d *mtlDevice) Compile(ks []gpu.KernelID) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := d.call(poolPush)
	defer d.call(poolPop, pool)
	opts := uintptr(objc.ID(classMTLCompOp).Send(selNew))
	if opts == 0 {
		return errs.New(errs.ResourceUnavailable, "metal: MTLCompileOptions new returned nil")
	}
	defer d.send(opts, selRelease)
	objc.ID(opts).Send(selSetFastMath, false)
	d.errOut = 0
	lib := uintptr(objc.ID(d.dev).Send(selNewLibrary, mslSource, opts, unsafe.Pointer(&d.errOut)))
	if lib == 0 {
		return errs.New(errs.ResourceUnavailable, "metal: compiling the kernels failed: %s", errorText(d.errOut))
	}
	defer d.send(lib, selRelease)
	for _, k := range ks {
		fn := uintptr(objc.ID(lib).Send(selNewFunction, nsString(gpu.KernelNames[k])))
		if fn == 0 {
			return errs.New(errs.ResourceUnavailable, "metal: kernel %s is missing from the compiled library", gpu.KernelNames[k])
		}
		d.errOut = 0
		p := uintptr(objc.ID(d.dev).Send(selNewPipeline, fn, unsafe.Pointer(&d.errOut)))
		d.send(fn, selRelease)
		if p == 0 {
			return errs.New(errs.ResourceUnavailable, "metal: building the pipeline of %s failed: %s", gpu.KernelNames[k], errorText(d.errOut))
		}
		if got := d.send(p, selMaxThreads); got < gpu.GroupSize || got < gpu.GemmTile*gpu.GemmTile {
			d.send(p, selRelease)
			return errs.New(errs.ResourceUnavailable, "metal: kernel %s runs at most %d threads per threadgroup, the plans launch %d", gpu.KernelNames[k], got, gpu.GroupSize)
		}
		if d.pipes[k] != 0 {
			d.send(d.pipes[k], selRelease)
		}
		d.pipes[k] = p
	}
	return nil
}

func (d *mtlDevice) Alloc(n int) (gpu.BufID, []byte, error) {
	b := d.send(d.dev, selNewBuffer, uintptr(n), 0)
	if b == 0 {
		return 0, nil, errs.New(errs.ResourceUnavailable, "metal: allocating a buffer of %d bytes failed", n)
	}
	return gpu.BufID(b), bytesAt(d.send(b, selContents), n), nil
}

// wrap binds b's memory without a copy when its start and length are
// page-aligned, as newBufferWithBytesNoCopy requires. The caller keeps b
// alive, and unchanged, until the buffer is released.
func (d *mtlDevice) Wrap(b []byte) (gpu.BufID, bool) {
	if len(b) == 0 || len(b)%d.page != 0 || uintptr(unsafe.Pointer(&b[0]))%uintptr(d.page) != 0 {
		return 0, false
	}
	buf := d.send(d.dev, selNewBufferNoCopy, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0, 0)
	return gpu.BufID(buf), buf != 0
}

// Upload copies src into dst's shared storage; the host sees it, so the
// copy is a plain store.
func (d *mtlDevice) Upload(dst gpu.Binding, src []byte) error {
	if dst.Buf == 0 || len(src) == 0 {
		return nil
	}
	copy(bytesAt(d.send(uintptr(dst.Buf), selContents)+uintptr(dst.Off), len(src)), src)
	return nil
}

func (d *mtlDevice) Release(b gpu.BufID) {
	if b != 0 {
		d.send(uintptr(b), selRelease)
	}
}

// begin locks the goroutine to its thread (an autorelease pool belongs to
// a thread), pushes a pool and opens a command buffer with one compute
// encoder.
func (d *mtlDevice) Begin() error {
	runtime.LockOSThread()
	d.pool = d.call(poolPush)
	d.cb = d.send(d.queue, selCommandBuffer)
	if d.cb != 0 {
		d.enc = d.send(d.cb, selComputeEncoder)
	}
	if d.cb == 0 || d.enc == 0 {
		d.finish()
		return errs.New(errs.ResourceUnavailable, "metal: the queue gave no command buffer or encoder")
	}
	return nil
}

func (d *mtlDevice) Dispatch(k gpu.KernelID, args []byte, bufs []gpu.Binding, groups, threads [3]uint32) {
	d.send(d.enc, selSetPipeline, d.pipes[k])
	d.send(d.enc, selSetBytes, uintptr(unsafe.Pointer(&args[0])), uintptr(len(args)), 0)
	for i, b := range bufs {
		d.send(d.enc, selSetBuffer, uintptr(b.Buf), uintptr(b.Off), uintptr(i+1))
	}
	for i := range 3 {
		d.sizes[0][i], d.sizes[1][i] = uint64(groups[i]), uint64(threads[i])
	}
	d.dispatchSizes()
}

// end commits the command buffer, waits for it once, and reports a GPU
// failure with the command buffer's error.
func (d *mtlDevice) End() error {
	defer d.finish()
	d.send(d.enc, selEndEncoding)
	d.send(d.cb, selCommit)
	d.send(d.cb, selWait)
	if st := d.send(d.cb, selStatus); st != statusCompleted {
		return errs.New(errs.ExecutionFailed, "metal: command buffer status %d: %s", st, errorText(d.send(d.cb, selError)))
	}
	return nil
}

// finish pops the call's autorelease pool (which frees the command buffer
// and encoder) and unlocks the thread.
func (d *mtlDevice) finish() {
	d.call(poolPop, d.pool)
	d.pool, d.cb, d.enc = 0, 0, 0
	runtime.UnlockOSThread()
}

func (d *mtlDevice) Close() {
	for k, p := range d.pipes {
		if p != 0 {
			d.send(p, selRelease)
			d.pipes[k] = 0
		}
	}
	if d.queue != 0 {
		d.send(d.queue, selRelease)
	}
	if d.dev != 0 {
		d.send(d.dev, selRelease)
	}
	d.queue, d.dev = 0, 0
}
