package metal

// bufID is a device buffer handle: an MTLBuffer on Apple GPUs, an index
// into the fake device's memory in tests. Zero is no buffer.
type bufID uintptr

// binding is one buffer bound to a kernel: the buffer and a byte offset
// into it.
type binding struct {
	buf bufID
	off int
}

// device is what a plan runs on. The Metal implementation (device_darwin.go,
// built with -tags metal on darwin) drives the GPU through the Objective-C
// runtime; tests run the same plans on a fake that executes every kernel on
// the CPU. Calls on one device come from one goroutine at a time.
type device interface {
	// name describes the device, such as "Apple M2".
	name() string
	// compile builds the compute pipelines of the given kernels from
	// mslSource; compiler errors come back with the compiler's log.
	compile(kernels []kernelID) error
	// alloc returns a shared-storage buffer of n bytes (n > 0) and its
	// contents, which the host reads and writes in place.
	alloc(n int) (bufID, []byte, error)
	// wrap returns a buffer over b's memory without copying when b's start
	// and length suit the device (page-aligned), or ok false.
	wrap(b []byte) (buf bufID, ok bool)
	// release frees a buffer from alloc or wrap.
	release(b bufID)
	// begin starts a command buffer with one compute encoder. Everything
	// up to end is one submission.
	begin() error
	// dispatch encodes one kernel launch: groups threadgroups of threads
	// threads each, the packed arguments at buffer(0), bufs at buffer(1...).
	dispatch(k kernelID, args []byte, bufs []binding, groups, threads [3]uint32)
	// end commits the command buffer and waits for it once; a GPU error
	// comes back as an error.
	end() error
	// close releases the device's queue and pipelines.
	close()
}
