//go:build cuda && cgo

package cuda

import "unsafe"

// packParams writes a kernel's parameter buffer into dst[:0] and returns
// it: the buffer addresses first, 8 bytes each in order, then *args by
// value at offset 8*len(bufs) (nothing when args is nil). That is the
// layout of `kernel(T0* b0, ..., Tn* bn, const XArgs a)` that kernels.cu
// and the planner agree on; T must have the layout of XArgs (fixed-size
// fields, no Go pointers). It allocates only when dst is too small.
func packParams[T any](dst []byte, bufs []devptr, args *T) []byte {
	n := 8 * len(bufs)
	if args != nil {
		n += int(unsafe.Sizeof(*args))
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	for i, b := range bufs {
		putU64(dst[8*i:], uint64(b))
	}
	if args != nil {
		copy(dst[8*len(bufs):], unsafe.Slice((*byte)(unsafe.Pointer(args)), unsafe.Sizeof(*args)))
	}
	return dst
}

// putU64 stores v little-endian (the byte order of every CUDA host).
func putU64(b []byte, v uint64) {
	_ = b[7]
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}
