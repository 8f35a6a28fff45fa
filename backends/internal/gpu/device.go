package gpu

// BufID is a device buffer handle: an MTLBuffer on Apple GPUs, a device
// allocation on CUDA, an index into the fake device's memory in tests.
// Zero is no buffer.
type BufID uintptr

// Binding is one buffer bound to a kernel: the buffer and a byte offset
// into it.
type Binding struct {
	Buf BufID
	Off int
}

// Device is what a plan runs on. Calls on one device come from one
// goroutine at a time. A device whose memory the host can see (Metal's
// shared storage) returns host bytes from Alloc and the exec writes inputs
// and reads outputs in place; a device whose memory the host cannot see
// (CUDA) returns nil host bytes, and the exec moves bytes with Upload at
// load and, per call, through Recorder.Run.
type Device interface {
	// Name describes the device, such as "Apple M2".
	Name() string
	// Compile prepares the given kernels (Metal: builds the pipelines from
	// the MSL source); compiler errors come back with the compiler's log.
	Compile(kernels []KernelID) error
	// Alloc returns a buffer of n bytes (n > 0) and, when the host can see
	// it, its contents, which the host reads and writes in place; nil
	// contents when it cannot (CUDA device memory).
	Alloc(n int) (BufID, []byte, error)
	// Wrap returns a buffer over b's memory without copying when b's start
	// and length suit the device (page-aligned shared memory), or ok
	// false. A device whose memory the host cannot see always says false.
	Wrap(b []byte) (buf BufID, ok bool)
	// Release frees a buffer from Alloc or Wrap.
	Release(b BufID)
	// Upload copies src to dst synchronously. It is used at load for
	// constants when Alloc gave no host bytes.
	Upload(dst Binding, src []byte) error
	// Begin starts one submission (Metal: a command buffer with one
	// compute encoder). Everything up to End is one submission.
	Begin() error
	// Dispatch encodes one kernel launch: groups thread groups of threads
	// threads each, the packed arguments first, then bufs in order (Metal:
	// buffer(0) and buffer(1...)).
	Dispatch(k KernelID, args []byte, bufs []Binding, groups, threads [3]uint32)
	// End submits and waits once; a device error comes back as an error.
	End() error
	// Close releases the device's queue, pipelines and modules.
	Close()
}

// ProgID names a recorded pass of a Recorder. Zero is no program.
type ProgID uintptr

// Recorder is a Device that records a pass once and replays it in one
// call (CUDA: one cgo call stages the inputs, launches a CUDA graph, copies
// the outputs back and synchronises). The exec records once per set of
// item plans, item count and arena, and replays after.
type Recorder interface {
	Device
	// BeginRecord starts a recording: the Dispatch calls until EndRecord
	// are recorded, not run.
	BeginRecord() error
	// EndRecord ends the recording and returns the program.
	EndRecord() (ProgID, error)
	// Run copies every ins transfer to its binding, runs program p, copies
	// every binding of outs back, and waits once.
	Run(p ProgID, ins, outs []Transfer) error
	// Drop frees a program.
	Drop(p ProgID)
	// AllocStage returns n bytes of host memory the device copies from and
	// to fast (CUDA: pinned), for staging inputs and outputs.
	AllocStage(n int) ([]byte, error)
	// FreeStage frees memory from AllocStage.
	FreeStage(b []byte)
	// DeviceAddr reports whether b lies within one of the device's own
	// allocations, by address range, and returns its device address. b's
	// bytes are a device address the host never dereferences: a payload
	// whose Place is memclass.Device carries such a slice.
	DeviceAddr(b []byte) (uintptr, bool)
}

// Transfer is one copy of Recorder.Run: between a binding and either host
// memory (Host, usually stage memory from AllocStage) or device memory
// already holding a payload (DevAddr, from DeviceAddr: a device-to-device
// copy). Exactly one of Host and DevAddr is set; the copy moves Size bytes
// (len(Host) when Size is zero).
type Transfer struct {
	At      Binding
	Host    []byte
	DevAddr uintptr
	Size    int
}
